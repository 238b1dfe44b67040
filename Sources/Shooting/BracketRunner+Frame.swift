import Exposure

extension BracketRunner {
    /// Shoots one frame: set and confirm the speed, record, capture, wait for idle, record, count it.
    ///
    /// Throws `RecordingFailure` when the recorder fails, otherwise the camera's (or the idle wait's) error.
    func shootFrame(at position: ShootPosition, setting: CameraShutterSpeed) async throws {
        guard let speed = plan.speed(at: position) else { preconditionFailure("position inside the plan") }
        let camera = self.camera
        report(.settingSpeed, at: position, setting: setting)
        try await withBusyRetry(at: position, phase: .settingSpeed) { try await camera.setShutterSpeed(setting) }
        try Task.checkCancellation()
        do {
            try await recorder.frameWillFire(at: position, setting: setting)
        } catch {
            throw RecordingFailure(underlying: error)
        }

        var mayHaveFired = false
        let frame: CapturedFrame
        do {
            report(.capturing, at: position, setting: setting)
            let destination = configuration.destination(for: position)
            frame = try await withBusyRetry(at: position, phase: .capturing) {
                mayHaveFired = true
                return try await camera.capture(exposure: speed, to: destination)
            }
            report(.waitingForIdle, at: position, setting: setting)
            try await waitForIdle(at: position, exposure: speed)
        } catch {
            // The journal still says "in flight" if this fails: resume reshoots it either way.
            try? await recorder.frameDidFail(at: position, error: error, mayHaveFired: mayHaveFired)
            throw error
        }
        do {
            try await recorder.frameDidSave(at: position, frame: frame)
        } catch {
            throw RecordingFailure(underlying: error)
        }
        completed += 1
        capturedThisRun += 1
        report(.saved, at: position, setting: setting, saved: frame)
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
                guard ErrorDisposition(error) == .retry, attempt < policy.maxAttempts, !Task.isCancelled else { throw error }
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

        let timeout = Duration.seconds(exposure.numerator) / exposure.denominator + configuration.idleMargin
        let clock = self.clock
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // The stream continues where the first read left off.
                for await status in updates where try Self.isIdle(status, at: position) { return }
                try Task.checkCancellation()
                throw ShootingError.disconnected(position: position)
            }
            group.addTask {
                try await clock.sleep(for: timeout)
                throw ShootingError.idleTimeout(position: position, timeout: timeout)
            }
            defer { group.cancelAll() }
            try await group.next()
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
