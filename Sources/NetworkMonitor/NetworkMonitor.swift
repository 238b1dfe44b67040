import Foundation
import Posix
import Synchronization

/// Watches the host's network through netlink and reports changes of one interface as an `AsyncSequence`.
///
/// All netlink I/O runs on one dedicated thread that sleeps in `poll(2)` (no timeout, so an idle
/// monitor costs no CPU); the cooperative pool is never blocked. `stop()` wakes that thread through a
/// self-pipe and waits for it to end.
///
/// ```swift
/// let monitor = NetworkMonitor(configuration: .init(target: .routeTo(cameraAddress)))
/// let initial = try await monitor.start()
/// for try await event in monitor.events { ... }
/// await monitor.stop()
/// ```
package actor NetworkMonitor {
    /// The lifecycle of the monitor thread.
    private enum State {
        case idle
        case starting(Wakeup, ThreadExit)
        case running(Wakeup, ThreadExit)
        case stopped
    }

    /// Link, address and Wi-Fi changes of the watched interface; finishes after `stop()`, or throws
    /// the error that ended the monitor thread.
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
        switch state {
        case let .starting(wakeup, _), let .running(wakeup, _): wakeup.signal()
        case .idle, .stopped: break
        }
        continuation.finish()
    }

    /// The latest known state of the watched interface (updated by the monitor thread).
    package nonisolated var snapshot: NetworkSnapshot { latest.value.withLock { $0 } }

    /// Opens the sockets, finds the interface, reads its state and starts watching.
    ///
    /// - Returns: the initial state.
    /// - Throws: `NetworkMonitorError` (for example `.interfaceNotFound` when nothing routes to the camera).
    package func start() async throws -> NetworkSnapshot {
        guard case .idle = state else { throw NetworkMonitorError.closed }
        let wakeup = try monitorCall { () throws(SocketFailure) in try Wakeup() }
        let exit = ThreadExit()
        state = .starting(wakeup, exit)
        let configuration = configuration
        let continuation = continuation
        let latest = latest
        let initial: NetworkSnapshot
        do {
            initial = try await withCheckedThrowingContinuation {
                (started: CheckedContinuation<NetworkSnapshot, any Error>) in
                let thread = Thread {
                    defer { exit.markFinished() }
                    let engine: MonitorEngine
                    do {
                        try configuration.prepareThread?()
                        engine = try MonitorEngine(
                            configuration: configuration,
                            publish: { snapshot in latest.value.withLock { $0 = snapshot } },
                            emit: { continuation.yield($0) })
                    } catch {
                        started.resume(throwing: error)
                        return
                    }
                    let first = engine.snapshot
                    latest.value.withLock { $0 = first }
                    started.resume(returning: first)
                    do {
                        try engine.run(wakeup: wakeup)
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                thread.name = "hdrshoot-netmon"
                thread.stackSize = 512 * 1024
                thread.start()
            }
        } catch {
            if case .starting = state { state = .idle }
            throw error
        }
        guard case .starting = state else { throw NetworkMonitorError.closed } // stop() came first
        state = .running(wakeup, exit)
        return initial
    }

    /// Stops watching: wakes the monitor thread, waits for it to close its sockets, ends `events`.
    package func stop() async {
        switch state {
        case let .starting(wakeup, exit), let .running(wakeup, exit):
            state = .stopped
            wakeup.signal()
            await exit.wait()
        case .idle:
            state = .stopped
        case .stopped:
            return
        }
        continuation.finish()
    }
}

/// The snapshot the monitor thread publishes and any caller reads.
final class LatestSnapshot: Sendable {
    /// The latest snapshot, behind a lock.
    let value = Mutex(NetworkSnapshot())
}

/// Lets async code wait for the monitor thread to end without blocking a pool thread.
final class ThreadExit: Sendable {
    private let state = Mutex<(finished: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Called once by the thread as it ends.
    func markFinished() {
        let waiters = state.withLock { state in
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the thread has ended.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state in
                if !state.finished { state.waiters.append(continuation) }
                return state.finished
            }
            if finished { continuation.resume() }
        }
    }
}
