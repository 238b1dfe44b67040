/// Runs `operation` and gives up on it once `timeout` has passed on `clock`: the operation is cancelled,
/// and `timeoutError` is thrown once it has ended.
///
/// The one way hdrshoot bounds a wait in time: the operation and a sleep on `clock` race in a task group,
/// and the loser is cancelled. So the operation itself needs no deadline (a socket wait, a queue, a stream
/// ends at cancellation), and a test clock decides when a timeout fires. A nil `timeout` waits as long as
/// the operation does; a zero or negative one throws `timeoutError` without starting it.
///
/// The operation's own result wins whenever it has one: if it still returns a value after the timeout
/// cancelled it (it got what it waited for at the same moment), that value is returned, so nothing it
/// acquired (a lock, a connection) is lost. Its errors pass through unchanged, except the one it throws
/// because the timeout cancelled it, which becomes `timeoutError`. Cancelling the calling task cancels the
/// operation, and its error (usually a cancellation) is thrown.
package func withTimeout<Success: Sendable>(
    after timeout: Duration?, on clock: any Clock<Duration>, throwing timeoutError: any Error,
    _ operation: @escaping @Sendable () async throws -> Success
) async throws -> Success {
    guard let timeout else { return try await operation() }
    guard timeout > .zero else { throw timeoutError }
    let outcome = await withTaskGroup(of: TimeoutRace<Success>.self) { group -> Result<Success, any Error> in
        group.addTask {
            do {
                return .finished(.success(try await operation()))
            } catch {
                return .finished(.failure(error))
            }
        }
        group.addTask {
            do {
                try await clock.sleep(for: timeout)
                return .timerFired
            } catch {
                return .timerCancelled
            }
        }
        var timedOut = false
        while let outcome = await group.next() {
            switch outcome {
            case let .finished(result):
                group.cancelAll()
                if timedOut, case .failure = result { return .failure(timeoutError) }
                return result
            case .timerFired:
                timedOut = true
                group.cancelAll()
            case .timerCancelled:
                // The operation finished first, or the caller was cancelled: the operation's outcome decides.
                continue
            }
        }
        preconditionFailure("the operation's task always reports its outcome")
    }
    return try outcome.get()
}

/// What one side of `withTimeout`'s race reported.
private enum TimeoutRace<Success: Sendable>: Sendable {
    /// The operation ended, with this outcome.
    case finished(Result<Success, any Error>)
    /// The timeout passed.
    case timerFired
    /// The sleep was cancelled before the timeout passed.
    case timerCancelled
}
