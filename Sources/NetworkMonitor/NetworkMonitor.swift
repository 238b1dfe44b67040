import Posix
import Synchronization

/// Watches the host's network through netlink and reports changes of one interface as an `AsyncSequence`.
///
/// The netlink sockets are non-blocking and wait on the shared `IOEventLoop` (the loop the PTP/IP transport
/// uses), so the monitor has no thread of its own and an idle monitor costs no CPU: its task is parked until a
/// datagram arrives. Request timeouts run on the configuration's clock. `stop()` cancels that task and waits
/// for it, then the sockets close.
///
/// ```swift
/// let monitor = NetworkMonitor(configuration: .init(target: .routeTo(cameraAddress)))
/// let initial = try await monitor.start()
/// for try await event in monitor.events { ... }
/// await monitor.stop()
/// ```
package actor NetworkMonitor {
    /// The lifecycle of the monitor's task.
    private enum State {
        case idle
        case starting
        case running(Task<Void, Never>)
        case stopped
    }

    /// Link, address and Wi-Fi changes of the watched interface; finishes after `stop()`, or throws
    /// the error that ended the monitor.
    package nonisolated let events: AsyncThrowingStream<NetworkEvent, any Error>
    private let continuation: AsyncThrowingStream<NetworkEvent, any Error>.Continuation
    private let configuration: NetworkMonitorConfiguration
    private let latest = LatestSnapshot()
    private var state: State = .idle

    /// Creates a monitor; nothing is opened until `start()`.
    package init(configuration: NetworkMonitorConfiguration) {
        self.configuration = configuration
        (events, continuation) = AsyncThrowingStream.makeStream(
            of: NetworkEvent.self, bufferingPolicy: .bufferingNewest(configuration.eventBufferSize))
    }

    deinit {
        if case let .running(task) = state { task.cancel() }
        continuation.finish()
    }

    /// The latest known state of the watched interface (updated as events are handled).
    package nonisolated var snapshot: NetworkSnapshot { latest.value.withLock { $0 } }

    /// How many times a queued datagram woke the monitor since it started (an idle monitor stays at rest).
    package nonisolated var wakeups: Int { latest.wakeups.load(ordering: .relaxed) }

    /// Opens the sockets, finds the interface, reads its state and starts watching.
    ///
    /// - Returns: the initial state.
    /// - Throws: `NetworkMonitorError` (for example `.interfaceNotFound` when nothing routes to the camera).
    package func start() async throws -> NetworkSnapshot {
        guard case .idle = state else { throw NetworkMonitorError.closed }
        state = .starting
        let continuation = continuation
        let latest = latest
        let engine: MonitorEngine
        do {
            let sockets = try await MonitorSockets.open(preparing: configuration)
            engine = try await MonitorEngine.open(
                configuration: configuration, sockets: sockets,
                publish: { snapshot in latest.value.withLock { $0 = snapshot } },
                emit: { continuation.yield($0) })
        } catch {
            if case .starting = state { state = .idle }
            throw error
        }
        guard case .starting = state else { throw NetworkMonitorError.closed } // stop() came first
        let task = Task {
            do throws(NetworkMonitorError) {
                try await engine.run { latest.wakeups.add(1, ordering: .relaxed) }
            } catch {
                // Cancelled by stop(): the stream just ends. Anything else ended the monitor.
                if Task.isCancelled { continuation.finish() } else { continuation.finish(throwing: error) }
            }
        }
        state = .running(task)
        return snapshot
    }

    /// Stops watching: cancels the monitor's task, waits for it to end, ends `events`.
    package func stop() async {
        switch state {
        case let .running(task):
            state = .stopped
            task.cancel()
            await task.value
        case .idle, .starting:
            state = .stopped
        case .stopped:
            return
        }
        continuation.finish()
    }
}

/// What the monitor's task publishes and any caller reads.
final class LatestSnapshot: Sendable {
    /// The latest snapshot, behind a lock.
    let value = Mutex(NetworkSnapshot())
    /// How many times a datagram woke the monitor.
    let wakeups = Atomic<Int>(0)
}
