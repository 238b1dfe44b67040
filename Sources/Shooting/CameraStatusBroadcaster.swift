import Synchronization

/// Hands a camera's status to any number of listeners (`RemoteCamera.statusUpdates()`); each new stream starts
/// with the current status, then yields every change.
///
/// A lock rather than actor state, so a stream's termination handler can unsubscribe synchronously and a camera
/// actor can publish without an `await`.
package final class CameraStatusBroadcaster: Sendable {
    private struct State {
        var current: CameraStatus = .disconnected
        var nextID = 0
        var listeners: [Int: AsyncStream<CameraStatus>.Continuation] = [:]
    }

    private let state = Mutex(State())

    /// A broadcaster whose status is `.disconnected`.
    package init() {}

    /// The status as last published.
    package var current: CameraStatus { state.withLock { $0.current } }

    /// A stream that yields the current status at once, then every change.
    package func subscribe() -> AsyncStream<CameraStatus> {
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
    package func publish(_ status: CameraStatus) {
        state.withLock { state in
            guard state.current != status else { return }
            state.current = status
            for listener in state.listeners.values { listener.yield(status) }
        }
    }
}
