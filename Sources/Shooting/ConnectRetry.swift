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
