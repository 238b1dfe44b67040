import Shooting
import Synchronization

/// Rings whenever something arrives on the camera's event channel, so waiters wake on events instead of
/// polling.
///
/// A generation counter makes it race-free: read `generation`, send a request, then `wait(after:)` that
/// generation; an event that came in between has already moved the counter, and the wait returns at once.
final class EventDoorbell: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextID: UInt64 = 0
        var waiters: [UInt64: (after: UInt64, continuation: CheckedContinuation<Void, Never>)] = [:]
        var cancelledEarly: Set<UInt64> = []
    }

    private let state = Mutex(State())

    /// How many times the bell has rung.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Moves the generation on and wakes every waiter.
    func ring() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation += 1
            let due = state.waiters.values.map(\.continuation)
            state.waiters.removeAll()
            return due
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once the generation is past `generation`, or when the calling task is cancelled.
    func wait(after generation: UInt64) async {
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

/// Hands the camera's status to any number of listeners; each new stream starts with the current status.
///
/// A lock rather than actor state so that a stream's termination handler can unsubscribe synchronously.
final class StatusBroadcaster: Sendable {
    private struct State {
        var current: CameraStatus = .disconnected
        var nextID = 0
        var listeners: [Int: AsyncStream<CameraStatus>.Continuation] = [:]
    }

    private let state = Mutex(State())

    /// The status as last published.
    var current: CameraStatus { state.withLock { $0.current } }

    /// A stream that yields the current status at once, then every change.
    func subscribe() -> AsyncStream<CameraStatus> {
        let (stream, continuation) = AsyncStream<CameraStatus>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            continuation.yield(state.current)
            state.listeners[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Publishes `status` when it differs from the current one.
    func publish(_ status: CameraStatus) {
        state.withLock { state in
            guard state.current != status else { return }
            state.current = status
            for listener in state.listeners.values { listener.yield(status) }
        }
    }
}
