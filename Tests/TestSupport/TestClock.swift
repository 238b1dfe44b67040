import Synchronization

/// A virtual clock for tests: time moves only when the test advances it.
///
/// Code under test sleeps on it like on any `Clock<Duration>`; the test waits until the expected number
/// of sleepers is registered (`waitForSleepers`), then moves time (`advance(by:)`), which wakes every
/// sleeper whose deadline has come. Nothing depends on real time, so a 10 s backoff takes microseconds
/// and the order of events is fixed by the test. Modelled on pointfreeco/swift-clocks' `TestClock`.
package final class TestClock: Clock, Sendable {
    /// A point in virtual time: the offset from the clock's creation.
    package struct Instant: InstantProtocol, CustomStringConvertible {
        /// Time since the clock was created.
        package var offset: Duration

        /// Creates an instant `offset` after the clock's start.
        package init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Earlier instants sort first.
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        /// `t+2.0 seconds`.
        package var description: String { "t+\(offset)" }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        /// Sleeps cancelled before they registered (the cancellation handler ran first).
        var cancelledEarly: Set<UInt64> = []
        var waiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Tests waiting for a sleeper with one exact deadline.
        var deadlineWaiters: [(id: UInt64, deadline: Instant, continuation: CheckedContinuation<Void, Never>)] = []
        var sleepsRegistered = 0

        /// Whether a sleeper waits for exactly `deadline`.
        func hasSleeper(until deadline: Instant) -> Bool { sleepers.values.contains { $0.deadline == deadline } }

        /// Removes and returns the waiters whose sleeper count or deadline is reached.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let ready = waiters.filter { $0.count <= sleepers.count }.map(\.continuation)
            waiters.removeAll { $0.count <= sleepers.count }
            let deadlines = Set(sleepers.values.map(\.deadline.offset))
            let found = deadlineWaiters.filter { deadlines.contains($0.deadline.offset) }
            deadlineWaiters.removeAll { deadlines.contains($0.deadline.offset) }
            return ready + found.map(\.continuation)
        }
    }

    private let state = Mutex(State())

    /// Creates a clock at virtual time zero.
    package init() {}

    /// The current virtual time.
    package var now: Instant { state.withLock { $0.now } }

    /// Virtual time has no granularity.
    package var minimumResolution: Duration { .zero }

    /// The number of sleepers waiting now.
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The number of sleeps that ever had to wait (a deadline in the past returns at once and is not counted).
    package var sleepsRegistered: Int { state.withLock { $0.sleepsRegistered } }

    /// The deadlines of the waiting sleepers, earliest first.
    package var pendingDeadlines: [Instant] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

    /// Suspends until `deadline` is reached by `advance`; throws `CancellationError` when cancelled.
    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (immediate, waiters) = state.withLock {
                    state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelledEarly.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    state.sleepsRegistered += 1
                    return (nil, state.satisfiedWaiters())
                }
                if let immediate { continuation.resume(with: immediate) }
                for waiter in waiters { waiter.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                if let sleeper = state.sleepers.removeValue(forKey: id) { return sleeper }
                state.cancelledEarly.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns once at least `count` sleepers are waiting (at once if they already are), or when the
    /// waiting task is cancelled (a test's time limit), so a runner that never sleeps fails the test
    /// instead of hanging it.
    package func waitForSleepers(_ count: Int = 1) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.sleepers.count >= count || state.cancelledEarly.remove(id) != nil { return true }
                    state.waiters.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }

    /// Returns once a sleeper waits for exactly `deadline` (at once if one already does), or when the waiting
    /// task is cancelled. Where several parts of the code under test sleep on one clock, the deadline says which
    /// of them has gone to sleep: a count of sleepers cannot tell a new wait from a timer not yet cancelled.
    package func waitForSleeper(until deadline: Instant) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.hasSleeper(until: deadline) || state.cancelledEarly.remove(id) != nil { return true }
                    state.deadlineWaiters.append((id, deadline, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.deadlineWaiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.deadlineWaiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }

    /// Moves time forward by `duration` and wakes every sleeper whose deadline has come, earliest first.
    package func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves time to `instant` (never backwards) and wakes every sleeper whose deadline has come.
    package func advance(to instant: Instant) {
        let due = state.withLock { state -> [Sleeper] in
            if instant > state.now { state.now = instant }
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            // Earliest first; sleepers due at the same instant in the order they went to sleep (never the
            // dictionary's order, which changes from process to process: a seeded simulation replays exactly).
            return due.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }.map(\.value)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
