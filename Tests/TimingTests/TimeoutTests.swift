import Synchronization
import TestSupport
import Testing
import Timing

/// `withTimeout` in virtual time: who wins the race, what is thrown, what is cancelled.
@Suite("withTimeout on a test clock")
struct TimeoutTests {
    /// The error the tests give `withTimeout` for "time is up".
    struct TimeIsUp: Error, Equatable {}

    @Test func anOperationThatFinishesFirstReturnsItsValueAndLeavesNoTimer() async throws {
        let clock = TestClock()
        let value = try await withTimeout(after: .seconds(10), on: clock, throwing: TimeIsUp()) { 42 }
        #expect(value == 42)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aSilentOperationIsCancelledAndTheTimeoutErrorThrownExactlyWhenTheClockReachesIt() async throws {
        let clock = TestClock()
        let cancelled = Latch()
        let call = Task {
            try await withTimeout(after: .seconds(10), on: clock, throwing: TimeIsUp()) {
                // Waits for nothing but its cancellation.
                await withTaskCancellationHandler {
                    await cancelled.wait()
                } onCancel: {
                    cancelled.open()
                }
                try Task.checkCancellation()
            }
        }
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(10))])
        clock.advance(by: .seconds(10) - .milliseconds(1))
        // Not yet: the timer still waits, and the operation was not cancelled.
        #expect(clock.sleeperCount == 1)
        #expect(!cancelled.isOpen)
        clock.advance(by: .milliseconds(1))
        await #expect(throws: TimeIsUp()) { try await call.value }
        #expect(cancelled.isOpen)
    }

    @Test func theOperationsOwnErrorPassesThroughUnchanged() async throws {
        struct Refused: Error, Equatable {}
        let clock = TestClock()
        await #expect(throws: Refused()) {
            try await withTimeout(after: .seconds(10), on: clock, throwing: TimeIsUp()) { throw Refused() }
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aValueTheOperationStillReturnsAfterTheTimeoutIsKept() async throws {
        let clock = TestClock()
        let cancelled = Latch()
        let release = Latch()
        // An operation that notices the cancellation but completes anyway (it got what it waited for): its
        // value wins, so nothing it acquired is dropped.
        let call = Task {
            try await withTimeout(after: .seconds(1), on: clock, throwing: TimeIsUp()) { () async -> Int in
                await withTaskCancellationHandler {
                    await release.wait()
                } onCancel: {
                    cancelled.open()
                }
                return 7
            }
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await cancelled.wait()
        release.open()
        #expect(try await call.value == 7)
    }

    @Test func noTimeoutRunsTheOperationWithoutATimer() async throws {
        let clock = TestClock()
        let value = try await withTimeout(after: nil, on: clock, throwing: TimeIsUp()) { "done" }
        #expect(value == "done")
        #expect(clock.sleepsRegistered == 0)
    }

    @Test(arguments: [Duration.zero, .seconds(-1)])
    func aTimeoutAlreadyPassedThrowsWithoutStartingTheOperation(timeout: Duration) async throws {
        let clock = TestClock()
        let started = Latch()
        await #expect(throws: TimeIsUp()) {
            try await withTimeout(after: timeout, on: clock, throwing: TimeIsUp()) { started.open() }
        }
        #expect(!started.isOpen)
    }

    @Test func cancellingTheCallerCancelsTheOperationAndThrowsItsErrorNotTheTimeout() async throws {
        let clock = TestClock()
        let other = TestClock()
        let call = Task {
            try await withTimeout(after: .seconds(10), on: clock, throwing: TimeIsUp()) {
                try await other.sleep(for: .seconds(1))
            }
        }
        await clock.waitForSleepers(1)
        await other.waitForSleepers(1)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(clock.sleeperCount == 0 && other.sleeperCount == 0)
    }
}

/// A gate that opens once and lets every waiter through, cancelled or not (so an operation can outlive its
/// cancellation on purpose).
final class Latch: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Whether `open()` has been called.
    var isOpen: Bool { state.withLock { $0.open } }

    /// Opens the latch and wakes every waiter.
    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the latch is open; ignores cancellation.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if openNow { continuation.resume() }
        }
    }
}
