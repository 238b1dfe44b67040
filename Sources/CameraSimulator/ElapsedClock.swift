/// Time since the simulator started, read from any `Clock<Duration>` (a test clock or the real one).
struct ElapsedClock: Sendable {
    /// The time elapsed since creation.
    let now: @Sendable () -> Duration
    /// Sleeps for a duration on the underlying clock.
    let sleep: @Sendable (Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
    }
}
