/// Measures the time passed on an injected clock since it was started, without knowing the clock's type.
///
/// The one way hdrshoot measures elapsed time (a backoff's total, a bounded disconnect's remaining time, the
/// simulator's time since start): on a test clock it reads virtual time, so a test moves it explicitly.
package struct Stopwatch: Sendable {
    private let read: @Sendable () -> Duration

    /// Starts measuring now on `clock`.
    package init(clock: any Clock<Duration>) {
        read = Self.start(clock)
    }

    /// Opens the clock's type once, so each reading is a plain call.
    private static func start<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    /// The time since the stopwatch started.
    package var elapsed: Duration { read() }

    /// What is left of `limit` since the start, never negative.
    package func remaining(of limit: Duration) -> Duration { max(.zero, limit - elapsed) }
}
