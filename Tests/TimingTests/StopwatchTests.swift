import TestSupport
import Testing
import Timing

/// `Stopwatch` reads the injected clock: virtual time in tests.
@Suite("Stopwatch on a test clock")
struct StopwatchTests {
    @Test func measuresTheTimeTheClockMovedSinceItStarted() {
        let clock = TestClock()
        clock.advance(by: .seconds(5))
        let stopwatch = Stopwatch(clock: clock)
        #expect(stopwatch.elapsed == .zero)
        clock.advance(by: .milliseconds(2500))
        #expect(stopwatch.elapsed == .milliseconds(2500))
    }

    @Test func remainingCountsDownToZeroAndNeverBelow() {
        let clock = TestClock()
        let stopwatch = Stopwatch(clock: clock)
        clock.advance(by: .seconds(3))
        #expect(stopwatch.remaining(of: .seconds(5)) == .seconds(2))
        clock.advance(by: .seconds(3))
        #expect(stopwatch.remaining(of: .seconds(5)) == .zero)
    }
}
