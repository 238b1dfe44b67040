import TestSupport
import Testing
import Timing

/// `ScaledClock` (the `$HDRSHOOT_TIME_SCALE` hook's clock) over a test clock: its time runs `factor` times faster
/// than the base clock's, and its sleeps take a `factor`-th as long on the base clock.
@Suite("Scaled clock on a test clock")
struct ScaledClockTests {
    @Test func theContinuousClockScaledByOneIsTheContinuousClockItself() {
        #expect(continuousClock(scaledBy: 1) is ContinuousClock)
        let scaled = continuousClock(scaledBy: 10) as? ScaledClock<ContinuousClock>
        #expect(scaled?.factor == 10)
    }

    @Test func itsTimeRunsFactorTimesFasterThanTheBaseClock() {
        let base = TestClock()
        base.advance(by: .seconds(7))
        let clock = ScaledClock(base, factor: 10)
        #expect(clock.now.offset == .zero)
        base.advance(by: .milliseconds(250))
        #expect(clock.now.offset == .milliseconds(2500))
        let stopwatch = Stopwatch(clock: clock)
        base.advance(by: .seconds(4))
        #expect(stopwatch.elapsed == .seconds(40))
    }

    @Test func aFortySecondSleepEndsAfterFourSecondsOfTheBaseClock() async throws {
        let base = TestClock()
        let clock = ScaledClock(base, factor: 10)
        let sleeper = Task {
            try await clock.sleep(for: .seconds(40))
            return clock.now.offset
        }
        await base.waitForSleepers(1)
        #expect(base.pendingDeadlines == [TestClock.Instant(offset: .seconds(4))])
        base.advance(by: .milliseconds(3999))
        #expect(base.sleeperCount == 1)
        base.advance(by: .milliseconds(1))
        #expect(try await sleeper.value == .seconds(40))
    }

    @Test func aDeadlineInThePastReturnsAtOnceAndFactorOneIsTheBaseClock() async throws {
        let base = TestClock()
        let clock = ScaledClock(base, factor: 1)
        base.advance(by: .seconds(3))
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
        #expect(clock.now.offset == .seconds(3))
        #expect(base.sleepsRegistered == 0)
    }
}
