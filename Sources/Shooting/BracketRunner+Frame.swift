import Exposure
import Timing

/// What a resumed run finds in the journal beyond its start position.
package struct ResumeState: Sendable, Hashable {
    /// Frames after the start already saved (they are not shot again).
    package var saved: Set<ShootPosition>
    /// Frames fired whose images wait in the camera: downloaded first; shot again only when none arrives.
    package var inCamera: [ShootPosition]
    /// Frames whose release may have fired when the last run ended (in flight at a crash, or cut off by a drop):
    /// their images are looked for in the camera too before they are shot again.
    package var mayHaveFired: [ShootPosition]
    /// The paths of every file the journal names, when known: the set folders are then looked through for the
    /// images a killed process wrote but did not record (adopted by the frames they are) and for partial files
    /// (deleted) before anything is fetched. Nil: not looked for.
    package var knownFiles: Set<String>?

    /// Creates a resume state (empty: a fresh run, or frames after the start all still to shoot).
    package init(
        saved: Set<ShootPosition> = [], inCamera: [ShootPosition] = [], mayHaveFired: [ShootPosition] = [],
        knownFiles: Set<String>? = nil
    ) {
        self.saved = saved
        self.inCamera = inCamera.sorted()
        self.mayHaveFired = mayHaveFired.sorted()
        self.knownFiles = knownFiles
    }
}

/// The release of one frame, from its "about to fire" record to the body's confirmation. The release's busy
/// retries share it; it ends when the frame is in the camera or the attempt failed.
struct ReleaseAttempt: Sendable {
    /// The frame.
    let position: ShootPosition
    /// How far its "about to fire" record got.
    var record: FireRecordState = .waiting
}

/// Releases of one frame that did not give it an image: cut off by a dropped link, or confirmed by the body
/// with no image ever arriving. Past the limits the run stops (resumable) rather than fire again and again.
struct LostReleases: Sendable, Hashable {
    /// Releases that ended in a dropped connection.
    var dropped = 0
    /// Confirmed releases whose image never arrived.
    var vanished = 0
    /// Releases that showed no sign of firing in their whole evidence window (they may have fired late).
    var unproven = 0
}

/// How far the "about to fire" record of the frame releasing now got.
enum FireRecordState: Sendable {
    /// The camera has not called the hook yet (the release cannot have happened).
    case waiting
    /// The hook is writing the record.
    case writing
    /// The record is durable; later hook calls of the frame return at once.
    case written
    /// The write failed; later hook calls of the frame throw it again, and the frame stops there.
    case failed(RecordingFailure)

    /// Whether the hook was called, so the shutter may have been released.
    var wasAttempted: Bool {
        switch self {
        case .waiting: false
        case .writing, .written, .failed: true
        }
    }
}

extension BracketRunner {
    /// The most releases of one frame that may end in a dropped connection before the run stops rather than
    /// fire again (a link that drops at every release must not fire the whole plan).
    static let maxDroppedReleases = 3
    /// The most confirmed releases of one frame whose image never arrives before the run stops.
    static let maxVanishedReleases = 2
    /// The most releases of one frame without proof that it fired: the run stops at the second rather than
    /// fire blind again (each is followed by a download that looks for its image first).
    static let maxUnprovenReleases = 2

    /// Fires one frame: set and confirm the speed, release (the camera calls back to record "about to fire"
    /// before it releases, beside the half-press), and once the body confirms the release, record the frame
    /// in the camera and queue it for download. Without downloads (the body keeps its images), the confirmed
    /// frame is saved at once.
    ///
    /// A speed change or a release that does not take while images wait in the camera is tried once more after
    /// downloading them (some bodies ignore both while their buffer holds images); on a body known to ignore speed
    /// changes so, a change not taken is always tried once more after a fetch.
    /// Throws `RecordingFailure` when the recorder fails, otherwise the camera's error.
    func fire(_ position: ShootPosition) async throws {
        guard let speed = plan.speed(at: position), let setting = progress.preparedSettings[position] else {
            preconditionFailure("prepared every remaining frame")
        }
        let camera = self.camera
        if progress.fetchesBeforeSpeedChange, configuration.downloads, !progress.queue.isEmpty,
            progress.lastSetting != setting
        {
            // Learned: this body takes no speed change while images wait in it.
            if try await downloadAll() == .stopped { return }
        }
        report(.settingSpeed, at: position, setting: setting)
        do {
            try await withBusyRetry(at: position, phase: .settingSpeed) { try await camera.setShutterSpeed(setting) }
        } catch let error
            where ErrorDisposition(error) == .stop && configuration.downloads
            && (!progress.queue.isEmpty || progress.fetchesBeforeSpeedChange)
        {
            // Images waited (or, on a body already known to ignore changes while they do, may have landed after the
            // fetch before the change): fetch them, then set once more.
            if !progress.fetchesBeforeSpeedChange { emit(.learned(.speedChangeIgnoredWhileImagesWait)) }
            progress.fetchesBeforeSpeedChange = true
            if try await downloadAll() == .stopped { return }
            report(.settingSpeed, at: position, setting: setting)
            try await withBusyRetry(at: position, phase: .settingSpeed) { try await camera.setShutterSpeed(setting) }
        }
        progress.lastSetting = setting
        try Task.checkCancellation()

        if progress.fetchesBeforeRelease, configuration.downloads, !progress.queue.isEmpty {
            // Learned: this body refuses releases while images wait in it.
            if try await downloadAll() == .stopped { return }
        }
        report(.capturing, at: position, setting: setting)
        let waitingAtPress = progress.framesInCamera
        let release: Release
        do {
            release = try await releaseConfirmed(position, speed: speed, setting: setting)
        } catch let error as any RemoteCameraError where error.isReleaseIgnored && configuration.downloads {
            try await releaseWithoutEvidence(
                position, speed: speed, setting: setting, waitingAtPress: waitingAtPress, error: error)
            return
        } catch let error as any RemoteCameraError
            where error.isReleaseRefused && configuration.downloads && !progress.queue.isEmpty
        {
            // Nothing fired (the body never took the shutter button): fetch what waits, then press once more. A
            // second refusal with the buffer fetched ends the run as any camera error does.
            _ = error
            // A file fetched behind it was filed already; what failed there shows again in the download below.
            progress.fetchedBehind = nil
            progress.fetchesBeforeRelease = true
            noteOnce(
                "the camera refused a release while images waited in it; they were downloaded first, and from now "
                    + "on before each release")
            if try await downloadAll() == .stopped { return }
            report(.capturing, at: position, setting: setting)
            release = try await releaseConfirmed(position, speed: speed, setting: setting)
        }
        _ = release
        progress.toShoot.removeAll { $0 == position }
        if !configuration.downloads {
            try await save(position, setting: setting, frame: CapturedFrame(images: [], actualSpeed: setting))
            return
        }
        progress.queue.fired(.init(position: position, setting: setting, expected: expected(speed, setting)))
        do {
            try await recorder.frameDidFire(at: position)
        } catch {
            throw RecordingFailure(position: position, underlying: error)
        }
        report(.inCamera, at: position, setting: setting)
        await reportCameraNotes()
        // A fetch behind the release that failed (a dropped link, a failed record) counts once the frame is queued.
        if let failure = progress.fetchedBehind?.failure {
            progress.fetchedBehind = nil
            throw failure
        }
        progress.fetchedBehind = nil
    }

    /// The oldest file waiting in the body, fetched behind a release that shows no sign of firing yet (the
    /// camera calls it past the release's exposure and a grace, while the evidence window runs): a body whose
    /// buffer is full takes no release, and the room its next release needs is then made meanwhile. A file
    /// fetched behind a release that did fire was to be fetched anyway. Kept in `progress.fetchedBehind` (a
    /// failure is thrown once the release is settled). Only while the buffer's size is unknown and images wait.
    func fetchBehindRelease() async {
        guard configuration.downloads, progress.learnedBufferCapacity == nil, progress.framesInCamera > 0,
            progress.fetchedBehind == nil, !isHeldOrEnding
        else { return }
        progress.fetchedBehind = FetchBehind()
        do {
            // The outcome first: the assignment's read of `progress` must come after the download changed it.
            let outcome = try await downloadAll(files: 1)
            progress.fetchedBehind?.files = outcome == .madeRoom ? 1 : 0
        } catch {
            progress.fetchedBehind?.failure = error
        }
    }

    /// A release that showed no sign of firing in its whole evidence window may still have fired (its evidence
    /// late, after a long exposure's dark frame on a busy machine): it is never pressed again blind. The frame
    /// waits in the camera as "may have fired", what the camera holds is downloaded (its image is looked for),
    /// and only a frame whose image did not come is fired again, once: a second release without evidence stops
    /// the run (resumable), saying what was fired. When images waited in the camera and the frame's image then
    /// does not come, the body took no release with that many waiting: its buffer size is learned from it.
    ///
    /// A short exposure (no dark frame) pressed while images waited is settled sooner: one file is fetched (or was
    /// fetched behind the release) and the body's own count (`RemoteCamera.bufferCount`) read afresh; when no file
    /// joined its buffer since the press, the release certainly fired nothing (the buffer was full): the frame is
    /// pressed again at once, and the buffer size is learned (the images that waited at the press).
    private func releaseWithoutEvidence(
        _ position: ShootPosition, speed: ShutterSpeed, setting: CameraShutterSpeed, waitingAtPress: Int,
        error: any Error
    ) async throws {
        let behind = progress.fetchedBehind
        progress.fetchedBehind = nil
        // A body whose card is full fires nothing, whatever waits in its buffer: no second press, no buffer size
        // learned from it (issue 37's full card; the journal's "about to fire" has resume look for the image first).
        if await camera.mediaStatus().remainingShots == 0 { throw ShootingError.cardFull(position: position) }
        let waiting = waitingAtPress
        let exposure = Duration.seconds(speed.numerator) / speed.denominator
        if behind?.failure == nil, waiting > 0, exposure < .seconds(1),
            progress.lostReleases[position]?.unproven ?? 0 < Self.maxUnprovenReleases - 1,
            try await releaseProvenRefused(filesFetched: behind?.files ?? 0, framesAtPress: waiting)
        {
            // The journal says "may have fired" until the frame fires again (a resume looks for its image first).
            try? await recorder.frameDidFail(at: position, error: error, mayHaveFired: true)
            progress.lostReleases[position, default: LostReleases()].unproven += 1
            learnBuffer(holding: waiting)
            await camera.rememberBufferCapacity(waiting)
            return
        }
        if waiting > 0 {
            progress.refusedWhileHolding[position] = waiting
            noteOnce("the camera ignored a release while images waited in it; they were downloaded first")
        }
        var lost = progress.lostReleases[position, default: LostReleases()]
        lost.unproven += 1
        progress.lostReleases[position] = lost
        // The journal still says "in flight" if this fails: resume looks for its image either way.
        try? await recorder.frameDidFail(at: position, error: error, mayHaveFired: true)
        progress.toShoot.removeAll { $0 == position }
        progress.queue.fired(
            .init(position: position, setting: setting, expected: expected(speed, setting), confirmed: false))
        if lost.unproven >= Self.maxUnprovenReleases {
            throw ShootingError.releaseUnproven(position: position, releases: lost.unproven)
        }
        if waiting == 0 {
            noteOnce(
                "the camera showed no sign of firing \(position); its image is looked for in the camera before it is "
                    + "fired again")
        }
        if let failure = behind?.failure { throw failure }
        _ = try await downloadAll()
    }

    /// Whether the release just pressed certainly fired nothing: with one file fetched (here, unless `filesFetched`
    /// were fetched behind it), the body counts no more files than waited at the press less those fetched. What
    /// waited is at least one file per frame in the camera (`framesAtPress`), and at least the body's count before
    /// the press (which may lag an image still processing then). A release that fired adds a file to either. False
    /// when the body does not count its buffer, or nothing could be fetched.
    private func releaseProvenRefused(filesFetched: Int, framesAtPress: Int) async throws -> Bool {
        var fetched = filesFetched
        if fetched == 0 {
            guard try await downloadAll(files: 1) == .madeRoom else { return false }
            fetched = 1
        }
        guard let count = try await camera.bufferCount() else { return false }
        return count.now <= max(count.beforeLastRelease ?? 0, framesAtPress) - fetched
    }

    /// One release of the frame with busy retries; the "about to fire" record is written by the camera's hook,
    /// beside the half-press. A failure after the hook ran is recorded; a release cut off by a dropped link
    /// queues the frame as possibly fired, so its image is looked for before it is fired again.
    private func releaseConfirmed(
        _ position: ShootPosition, speed: ShutterSpeed, setting: CameraShutterSpeed
    ) async throws -> Release {
        let camera = self.camera
        progress.release = ReleaseAttempt(position: position)
        progress.fetchedBehind = nil
        defer { progress.release = nil }
        do {
            return try await withBusyRetry(at: position, phase: .capturing) {
                try await camera.release(exposure: speed) { [self] in
                    try await recordWillFire(at: position, setting: setting)
                } whileUnconfirmed: { [self] in
                    await fetchBehindRelease()
                }
            }
        } catch {
            // A failed record wins whatever the camera made of it: nothing was released after it.
            if case let .failed(failure) = progress.release?.record { throw failure }
            // A release the body refused (busy to the shutter button) fired nothing, even after the hook ran.
            let refused = (error as? any RemoteCameraError)?.isReleaseRefused ?? false
            let mayHaveFired = !refused && (progress.release?.record.wasAttempted ?? false)
            // Before the hook the release cannot have happened. The journal still says "in flight" if this
            // fails: resume reshoots it either way.
            try? await recorder.frameDidFail(at: position, error: error, mayHaveFired: mayHaveFired)
            if mayHaveFired, ErrorDisposition(error) == .reconnect, configuration.downloads {
                progress.lostReleases[position, default: LostReleases()].dropped += 1
                progress.toShoot.removeAll { $0 == position }
                progress.queue.fired(
                    .init(position: position, setting: setting, expected: expected(speed, setting), confirmed: false))
            }
            throw error
        }
    }

    /// The capture hook of the frame releasing now: writes its "about to fire" record the first time, returns
    /// at once when it is already written (a busy retry of the release), and throws the same
    /// `RecordingFailure` again when the write failed (the frame must not fire).
    func recordWillFire(at position: ShootPosition, setting: CameraShutterSpeed) async throws(RecordingFailure) {
        guard let record = progress.release?.record, progress.release?.position == position else {
            // A camera calling the hook after `release` returned breaks the `RemoteCamera` contract.
            preconditionFailure("release hook of \(position) called outside its release")
        }
        switch record {
        case .waiting:
            break
        case .written:
            return
        case .failed(let failure):
            throw failure
        case .writing:
            preconditionFailure("release hook of \(position) called concurrently with itself")
        }
        progress.release?.record = .writing
        do {
            try await recorder.frameWillFire(at: position, setting: setting)
        } catch {
            let failure = RecordingFailure(position: position, underlying: error)
            progress.release?.record = .failed(failure)
            throw failure
        }
        progress.release?.record = .written
    }

    /// Makes a frame's files durable, writes its "saved" record, then counts the frame and reports `.saved`.
    ///
    /// Runs to the end even when the task is cancelled (the journal's save does not check cancellation), so
    /// a frame on the card is never left "in flight" by a cancelled run.
    func save(
        _ position: ShootPosition, setting: CameraShutterSpeed, frame: CapturedFrame
    ) async throws(RecordingFailure) {
        do {
            // The camera's files are durable before the journal says "saved".
            try await camera.makeDurable(frame)
            try await recorder.frameDidSave(at: position, frame: frame)
        } catch {
            throw RecordingFailure(position: position, underlying: error)
        }
        progress.completed += 1
        progress.capturedThisRun += 1
        report(.saved, at: position, setting: setting, saved: frame)
    }

    /// Emits `text` as a camera note, once per run.
    func noteOnce(_ text: String) {
        guard progress.notesGiven.insert(text).inserted else { return }
        emit(.cameraNote(text))
    }

    /// Runs `operation`, retrying transient errors per the busy policy with the injected clock.
    func withBusyRetry<T: Sendable>(
        at position: ShootPosition, phase: FramePhase, _ operation: () async throws -> T
    ) async throws -> T {
        let policy = configuration.busyRetry
        var attempt = 1
        while true {
            do {
                return try await operation()
            } catch {
                guard ErrorDisposition(error) == .retry, attempt < policy.maxAttempts, !Task.isCancelled else {
                    throw error
                }
                let delay = policy.delay(beforeRetry: attempt)
                attempt += 1
                emit(.retrying(position: position, phase: phase, attempt: attempt, delay: delay, error: error))
                try await clock.sleep(for: delay)
            }
        }
    }
}
