import Dispatch
import Foundation
import Synchronization

/// Blocking calls handed to another thread by `runBlocking` and not finished yet, process-wide. A lockstep test
/// (Tests/TestSupport/QuiescentExecutor.swift) waits for zero as well as an idle executor before it calls the
/// code under test parked. Inside a deterministic world blocking work runs inline and is never counted.
package let blockingWorkInFlight = Atomic<Int>(0)

/// Runs `work`, a call that blocks (a name lookup, a read of a terminal), on a Dispatch worker, never on the
/// cooperative pool, and returns its result. The one bridge from blocking calls to `async` code. Inside a
/// deterministic world (`TaskPlacement.runsInline`) it runs inline, on the world's one thread.
///
/// Cancelling the caller throws `CancellationError` at once; the blocking call itself cannot be interrupted,
/// so it finishes on its worker and its result is dropped.
package func runBlocking<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    if TaskPlacement.runsInline {
        // Inside a deterministic world: on its one thread, in call order; a cancelled caller still throws.
        let result = Result { try work() }
        try Task.checkCancellation()
        return try result.get()
    }
    let resumer = OnceResumer<Value>()
    return try await withTaskCancellationHandler {
        try await withUnsafeThrowingContinuation { continuation in
            resumer.install(continuation)
            blockingWorkInFlight.add(1, ordering: .sequentiallyConsistent)
            DispatchQueue.global().async {
                let result = Result { try work() }
                // Resumed before the count drops: the caller's job is queued by then, so a test that waits for
                // an idle executor and no blocking work never sees both idle in between.
                resumer.resume(with: result)
                blockingWorkInFlight.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
    } onCancel: {
        resumer.resume(with: .failure(CancellationError()))
    }
}

/// Runs `work`, blocking calls whose order matters (the writes of one file), on the serial `queue`, never on the
/// cooperative pool, and returns its result or its typed error. The second form of the one bridge: calls on
/// one queue run one at a time in call order, so a later write never lands before an earlier one.
///
/// Unlike `runBlocking(_:)`, the caller waits for the work even when cancelled: it needs to know whether the
/// file was written.
package func runBlocking<Value: Sendable, Failure: Error>(
    on queue: DispatchQueue, _ work: @escaping @Sendable () throws(Failure) -> Value
) async throws(Failure) -> Value {
    // Inside a deterministic world: on its one thread, which keeps the queue's order (one call at a time).
    if TaskPlacement.runsInline { return try work() }
    let result: Result<Value, Failure> = await withUnsafeContinuation { continuation in
        blockingWorkInFlight.add(1, ordering: .sequentiallyConsistent)
        queue.async {
            let result: Result<Value, Failure>
            do throws(Failure) {
                result = .success(try work())
            } catch {
                result = .failure(error)
            }
            continuation.resume(returning: result)
            blockingWorkInFlight.subtract(1, ordering: .sequentiallyConsistent)
        }
    }
    return try result.get()
}

/// Runs `work` on the serial `queue` without waiting for it (the fsyncs that follow an image's last write), counted
/// in `blockingWorkInFlight` until it ends, so a lockstep test never calls the code parked while it runs; `work`
/// wakes its waiters itself, before the count drops. Inside a deterministic world it runs inline, now.
package func runInBackground(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
    if TaskPlacement.runsInline { return work() }
    blockingWorkInFlight.add(1, ordering: .sequentiallyConsistent)
    queue.async {
        work()
        blockingWorkInFlight.subtract(1, ordering: .sequentiallyConsistent)
    }
}

/// Runs `work` on a new thread of its own, which ends with it, and returns its result.
///
/// For the rare work that changes the thread it runs on, such as entering a network namespace with setns(2)
/// before opening sockets there (tests do): done on a pool or Dispatch thread, the change would stay with a
/// thread that other work reuses. The thread lives for the call only; cancelling the caller does not stop it.
package func runOnOwnThread<Value: Sendable>(
    name: String, _ work: @escaping @Sendable () throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.name = name
        thread.start()
    }
}

/// A continuation that the first of several racing parties resumes; the others are ignored.
final class OnceResumer<Value: Sendable>: Sendable {
    private enum State {
        case waiting
        case installed(UnsafeContinuation<Value, any Error>)
        case finished(Result<Value, any Error>?)
    }

    private let state = Mutex(State.waiting)

    /// Installs the continuation; resumes it at once if a result came first.
    func install(_ continuation: UnsafeContinuation<Value, any Error>) {
        let early: Result<Value, any Error>?? = state.withLock { state in
            switch state {
            case .waiting:
                state = .installed(continuation)
                return .none
            case let .finished(result):
                state = .finished(nil)
                return .some(result)
            case .installed:
                preconditionFailure("continuation installed twice")
            }
        }
        if case let .some(result?) = early { continuation.resume(with: result) }
    }

    /// Resumes with `result` unless someone already did.
    func resume(with result: Result<Value, any Error>) {
        let continuation: UnsafeContinuation<Value, any Error>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .finished(result)
                return nil
            case let .installed(continuation):
                state = .finished(nil)
                return continuation
            case .finished:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
