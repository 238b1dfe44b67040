/// Receives the runner's durable milestones; the journal implements it (`JournalRecorder`).
///
/// The runner stays independent of files: it awaits each frame call and stops the run with
/// `StopReason.recordingFailed` when one throws, so no frame is ever fired that the journal
/// does not know about. Frame calls come in run order and never overlap each other: `frameDidSave` may
/// run while the camera sets the next frame's speed (the runner writes the record beside that round trip),
/// and `frameWillFire` while the camera half-presses the shutter (the release waits for it), but
/// `frameWillFire` of the next frame is only called after `frameDidSave` returned, and the runner
/// reports the next frame, parks or ends only after it returned. `frameDidSave` is awaited even when the
/// run's task is cancelled, so it should finish its write rather than throw on cancellation.
/// `runDidPause`/`runDidResume` may overlap the frame calls (the keyboard or the network monitor calls
/// `pause` at any time), so implementations are actors.
/// Errors of `frameDidFail`, `runDidPause`, `runDidResume` and `runDidFinish` are ignored: the frame
/// records already on disk are what resume relies on.
package protocol ShootRecorder: Sendable {
    /// A run starts at `position` (fresh or resuming), after the camera checks passed; a throw stops it.
    func runWillStart(at position: ShootPosition, restartingSet: Bool) async throws
    /// The frame at `position` is about to fire with `setting` (the speed is already set and confirmed): called
    /// before the release, possibly while the half-press is in flight, once per attempt at the frame (a busy
    /// retry of the capture does not call it again). A throw means the shutter is not released.
    func frameWillFire(at position: ShootPosition, setting: CameraShutterSpeed) async throws
    /// The frame at `position` fired (the body confirmed the release); its image waits in the camera until it is
    /// downloaded. A throw stops the run with the frame still "in flight" (resume looks for its image first).
    func frameDidFire(at position: ShootPosition) async throws
    /// Every file of the frame at `position` is downloaded and durable. A throw stops the run with the frame
    /// not saved (resume fetches what is still in the camera, or reshoots it).
    func frameDidSave(at position: ShootPosition, frame: CapturedFrame) async throws
    /// The frame at `position` failed; `mayHaveFired` is true when the shutter may have been released.
    func frameDidFail(at position: ShootPosition, error: any Error, mayHaveFired: Bool) async throws
    /// A pause hold was added.
    func runDidPause(_ reason: PauseReason) async throws
    /// A pause hold was released.
    func runDidResume(_ reason: PauseReason) async throws
    /// The run ended.
    func runDidFinish(_ result: ShootResult) async throws
}

/// A recorder that records nothing: for runs without a journal.
package struct NoRecorder: ShootRecorder {
    /// Creates the recorder.
    package init() {}
    /// Does nothing.
    package func runWillStart(at position: ShootPosition, restartingSet: Bool) async throws {}
    /// Does nothing.
    package func frameWillFire(at position: ShootPosition, setting: CameraShutterSpeed) async throws {}
    /// Does nothing.
    package func frameDidFire(at position: ShootPosition) async throws {}
    /// Does nothing.
    package func frameDidSave(at position: ShootPosition, frame: CapturedFrame) async throws {}
    /// Does nothing.
    package func frameDidFail(at position: ShootPosition, error: any Error, mayHaveFired: Bool) async throws {}
    /// Does nothing.
    package func runDidPause(_ reason: PauseReason) async throws {}
    /// Does nothing.
    package func runDidResume(_ reason: PauseReason) async throws {}
    /// Does nothing.
    package func runDidFinish(_ result: ShootResult) async throws {}
}
