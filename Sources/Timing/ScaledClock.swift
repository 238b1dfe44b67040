/// A clock that runs `factor` times faster than the clock it wraps: its time advances `factor` seconds for each
/// second of the base clock, and a sleep lasts a `factor`-th of its duration on the base clock.
///
/// The binary's test hook (`$HDRSHOOT_TIME_SCALE`, `simulate --time-scale`): a series' schedule, and the
/// simulator's own time (exposures, processing, a BULB hold measured between S2 down and up), run on it, so an
/// end-to-end test of a 40 s BULB frame or a series every 20 s waits a tenth of that. Wrapping a `TestClock`, it
/// is itself testable in virtual time.
package struct ScaledClock<Base: Clock<Duration>>: Clock {
    /// A point in scaled time: the scaled time since the clock was created.
    package struct Instant: InstantProtocol {
        /// Scaled time since the clock was created.
        package var offset: Duration

        /// The instant `duration` later.
        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Earlier instants sort first.
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// The clock whose time is scaled.
    package let base: Base
    /// How many times faster than `base` this clock runs (1 or more).
    package let factor: Int
    private let origin: Base.Instant

    /// A clock running `factor` (at least 1) times faster than `base`, at zero now.
    package init(_ base: Base, factor: Int) {
        precondition(factor >= 1, "a time scale speeds time up")
        self.base = base
        self.factor = factor
        origin = base.now
    }

    /// The scaled time since the clock was created.
    package var now: Instant { Instant(offset: origin.duration(to: base.now) * factor) }

    /// The base clock's resolution, scaled.
    package var minimumResolution: Duration { base.minimumResolution * factor }

    /// Sleeps on the base clock for a `factor`-th of the time left until `deadline`.
    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let left = max(.zero, now.duration(to: deadline))
        try await base.sleep(until: base.now.advanced(by: left / factor), tolerance: tolerance.map { $0 / factor })
    }
}

/// The continuous clock running `factor` times faster: the continuous clock itself at 1 (real time), else a
/// `ScaledClock` over it. What the time-scale hook's clocks run on (the simulator's time, a series' schedule).
package func continuousClock(scaledBy factor: Int) -> any Clock<Duration> {
    factor == 1 ? ContinuousClock() : ScaledClock(ContinuousClock(), factor: factor)
}
