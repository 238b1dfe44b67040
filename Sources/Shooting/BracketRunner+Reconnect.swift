import Timing

/// What happens to a frame whose capture ended in a dropped connection, once the camera is back.
enum AfterDrop: Sendable {
    /// The interrupted release's image was found and saved: the frame is done (its record pending).
    case recovered(PendingRecord)
    /// Nothing of the frame was found (or it never fired): fire it again.
    case fireAgain
    /// The run ends here.
    case stop(StopReason)
}

extension BracketRunner {
    /// The most releases of one frame that may end in a dropped connection before the run stops rather than
    /// fire again (a link that drops at every release must not fire the whole plan).
    static let maxDroppedReleases = 3

    /// Reconnects after `error` and, when the interrupted capture may have released the shutter, looks for
    /// its image before the frame is fired again (never re-fire blindly). After `maxDroppedReleases` such
    /// releases of one frame with no image found, the run stops, resumable.
    func reconnectAndRecover(
        after error: any Error, at position: ShootPosition, remaining: ArraySlice<ShootPosition>
    ) async -> AfterDrop {
        var lastError = error
        while true {
            if let reason = await reconnect(after: lastError, before: position, remaining: remaining) {
                return .stop(reason)
            }
            guard let sinceRelease = interruptedRelease else { return .fireAgain }
            guard let speed = plan.speed(at: position), let setting = preparedSettings[position] else {
                return .fireAgain
            }
            let exposure = Duration.seconds(speed.numerator) / speed.denominator
            // The interrupted exposure, a Long Exposure NR dark frame as long (bodies take one from 1 s), and
            // the processing margin, counted from the release.
            let noiseReduction = speed.seconds >= 1 ? exposure : .zero
            let left = max(.zero, exposure + noiseReduction + configuration.idleMargin - sinceRelease.elapsed)
            let destination = configuration.destination(for: position)
            report(.capturing, at: position, setting: setting)
            do {
                let found = try await camera.recoverInterruptedCapture(
                    exposure: speed, to: destination, waitingAtMost: left)
                interruptedRelease = nil
                await reportCameraNotes()
                if let found { return .recovered(PendingRecord(position: position, setting: setting, frame: found)) }
            } catch {
                guard ErrorDisposition(error) == .reconnect, !Task.isCancelled else {
                    return .stop(stopReason(for: error))
                }
                lastError = error
                continue
            }
            if droppedReleases >= Self.maxDroppedReleases {
                return .stop(.failed(ShootingError.releaseKeepsDropping(position: position, releases: droppedReleases)))
            }
            return .fireAgain
        }
    }

    /// Reports what the camera had to say since the last look, as `.cameraNote` events.
    func reportCameraNotes() async {
        for note in await camera.takeNotes() { emit(.cameraNote(note)) }
    }

    /// Holds shooting, reconnects per the reconnect policy, re-checks mode and speeds, and releases the
    /// hold. Returns `nil` when the camera is back, else why the run must stop.
    ///
    /// Attempts are skipped (the schedule keeps running) while a `.network` hold says the network is down,
    /// so shooting continues only once the network is back AND the camera answers. `stop()` is honoured
    /// between attempts; cancellation ends the wait at once.
    func reconnect(
        after error: any Error, before position: ShootPosition, remaining: ArraySlice<ShootPosition>
    ) async -> StopReason? {
        let policy = configuration.reconnect
        guard policy.delay(beforeAttempt: 1) != nil else { return .reconnectGaveUp(attempts: 0, lastError: error) }
        await pause(reason: PauseReason(.connection))
        enter(.reconnecting(position, attempt: 0))
        await camera.disconnect()

        let stopwatch = Stopwatch(clock: clock)
        var lastError: (any Error)? = error
        var attempt = 0
        while true {
            guard let delay = policy.delay(beforeAttempt: attempt + 1), stopwatch.elapsed + delay <= policy.timeout
            else {
                return .reconnectGaveUp(attempts: attempt, lastError: lastError)
            }
            attempt += 1
            enter(.reconnecting(position, attempt: attempt))
            emit(.reconnecting(attempt: attempt, delay: delay))
            do {
                try await clock.sleep(for: delay)
            } catch {
                return .cancelled
            }
            if Task.isCancelled { return .cancelled }
            if stopRequested { return .stopRequested }
            if holds[.network] != nil { continue }
            do {
                try await camera.connect()
            } catch {
                if Task.isCancelled || ErrorDisposition(error) == .cancelled { return .cancelled }
                // Whatever connect says (refused, timed out, unreachable), the schedule decides when to give up.
                lastError = error
                emit(.reconnectFailed(attempt: attempt, error: error))
                continue
            }
            do {
                _ = try await prepareCamera(for: remaining, reportingAt: position)
            } catch {
                if Task.isCancelled || ErrorDisposition(error) == .cancelled { return .cancelled }
                // The camera answers but cannot shoot the plan (mode changed, speed gone): a real stop.
                guard ErrorDisposition(error) == .reconnect else { return .failed(error) }
                lastError = error
                emit(.reconnectFailed(attempt: attempt, error: error))
                await camera.disconnect()
                continue
            }
            emit(.reconnected(attempt: attempt))
            await resume(reason: PauseReason(.connection))
            return nil
        }
    }
}
