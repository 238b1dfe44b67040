import Exposure
import Foundation
import Timing

/// Fires every frame of a bracket plan on a `RemoteCamera`, in order, through busy answers, pauses and
/// dropped connections, and reports progress as an `AsyncSequence` of `ShootEvent`s.
///
/// Capture first, download behind: per frame, set the speed (confirmed by the camera), release (the camera
/// calls back to record "about to fire" before the release, while the half-press is in flight), and once
/// the body confirms the release record the frame "in the camera" and go on to the next frame at once. The
/// images wait in the body's buffer; they are downloaded when `bufferLimit` frames wait, when a release or
/// a speed change does not take while images wait, after a reconnect, and after the last frame. Each
/// downloaded file is filed under the frame its own EXIF exposure says it is (`DownloadQueue`); a frame
/// whose image never arrives is shot again before the bracket ends. Control from outside:
/// - `pause(reason:)` / `resume(reason:)` add and release holds; shooting parks between frames while any
///   hold is active (the keyboard, a network monitor and the reconnect loop each hold their own kind), and
///   download meanwhile what waits in the camera.
/// - `stop()` fires no more frames and downloads what waits in the camera, then ends the run (resumable); a
///   `stop()` during those downloads, or a second one, ends it between two frames' files, leaving the rest in the
///   camera for `resume`. Cancelling the run's task leaves them there too.
/// - Cancelling the task that awaits `run(from:restartingInterruptedSet:)` abandons the frame in flight;
///   it is reshot on resume.
///
/// Durable bookkeeping goes through a `ShootRecorder` (the journal), so the runner never touches files.
/// Time goes through the injected clock, so tests run backoffs and timeouts in virtual time.
package actor BracketRunner {
    /// Settings of a run.
    package struct Configuration: Sendable {
        /// Added to the exposure time to give the idle timeout (exposure + 10 s by default).
        package var idleMargin: Duration
        /// Retries for busy (transient) camera errors.
        package var busyRetry: RetryPolicy
        /// Auto-reconnect after the connection drops.
        package var reconnect: ReconnectPolicy
        /// The shoot's output folder; frames go to one subfolder per set (`set-01`, `set-02`, ...).
        package var outputDirectory: URL
        /// The most frames fired ahead of the downloads (the images the body is trusted to hold).
        package var bufferLimit: Int
        /// Whether images are downloaded at all (false: the body keeps them on its card, and a confirmed
        /// release completes the frame).
        package var downloads: Bool
        /// The captures this body is known to hold (learned in an earlier shoot of it), if known: only the room
        /// each release needs is downloaded from the start, as after the runner learned it itself.
        package var knownBufferCapacity: Int?

        /// The default of `bufferLimit`: see the README ("The camera's buffer") for why 16.
        package static let defaultBufferLimit = 16
        /// The default of `idleMargin`: a body may take 10 s beyond a long exposure to process its image.
        package static let defaultIdleMargin: Duration = .seconds(10)

        /// Creates a configuration.
        package init(
            outputDirectory: URL,
            idleMargin: Duration = Configuration.defaultIdleMargin,
            busyRetry: RetryPolicy = .busy,
            reconnect: ReconnectPolicy = .standard,
            bufferLimit: Int = Configuration.defaultBufferLimit,
            downloads: Bool = true
        ) {
            self.outputDirectory = outputDirectory
            self.idleMargin = idleMargin
            self.busyRetry = busyRetry
            self.reconnect = reconnect
            self.bufferLimit = max(1, bufferLimit)
            self.downloads = downloads
        }

        /// Where the frame at `position` is saved: `<output>/set-NN/`, camera file names kept.
        package func destination(for position: ShootPosition) -> CaptureDestination {
            let number = position.set < 10 ? "0\(position.set)" : "\(position.set)"
            return CaptureDestination(
                directory: outputDirectory.appendingPathComponent("set-\(number)", isDirectory: true))
        }
    }

    /// The run's events, in order; `.finished` is the last. One consumer.
    package nonisolated let events: AsyncStream<ShootEvent>

    /// The camera driven.
    let camera: any RemoteCamera
    /// The plan shot.
    let plan: BracketPlan
    /// The run's settings.
    let configuration: Configuration
    /// Every wait (backoff, idle timeout, reconnect) goes through this clock.
    let clock: any Clock<Duration>
    /// Receives the durable milestones.
    let recorder: any ShootRecorder
    private let eventSink: AsyncStream<ShootEvent>.Continuation
    /// Pokes the parked run loop after a hold is released or a stop is requested.
    private let wakeups: AsyncStream<Void>
    private let wakeSink: AsyncStream<Void>.Continuation

    /// The current state: it carries the controls and the progress (BracketRunner+State.swift).
    package private(set) var state: State = .ready(Controls())

    /// The controls of the state (empty once the run is over, where setting them changes nothing).
    var controls: Controls {
        get { state.controls ?? Controls() }
        set { state = state.with(newValue) }
    }

    /// The progress of the state (empty before `run` and once it is over, where setting it changes nothing).
    var progress: Progress {
        get { state.progress ?? Progress() }
        set { state = state.with(newValue) }
    }

    /// Creates a runner for `plan` on `camera`; `recorder` receives the durable milestones (the journal).
    package init(
        camera: any RemoteCamera,
        plan: BracketPlan,
        configuration: Configuration,
        recorder: any ShootRecorder = NoRecorder(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.camera = camera
        self.plan = plan
        self.configuration = configuration
        self.recorder = recorder
        self.clock = clock
        (events, eventSink) = AsyncStream.makeStream(of: ShootEvent.self, bufferingPolicy: .unbounded)
        (wakeups, wakeSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The active pause holds.
    package var activeHolds: [PauseReason] { controls.holds.values.sorted { $0.kind.rawValue < $1.kind.rawValue } }

    // MARK: - Control

    /// Holds shooting for `reason` (parks before the next frame); a second hold of the same kind only
    /// updates its detail. Ignored once the run is finished.
    package func pause(reason: PauseReason) async {
        if case .finished = state { return }
        let isNew = controls.holds[reason.kind] == nil
        controls.holds[reason.kind] = reason
        guard isNew else { return }
        eventSink.yield(.paused(reason))
        // A pause that is not logged loses no frame; the frame records are what resume relies on.
        try? await recorder.runDidPause(reason)
    }

    /// Releases the hold of `reason.kind` (`reason` is what is reported: "network back"); shooting
    /// continues when no hold is left. Ignored when no such hold is active.
    package func resume(reason: PauseReason) async {
        guard controls.holds.removeValue(forKey: reason.kind) != nil else { return }
        eventSink.yield(.resumed(reason))
        wakeSink.yield()
        try? await recorder.runDidResume(reason)
    }

    /// Ends the run after the frame in flight is saved (or at once when parked or reconnecting).
    package func stop() {
        if case .finished = state { return }
        controls.stop = controls.stop.isRequested || isDownloading ? .leavingImagesInCamera : .afterDownloading
        wakeSink.yield()
    }

    /// Whether the run is downloading now.
    private var isDownloading: Bool {
        if case .downloading = state { return true }
        return false
    }

    // MARK: - Run

    /// Shoots the plan from `start` (1-based; frames before it count as done) to the end and returns how
    /// it went. With `restartingInterruptedSet`, shooting starts at the first frame of `start`'s set.
    /// `resuming` says which later frames are saved already and which wait in the camera (their images are
    /// downloaded first, and only frames whose image is gone are shot again). Call once per runner.
    package func run(
        from start: ShootPosition = .start, restartingInterruptedSet: Bool = false, resuming: ResumeState = .init()
    ) async -> ShootResult {
        // The body's buffer size as an earlier shoot of it learned (asked before the state is checked: no await
        // comes between the check and the state's change).
        let remembered = configuration.knownBufferCapacity == nil ? await camera.rememberedBufferCapacity() : nil
        guard case .ready = state else { preconditionFailure("a BracketRunner runs once") }
        let positions = plan.positions
        let first = restartingInterruptedSet ? ShootPosition(set: start.set, frame: 1) : start
        if positions.isEmpty { return await finish(nil, resumeAt: nil) }
        guard let index = positions.firstIndex(of: first) else {
            return await finish(.failed(ShootingError.invalidResumePosition(first)), resumeAt: first)
        }
        let inCamera = restartingInterruptedSet ? [] : resuming.inCamera.filter { $0 >= first }
        let uncertain = restartingInterruptedSet ? [] : resuming.mayHaveFired.filter { $0 >= first }
        var start = Progress()
        start.learnedBufferCapacity = configuration.knownBufferCapacity ?? remembered
        start.toShoot = positions[index...].filter {
            !resuming.saved.contains($0) && !inCamera.contains($0) && !uncertain.contains($0)
        }
        start.completed = positions.count - start.toShoot.count - inCamera.count - uncertain.count
        state = .preparing(controls, start)
        do {
            progress.preparedSettings = try await prepareCamera(for: positions[index...], reportingAt: first)
        } catch {
            return await finish(stopReason(for: error), resumeAt: first)
        }
        await reportCameraNotes()
        do {
            try await recorder.runWillStart(at: first, restartingSet: restartingInterruptedSet)
        } catch {
            return await finish(.recordingFailed(error), resumeAt: first)
        }
        eventSink.yield(.started(position: first, completed: progress.completed, total: positions.count))
        if let remembered { eventSink.yield(.learned(.bufferCapacity(captures: remembered, remembered: true))) }
        for position in (inCamera + uncertain).sorted() {
            guard let setting = progress.preparedSettings[position], let speed = plan.speed(at: position) else {
                continue
            }
            progress.queue.fired(
                .init(
                    position: position, setting: setting, expected: expected(speed, setting),
                    confirmed: inCamera.contains(position)))
        }
        if let known = resuming.knownFiles {
            do {
                try await adoptFilesLeftBehind(known: known)
            } catch let failure as RecordingFailure {
                return await finish(.recordingFailed(failure.underlying), resumeAt: firstUnsaved ?? failure.position)
            } catch {
                return await finish(stopReason(for: error), resumeAt: firstUnsaved ?? first)
            }
        }
        return await shootAndDownload()
    }

    /// The loop: fire the frames still to fire, download when the buffer is full, after a reconnect and at
    /// the end, and shoot again what never arrived.
    private func shootAndDownload() async -> ShootResult {
        var mustDownload = !progress.queue.isEmpty
        var announcedAllFired = false
        while true {
            let position = progress.toShoot.first
            do {
                // A body whose buffer size is learned: fetch only the room the next release needs.
                if configuration.downloads, position != nil, !mustDownload, controls.holds.isEmpty,
                    let capacity = progress.learnedBufferCapacity, progress.framesInCamera >= capacity
                {
                    let room = progress.framesInCamera - capacity + 1
                    if try await downloadAll(files: room) == .stopped { return await finishStopped() }
                    continue
                }
                // Download when told to, at the end, when the buffer is full, and while shooting is held (the
                // photographer's pause is the camera's quiet time).
                // Not while the network is down: the link is gone, and the reconnect downloads first anyway.
                let held =
                    !controls.holds.isEmpty && controls.holds[.network] == nil && !controls.stop.isRequested
                    && !Task.isCancelled
                if configuration.downloads, !progress.queue.isEmpty || position == nil,
                    mustDownload || position == nil || progress.queue.count >= configuration.bufferLimit || held
                {
                    if position == nil, !announcedAllFired {
                        announcedAllFired = true
                        emit(.allFired(waiting: progress.queue.count))
                        if let latency = await camera.evidenceLatency() { emit(.learned(.evidenceLatency(latency))) }
                    }
                    mustDownload = false
                    if try await downloadAll() == .stopped { return await finishStopped() }
                    if progress.toShoot.isEmpty, progress.queue.isEmpty { break }
                    continue
                }
                guard let position else { break }
                if let reason = await parkIfHeld(before: position) {
                    // A stop downloads what the camera holds first (a second stop leaves it there).
                    if case .stopRequested = reason, configuration.downloads, !progress.queue.isEmpty {
                        if try await downloadAll() == .stopped { return await finishStopped() }
                    }
                    return await finish(reason, resumeAt: firstUnsaved ?? position)
                }
                try await fire(position)
            } catch let failure as RecordingFailure {
                return await finish(.recordingFailed(failure.underlying), resumeAt: firstUnsaved ?? failure.position)
            } catch {
                let at = position ?? progress.queue.likelyNext?.position ?? plan.positions.last ?? .start
                let error = await explainedByAFullCard(error, at: at)
                guard ErrorDisposition(error) == .reconnect, !Task.isCancelled else {
                    // What stopped the download before stopping (a full disk) is what resume must have mended first.
                    let blocking = await downloadBeforeStopping(after: error)
                    return await finish(stopReason(for: blocking ?? error), resumeAt: firstUnsaved ?? at)
                }
                if let reason = await reconnect(after: error, before: at, remaining: remainingPositions) {
                    return await finish(reason, resumeAt: firstUnsaved ?? at)
                }
                // Never fire again before what the camera holds is known: a release the drop cut off may
                // have fired.
                mustDownload = !progress.queue.isEmpty
            }
        }
        return await finish(nil, resumeAt: nil)
    }

    /// Before a run ends on a camera error, fetches what the camera still holds while its link works (best
    /// effort: whatever is left stays "in the camera" for `resume`).
    /// Returns the error that stopped that download when the photographer must act on it (a full disk), else nil.
    private func downloadBeforeStopping(after error: any Error) async -> (any Error)? {
        guard configuration.downloads, !progress.queue.isEmpty, ErrorDisposition(error) == .stop, !Task.isCancelled,
            await camera.isConnected
        else { return nil }
        do {
            _ = try await downloadAll()
        } catch let failure as any RemoteCameraError where failure.needsThePhotographer {
            return failure
        } catch {}
        return nil
    }

    /// Ends a run stopped while images wait in the camera: they stay there for `resume`.
    private func finishStopped() async -> ShootResult {
        let reason: StopReason = Task.isCancelled ? .cancelled : .stopRequested
        return await finish(reason, resumeAt: firstUnsaved)
    }

    /// The first frame of the plan not saved: where `resume` starts.
    var firstUnsaved: ShootPosition? {
        (progress.queue.waiting.map(\.position) + progress.toShoot).min()
    }

    /// The frames not saved yet (waiting in the camera or still to fire), in plan order.
    var remainingPositions: ArraySlice<ShootPosition> {
        ArraySlice((progress.queue.waiting.map(\.position) + progress.toShoot).sorted())
    }

    /// What the images of a frame shot at `setting` for `speed` must record.
    func expected(_ speed: ShutterSpeed, _ setting: CameraShutterSpeed) -> ExpectedExposure {
        switch setting {
        case .bulb: .bulb(held: Duration.seconds(speed.numerator) / speed.denominator)
        case .timed(let timed): .timed(timed)
        }
    }

    // MARK: - Steps

    /// Whether the run must park or end before the next frame: a hold is active, a stop was requested, or
    /// the task is cancelled.
    var isHeldOrEnding: Bool { Task.isCancelled || controls.stop.isRequested || !controls.holds.isEmpty }

    /// Returns a reason to stop, or `nil` to shoot the frame at `position`; parks while holds are active.
    private func parkIfHeld(before position: ShootPosition) async -> StopReason? {
        while true {
            if Task.isCancelled { return .cancelled }
            if controls.stop.isRequested { return .stopRequested }
            if controls.holds.isEmpty {
                state = .running(position, controls, progress)
                return nil
            }
            state = .paused(position, controls, progress)
            // Ends early (nil) on cancellation; every wake-up re-checks the state above.
            for await _ in wakeups { break }
        }
    }

    /// Connects when needed, checks the mode, and resolves the camera setting of every remaining frame.
    func prepareCamera(
        for positions: ArraySlice<ShootPosition>, reportingAt position: ShootPosition
    ) async throws -> [ShootPosition: CameraShutterSpeed] {
        if await !camera.isConnected { try await camera.connect() }
        let camera = self.camera
        let mode = try await withBusyRetry(at: position, phase: .settingSpeed) { try await camera.shootingMode() }
        guard mode.allowsShutterControl else { throw ShootingError.unsupportedMode(mode) }
        let available = try await withBusyRetry(at: position, phase: .settingSpeed) {
            try await camera.availableShutterSpeeds()
        }
        var settings: [ShootPosition: CameraShutterSpeed] = [:]
        for position in positions {
            guard let speed = plan.speed(at: position) else { continue }
            guard let setting = CameraShutterSpeed.resolve(speed, in: available) else {
                throw ShootingError.speedUnavailable(speed)
            }
            settings[position] = setting
        }
        return settings
    }

    /// Maps an error that ends the run to its stop reason.
    /// A frame that would not fire (or whose image never came) on a body that reports its card full: the card is
    /// why, and the stop says so rather than blame the link or the release (issue 37's full memory card).
    private func explainedByAFullCard(_ error: any Error, at current: ShootPosition) async -> any Error {
        var position = current
        switch error as? ShootingError {
        case let .releaseUnproven(frame, _)?, let .releaseKeepsDropping(frame, _)?, let .imageNeverArrived(frame, _)?:
            position = frame
        default:
            guard (error as? any RemoteCameraError)?.isReleaseIgnored == true else { return error }
        }
        guard await camera.mediaStatus().remainingShots == 0 else { return error }
        return ShootingError.cardFull(position: position)
    }

    func stopReason(for error: any Error) -> StopReason {
        Task.isCancelled || ErrorDisposition(error) == .cancelled ? .cancelled : .failed(error)
    }

    /// Ends the run: records and reports the result, closes the event stream.
    private func finish(_ reason: StopReason?, resumeAt position: ShootPosition?) async -> ShootResult {
        let result = ShootResult(
            saved: progress.completed,
            total: plan.totalExposures,
            savedThisRun: progress.capturedThisRun,
            resumePosition: reason == nil ? nil : position,
            stopReason: reason,
            inCamera: firedInCamera
        )
        state = .finished(result)
        // The frame records are already durable; a lost "finished" mark only makes status say "stopped".
        try? await recorder.runDidFinish(result)
        eventSink.yield(.finished(result))
        eventSink.finish()
        wakeSink.finish()
        return result
    }

    /// Frames whose release the body confirmed and whose images still wait in it (an unconfirmed release, a
    /// frame that may or may not have fired, is not counted).
    var firedInCamera: Int { progress.queue.waiting.count { $0.confirmed } }

    /// Reports a phase of the frame at `position`.
    func report(
        _ phase: FramePhase, at position: ShootPosition, setting: CameraShutterSpeed, saved: CapturedFrame? = nil
    ) {
        guard let speed = plan.speed(at: position) else { return }
        eventSink.yield(
            .progress(
                FrameProgress(
                    position: position,
                    setCount: plan.sets.count,
                    framesInSet: plan.sets[position.set - 1].count,
                    speed: speed,
                    setting: setting,
                    phase: phase,
                    completed: progress.completed,
                    total: plan.totalExposures,
                    saved: saved,
                    inCamera: firedInCamera
                )))
    }

    /// Emits an event (for the extensions).
    func emit(_ event: ShootEvent) { eventSink.yield(event) }

    /// Moves to downloading with the controls and the progress as they are (for the extensions).
    func enterDownloading(_ position: ShootPosition?) { state = .downloading(position, controls, progress) }

    /// Moves to reconnecting with the controls and the progress as they are (for the extensions).
    func enterReconnecting(before position: ShootPosition, attempt: Int) {
        state = .reconnecting(position, attempt: attempt, controls, progress)
    }
}

/// A recorder failure, kept apart from camera errors so the run stops with `.recordingFailed`.
struct RecordingFailure: Error {
    /// The frame whose record failed; the run resumes there (the journal does not say it is done).
    let position: ShootPosition
    /// The recorder's error.
    let underlying: any Error
}
