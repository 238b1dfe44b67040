import Foundation
import Shooting
import Timing

/// The clocks a series' schedule runs on, as a front end gives them: the time of day, and the schedule's own clock,
/// which runs `factor` times faster than the wall clock (1 in the field; the binary's time-scale test hook makes it
/// N, to match a simulator started with `simulate --time-scale N`). The layer never reads the factor from the
/// environment: the front end hands it in as a value.
package struct SeriesClocks: Sendable {
    /// The time of day (the journal's times, the waiting update's start time, a series marked ended).
    package var wallClock: WallClock
    /// How many times faster the schedule runs than the wall clock.
    package var factor: Int
    /// The clock the schedule waits on.
    package var clock: any Clock<Duration>

    /// The clocks of a schedule `factor` times faster than `wallClock`; `clock` defaults to the continuous clock
    /// scaled by `factor` (a test passes its virtual clock).
    package init(wallClock: WallClock = .system, factor: Int = 1, clock: (any Clock<Duration>)? = nil) {
        precondition(factor >= 1, "a schedule runs at real time or faster")
        self.wallClock = wallClock
        self.factor = factor
        self.clock = clock ?? continuousClock(scaledBy: factor)
    }

    /// Where the schedule of `record` stands now: the wall-clock time since its first start, on the schedule's
    /// clock (`factor` times as long). The one place a series' schedule offset is computed, for a new series
    /// (about zero at the yes) and for `resume` (where the interrupted schedule stands, missed starts included).
    package func offset(in record: SeriesRecord) -> Duration {
        record.offset(of: wallClock.now()) * factor
    }
}
