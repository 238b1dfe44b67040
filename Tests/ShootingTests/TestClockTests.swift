import TestSupport
import Testing

/// The virtual clock the runner tests rely on (it lives in TestSupport, which has no test target).
@Suite(.timeLimit(.minutes(1))) struct TestClockTests {
    @Test func sleeperWakesAtItsDeadlineAndNotBefore() async throws {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(10)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == TestClock.Instant(offset: .seconds(10)))
    }

    @Test func cancelledSleeperThrowsAndIsRemoved() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepCancelledBeforeItStartsThrowsAtOnce() async {
        let clock = TestClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(5))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func deadlineInThePastReturnsWithoutRegistering() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(3))
        try await clock.sleep(until: TestClock.Instant(offset: .seconds(1)))
        #expect(clock.sleepsRegistered == 0)
    }

    @Test func advanceWakesEveryDueSleeperAndWaitCountsThem() async throws {
        let clock = TestClock()
        let short = Task { try await clock.sleep(for: .seconds(1)) }
        let long = Task { try await clock.sleep(for: .seconds(3)) }
        await clock.waitForSleepers(2)
        #expect(
            clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(1)), TestClock.Instant(offset: .seconds(3))])
        clock.advance(by: .seconds(2))
        try await short.value
        #expect(clock.sleeperCount == 1)
        clock.advance(to: TestClock.Instant(offset: .seconds(3)))
        try await long.value
        #expect(clock.sleepsRegistered == 2)
    }
}
