import Exposure
import Timing

/// A frame captured (camera idle again) whose "saved" record is not written yet: the runner writes it while
/// the next frame's speed is being set, so the journal's fsyncs leave the per-frame critical path.
struct PendingRecord: Sendable {
    /// The frame.
    let position: ShootPosition
    /// The camera setting it was shot with.
    let setting: CameraShutterSpeed
    /// What the camera saved.
    let frame: CapturedFrame
}

/// How far the "about to fire" record of the frame capturing now got. The capture's busy retries share it;
/// `shootFrame` resets it when the frame ends.
enum FireRecordState: Sendable {
    /// No frame is capturing.
    case idle
    /// The frame is capturing; the camera has not called the hook yet (the release cannot have happened).
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
        case .idle, .waiting: false
        case .writing, .written, .failed: true
        }
    }
}

/// How `shootFrame` ended when it did not throw.
enum FrameOutcome: Sendable {
    /// The frame was shot; its "saved" record is pending.
    case captured(PendingRecord)
    /// The frame was not fired: a hold, a stop or a cancellation came in while the previous frame's record was
    /// written, so the run loop parks or stops before this frame (its speed may already be set; that is harmless).
    case deferred
}

extension BracketRunner {
    /// Shoots one frame: set and confirm the speed (while writing `previous`'s "saved" record), capture (the
    /// camera calls back to record "about to fire" before it releases, beside the half-press), wait for idle.
    /// The frame's own "saved" record is returned pending.
    ///
    /// `previous` is always recorded (or this throws its `RecordingFailure`) before anything else is
    /// reported or thrown, so a `.settingSpeed` event of this frame means the previous frame is durable.
    /// Throws `RecordingFailure` when the recorder fails, otherwise the camera's (or the idle wait's) error.
    func shootFrame(
        at position: ShootPosition, setting: CameraShutterSpeed, after previous: PendingRecord?
    ) async throws -> FrameOutcome {
        guard let speed = plan.speed(at: position) else { preconditionFailure("position inside the plan") }
        let camera = self.camera
        if let previous {
            // The first attempt runs beside the save; busy retries (and their events) wait for the save, so
            // events keep their order. A child task that is never cancelled by us: cancelling a set mid-
            // transaction would close the camera's session.
            async let firstSet = Self.outcome { try await camera.setShutterSpeed(setting) }
            do {
                try await record(previous)
            } catch {
                _ = await firstSet
                throw error
            }
            if isHeldOrEnding {
                _ = await firstSet
                return .deferred
            }
            report(.settingSpeed, at: position, setting: setting)
            let first = await firstSet
            try await withBusyRetry(at: position, phase: .settingSpeed, firstOutcome: first) {
                try await camera.setShutterSpeed(setting)
            }
        } else {
            report(.settingSpeed, at: position, setting: setting)
            try await withBusyRetry(at: position, phase: .settingSpeed) { try await camera.setShutterSpeed(setting) }
        }
        try Task.checkCancellation()

        // The "about to fire" record is written by the camera's hook, beside the half-press; a busy retry calls
        // the hook again, which then finds the record written.
        fireRecord = .waiting
        defer { fireRecord = .idle }
        let frame: CapturedFrame
        do {
            report(.capturing, at: position, setting: setting)
            let destination = configuration.destination(for: position)
            frame = try await withBusyRetry(at: position, phase: .capturing) {
                try await camera.capture(exposure: speed, to: destination) { [self] in
                    try await recordWillFire(at: position, setting: setting)
                }
            }
            report(.waitingForIdle, at: position, setting: setting)
            try await waitForIdle(at: position, exposure: speed)
        } catch {
            // A failed record wins whatever the camera made of it: nothing was released after it.
            if case let .failed(failure) = fireRecord { throw failure }
            // Before the hook the release cannot have happened. The journal still says "in flight" if this
            // fails: resume reshoots it either way.
            try? await recorder.frameDidFail(at: position, error: error, mayHaveFired: fireRecord.wasAttempted)
            if fireRecord.wasAttempted, ErrorDisposition(error) == .reconnect, let releaseWatch {
                droppedReleases += 1
                interruptedRelease = releaseWatch
            }
            throw error
        }
        await reportCameraNotes()
        return .captured(PendingRecord(position: position, setting: setting, frame: frame))
    }

    /// The capture hook of the frame capturing now: writes its "about to fire" record the first time, returns
    /// at once when it is already written (a busy retry of the capture), and throws the same
    /// `RecordingFailure` again when the write failed (the frame must not fire).
    func recordWillFire(at position: ShootPosition, setting: CameraShutterSpeed) async throws(RecordingFailure) {
        switch fireRecord {
        case .waiting:
            break
        case .written:
            return
        case .failed(let failure):
            throw failure
        case .idle, .writing:
            // A camera calling the hook concurrently with itself or after `capture` returned breaks the
            // `RemoteCamera` contract.
            preconditionFailure("capture hook of \(position) called in state \(fireRecord)")
        }
        fireRecord = .writing
        releaseWatch = Stopwatch(clock: clock)
        do {
            try await recorder.frameWillFire(at: position, setting: setting)
        } catch {
            let failure = RecordingFailure(position: position, underlying: error)
            fireRecord = .failed(failure)
            throw failure
        }
        fireRecord = .written
    }

    /// Writes a pending frame's "saved" record, then counts the frame and reports `.saved`.
    ///
    /// Runs to the end even when the task is cancelled (the journal's save does not check cancellation), so
    /// a frame on the card is never left "in flight" by a cancelled run.
    func record(_ pending: PendingRecord) async throws(RecordingFailure) {
        do {
            // The camera's files are durable before the journal says "saved".
            try await camera.makeDurable(pending.frame)
            try await recorder.frameDidSave(at: pending.position, frame: pending.frame)
        } catch {
            throw RecordingFailure(position: pending.position, underlying: error)
        }
        completed += 1
        capturedThisRun += 1
        report(.saved, at: pending.position, setting: pending.setting, saved: pending.frame)
    }

    /// The outcome of `operation` as a value, so a child task never throws past its parent's bookkeeping.
    private static func outcome(_ operation: @Sendable () async throws -> Void) async -> Result<Void, any Error> {
        do {
            try await operation()
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Runs `operation`, retrying transient errors per the busy policy with the injected clock.
    ///
    /// `firstOutcome`, when given, is the outcome of an attempt already made elsewhere (it counts as
    /// attempt 1, and `operation` is only called for retries).
    func withBusyRetry<T: Sendable>(
        at position: ShootPosition, phase: FramePhase, firstOutcome: Result<T, any Error>? = nil,
        _ operation: () async throws -> T
    ) async throws -> T {
        let policy = configuration.busyRetry
        var attempt = 1
        var earlier = firstOutcome
        while true {
            do {
                if let outcome = earlier {
                    earlier = nil
                    return try outcome.get()
                }
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

    /// Returns when the camera reports idle; throws on a fault or disconnect status, or after
    /// exposure + idle margin without idle.
    ///
    /// The first status arrives at once (protocol contract), so an idle camera costs no timer.
    func waitForIdle(at position: ShootPosition, exposure: ShutterSpeed) async throws {
        let updates = await camera.statusUpdates()
        var iterator = updates.makeAsyncIterator()
        if try Self.isIdle(await iterator.next(), at: position) { return }

        // The exposure, a Long Exposure NR dark frame as long (bodies take one from 1 s), and the margin.
        let time = Duration.seconds(exposure.numerator) / exposure.denominator
        let timeout = time + (exposure.seconds >= 1 ? time : .zero) + configuration.idleMargin
        try await withTimeout(
            after: timeout, on: clock, throwing: ShootingError.idleTimeout(position: position, timeout: timeout)
        ) {
            // The stream continues where the first read left off.
            for await status in updates where try Self.isIdle(status, at: position) { return }
            try Task.checkCancellation()
            throw ShootingError.disconnected(position: position)
        }
    }

    /// Whether `status` is idle; throws for the statuses that end the wait (a `nil` is a closed stream).
    private static func isIdle(_ status: CameraStatus?, at position: ShootPosition) throws -> Bool {
        switch status {
        case .idle: return true
        case .exposing, .saving: return false
        case .error(let code): throw ShootingError.cameraFault(code: code, position: position)
        case .disconnected: throw ShootingError.disconnected(position: position)
        case nil:
            try Task.checkCancellation()
            throw ShootingError.disconnected(position: position)
        }
    }
}
