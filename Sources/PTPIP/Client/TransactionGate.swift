import Synchronization

/// A first-in, first-out asynchronous lock: at most one holder, waiters served in arrival order.
///
/// Actors are reentrant: two callers of an actor method interleave at every `await`. A PTP/IP command
/// connection carries one transaction at a time, so the client takes this gate around each transaction.
/// It lives outside the actor's isolation (a `Mutex`) so that a cancelled waiter can leave the queue
/// synchronously from its cancellation handler.
final class TransactionGate: Sendable {
    private struct State: ~Copyable {
        var held = false
        var nextTicket: UInt64 = 0
        /// Waiters in arrival order (ticket, continuation); ownership passes directly to the first.
        var waiters: [(UInt64, UnsafeContinuation<Void, any Error>)] = []
    }

    private let state = Mutex(State())

    /// Creates an open gate.
    init() {}

    /// Waits for the gate; throws `CancellationError` if the task is cancelled while queued.
    func enter() async throws {
        let ticket: UInt64? = state.withLock { state in
            if !state.held {
                state.held = true
                return nil
            }
            defer { state.nextTicket &+= 1 }
            return state.nextTicket
        }
        guard let ticket else { return }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let cancelled: Bool = state.withLock { state in
                    if Task.isCancelled { return true }
                    state.waiters.append((ticket, continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let continuation: UnsafeContinuation<Void, any Error>? = state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.0 == ticket }) else { return nil }
                return state.waiters.remove(at: index).1
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Enters at once if the gate is free; returns whether it did.
    func tryEnter() -> Bool {
        state.withLock { state in
            if state.held { return false }
            state.held = true
            return true
        }
    }

    /// How many callers are queued for the gate now (not counting the holder); tests wait on it to order
    /// their callers without sleeping.
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Leaves the gate, handing it to the longest-waiting caller if there is one.
    func leave() {
        let next: UnsafeContinuation<Void, any Error>? = state.withLock { state in
            precondition(state.held, "leaving a gate that is not held")
            if state.waiters.isEmpty {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst().1
        }
        next?.resume()
    }
}
