import Exposure
import PTPIP
import Shooting
import SonyProtocol
import Timing

/// Keeping an idle link alive and following a body without events: the keepalive loop, the change-only
/// poll, and the waits that poll when no event will come.
extension SonyCamera {
    /// The link's keepalive loop: sleeps until the command channel will have been silent for `interval`, then
    /// sends a change-only 0x9209 read (it doubles as a poll); ends when the link is gone or cancelled.
    static func keepAlive(_ camera: SonyCamera?, every interval: Duration, on clock: any Clock<Duration>) async {
        while !Task.isCancelled {
            guard let camera, let pause = await camera.keepaliveTick(every: interval) else { return }
            do {
                try await clock.sleep(for: pause)
            } catch {
                return
            }
        }
    }

    /// Sends the keepalive read when the channel has been silent for `interval`; returns how long to sleep
    /// before looking again, or nil when the link is gone.
    func keepaliveTick(every interval: Duration) async -> Duration? {
        switch state {
        case .disconnected, .lost: return nil
        case .starting: return interval
        case .ready: break
        }
        if session.operationsInFlight > 0 { return interval }
        let silent = session.lastActivity.elapsed
        if silent < interval { return interval - silent }
        await poll()
        return interval
    }

    /// One change-only 0x9209 read, then every waiter re-checks what it waits for. A failure is recorded
    /// (a lost link is marked lost by `run`) and left to the waiters: a poll never throws.
    func poll() async {
        do {
            try await refreshProperties(full: false)
        } catch {
            // The waiters see the state (lost) or try again themselves.
        }
        doorbell.ring()
    }

    /// Waits until the event channel rings past `generation`, or until `timeout` passes. On a body that has
    /// sent no event yet in this session it waits at most the next pause of `polls` and then polls (one
    /// change-only read), so a body without events is followed within milliseconds too. True when the
    /// caller should look again (an event or a poll happened), false when `timeout` passed.
    func waitForSignal(after generation: UInt64, timeout: Duration, polls: inout PollBackoff) async throws -> Bool {
        if session.bodySendsEvents || timeout <= .zero {
            return try await waitForEvent(after: generation, timeout: timeout)
        }
        let pause = polls.take()
        if pause >= timeout { return try await waitForEvent(after: generation, timeout: timeout) }
        if try await waitForEvent(after: generation, timeout: pause) { return true }
        await poll()
        guard case .ready = state else { throw try lostOrNotConnected() }
        return true
    }

    /// Like `waitForSignal`, for callers that read the camera themselves when they wake: on a body without
    /// events it only sleeps the next pause of `polls` (no read of its own). True when the caller should look
    /// again, false when `timeout` passed.
    func waitForPause(after generation: UInt64, timeout: Duration, polls: inout PollBackoff) async throws -> Bool {
        if session.bodySendsEvents || timeout <= .zero {
            return try await waitForEvent(after: generation, timeout: timeout)
        }
        let pause = polls.take()
        if pause >= timeout { return try await waitForEvent(after: generation, timeout: timeout) }
        _ = try await waitForEvent(after: generation, timeout: pause)
        return true
    }

    /// Waits until the event channel rings past `generation` or `timeout` passes; true when it rang.
    func waitForEvent(after generation: UInt64, timeout: Duration) async throws -> Bool {
        if doorbell.generation > generation { return true }
        guard timeout > .zero else { return false }
        let doorbell = self.doorbell
        let rang: Bool
        do {
            try await withTimeout(after: timeout, on: clock, throwing: CancellationError()) {
                await doorbell.wait(after: generation)
                // The doorbell also returns when cancelled (by the timeout or our caller): that is no ring.
                try Task.checkCancellation()
            }
            rang = true
        } catch {
            rang = false
        }
        try Task.checkCancellation()
        return rang
    }
}
