import Timing

extension BracketRunner {
    /// Reports what the camera had to say since the last look, as `.cameraNote` events.
    func reportCameraNotes() async {
        for note in await camera.takeNotes() { emit(.cameraNote(note)) }
    }

    /// Holds shooting, reconnects per the reconnect policy, re-checks mode and speeds, and releases the
    /// hold. Returns `nil` when the camera is back, else why the run must stop.
    ///
    /// Attempts are skipped (the schedule keeps running) while a `.network` hold says the network is down,
    /// so shooting continues only once the network is back AND the camera answers. `stop()` is honoured
    /// between attempts; cancellation ends the wait at once. After it, the run downloads what the camera
    /// holds before it fires anything (a release the drop cut off may have fired).
    func reconnect(
        after error: any Error, before position: ShootPosition, remaining: ArraySlice<ShootPosition>
    ) async -> StopReason? {
        let policy = configuration.reconnect
        guard policy.delay(beforeAttempt: 1) != nil else { return .reconnectGaveUp(attempts: 0, lastError: error) }
        await pause(reason: PauseReason(.connection))
        enterReconnecting(before: position, attempt: 0)
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
            enterReconnecting(before: position, attempt: attempt)
            emit(.reconnecting(attempt: attempt, delay: delay))
            do {
                try await clock.sleep(for: delay)
            } catch {
                return .cancelled
            }
            if Task.isCancelled { return .cancelled }
            if controls.stop.isRequested { return .stopRequested }
            if controls.holds[.network] != nil { continue }
            do {
                try await camera.connect()
            } catch {
                if Task.isCancelled || ErrorDisposition(error) == .cancelled { return .cancelled }
                // A body that only a power cycle brings back: say so now rather than after the schedule.
                if let camera = error as? any RemoteCameraError, camera.needsThePhotographer {
                    emit(.reconnectFailed(attempt: attempt, error: error))
                    return .failed(error)
                }
                // Whatever else connect says (refused, timed out, unreachable), the schedule decides when to give up.
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
