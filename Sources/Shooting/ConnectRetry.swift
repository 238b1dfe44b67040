/// One failed connection attempt that is tried again after `delay` (a camera's `connectRetrying`).
package struct ConnectRetry: Sendable {
    /// The attempt that failed, from 1; the next one is `failedAttempt + 1`.
    package var failedAttempt: Int
    /// How many attempts are made at most.
    package var maximumAttempts: Int
    /// The wait before the next attempt.
    package var delay: Duration
    /// Why the attempt failed (a refused, timed-out or reset connection, a body that said it is busy).
    package var error: any Error

    /// Creates a record of a failed attempt.
    package init(failedAttempt: Int, maximumAttempts: Int, delay: Duration, error: any Error) {
        self.failedAttempt = failedAttempt
        self.maximumAttempts = maximumAttempts
        self.delay = delay
        self.error = error
    }
}

/// The one connect-with-backoff loop of both camera protocols: `attempt` until it succeeds; after a failure
/// `isRetryable` accepts, wait the next of `backoff` on `clock` (telling `onRetry` first) and try again; any
/// other failure, the last one, or a cancellation throws `failure(error, attempts made)`.
///
/// `isConnected` ends the loop at once when a session is already open; `attempt` cleans up after itself when
/// it throws. Runs on the caller's actor.
package func connectWithBackoff(
    _ backoff: [Duration], on clock: any Clock<Duration>,
    isolation: isolated (any Actor)? = #isolation,
    isConnected: () async -> Bool,
    attempt: () async throws -> Void,
    isRetryable: (any Error) -> Bool,
    failure: (any Error, Int) -> any Error,
    onRetry: @Sendable (ConnectRetry) async -> Void
) async throws {
    var attempts = 0
    while true {
        attempts += 1
        if await isConnected() { return }
        do {
            try await attempt()
            return
        } catch {
            guard isRetryable(error), attempts <= backoff.count, !Task.isCancelled else {
                throw failure(error, attempts)
            }
            let delay = backoff[attempts - 1]
            await onRetry(
                ConnectRetry(
                    failedAttempt: attempts, maximumAttempts: backoff.count + 1, delay: delay, error: error))
            try await clock.sleep(for: delay)
        }
    }
}

/// A camera whose session opens in one attempt and is retried with backoff: the one `connect` and
/// `connectRetrying` of both camera protocols (`SonyCamera` over PTP/IP, `LegacySonyCamera` over the Camera
/// Remote API), which differ only in how a session opens and what a failure says.
package protocol SessionConnecting: Actor {
    /// Whether a session is open and usable.
    var hasOpenSession: Bool { get }
    /// The waits between failed attempts of `connectRetrying` (2 s, 5 s, 10 s by default).
    var connectBackoff: [Duration] { get }
    /// The clock the waits run on.
    var connectClock: any Clock<Duration> { get }
    /// The address a failure names.
    var connectAddress: String { get }
    /// Opens the session and the body's start-up; what a failure left open, `tearDown` closes.
    func openSession() async throws
    /// Closes whatever is open, within bounds; never throws.
    func tearDown() async
    /// Whether an attempt that failed with `error` is worth another (refused, timed out, reset, busy).
    static func isRetryableConnectFailure(_ error: any Error) -> Bool
    /// The error a failed connect throws after `attempts` attempts: what to check, in one line.
    static func connectError(_ error: any Error, address: String, attempts: Int) -> any Error
}

extension SessionConnecting {
    /// One bounded connection attempt plus the body's start-up (what `RemoteCamera` asks for: the runner owns
    /// reconnect backoff). Returns at once when already connected.
    package func connect() async throws {
        if hasOpenSession { return }
        do {
            try await attemptSession()
        } catch {
            throw Self.connectError(error, address: connectAddress, attempts: 1)
        }
    }

    /// Connects with automatic retry: after a refused, timed-out or reset connection (or a body that says it
    /// is busy) it waits the next of `connectBackoff` on `connectClock` and tries again; an unreachable host or
    /// network, or an answer that is not the camera's protocol, fails at once. The final error says what to
    /// check. `onRetry` hears of each failed attempt that will be tried again, before the wait (so a front end
    /// can say "trying again in 5 s" at once).
    package func connectRetrying(onRetry: @Sendable (ConnectRetry) async -> Void = { _ in }) async throws {
        try await connectWithBackoff(
            connectBackoff, on: connectClock,
            isConnected: { hasOpenSession },
            attempt: { try await attemptSession() },
            isRetryable: Self.isRetryableConnectFailure,
            failure: { Self.connectError($0, address: connectAddress, attempts: $1) },
            onRetry: onRetry)
    }

    /// Closes what an earlier session left, then opens one; a failed attempt closes what it opened.
    private func attemptSession() async throws {
        await tearDown()
        do {
            try await openSession()
        } catch {
            await tearDown()
            throw error
        }
    }
}
