import Synchronization

/// Rings whenever something happens that waiters care about (an event from the camera, a request to the
/// simulated body), so they wake on it instead of polling.
///
/// A generation counter makes it race-free: read `generation`, send a request, then `wait(after:)` that
/// generation; an event that came in between has already moved the counter, and the wait returns at once.
package final class Doorbell: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextID: UInt64 = 0
        var waiters: [UInt64: (after: UInt64, continuation: CheckedContinuation<Void, Never>)] = [:]
        var cancelledEarly: Set<UInt64> = []
    }

    private let state = Mutex(State())

    /// A bell that has not rung yet.
    package init() {}

    /// How many times the bell has rung.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Moves the generation on and wakes every waiter.
    package func ring() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation += 1
            let due = state.waiters.values.map(\.continuation)
            state.waiters.removeAll()
            return due
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once the generation is past `generation`, or when the calling task is cancelled.
    package func wait(after generation: UInt64) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.cancelledEarly.remove(id) != nil || state.generation > generation { return true }
                    state.waiters[id] = (generation, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter.continuation }
                state.cancelledEarly.insert(id)
                return nil
            }
            waiter?.resume()
        }
    }
}
