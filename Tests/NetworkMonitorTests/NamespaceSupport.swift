import Foundation
import TestSupport
import Testing

@testable import NetworkMonitor

/// Runs `body` on a fresh thread inside `namespace` (so sockets it opens live there) and returns its result.
func onThread<T: Sendable>(
    inNamespace namespace: String?, _ body: @escaping @Sendable () throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do {
                if let namespace { try VethNamespaces.enter(namespace: namespace) }
                continuation.resume(returning: try body())
            } catch {
                continuation.resume(throwing: error)
            }
        }
        thread.start()
    }
}

/// Collects a monitor's events so a test can wait for one with a real-time deadline (the kernel is real).
actor EventLog {
    private(set) var events: [NetworkEvent] = []
    private var ended = false

    func append(_ event: NetworkEvent) { events.append(event) }
    func end() { ended = true }

    /// Waits until an event at or after `start` matches, for at most `timeout` (a not-a-hang bound: a parallel
    /// `swift test` on 2 cores delayed events by seconds); returns its index.
    func waitFor(
        after start: Int = 0, timeout: Duration = TimingBounds.notAHang, clock: ContinuousClock = ContinuousClock(),
        _ matches: (NetworkEvent) -> Bool
    ) async -> Int? {
        func found() -> Int? {
            guard start < events.count else { return nil }
            return events[start...].firstIndex(where: matches)
        }
        _ = try? await eventually(timeout: timeout) { found() != nil || ended }
        return found()
    }
}

/// Starts a task that copies `monitor.events` into a log; await the task after `monitor.stop()`.
func collect(_ monitor: NetworkMonitor, into log: EventLog) -> Task<Void, Never> {
    Task {
        do { for try await event in monitor.events { await log.append(event) } } catch {}
        await log.end()
    }
}
