/// Polls `condition` in real time until it holds or `timeout` passes; returns whether it held.
///
/// The one poll loop of the tests, for waits on things outside the test clock: a child process's output, a
/// file another process appends to, a real socket's state, the kernel's netlink events. The caller decides
/// what a timeout means (a recorded issue, a thrown error, or a result that says "never happened"). Anything
/// that runs on a `TestClock` waits for its sleepers instead of polling. The condition runs on the caller's actor.
package func eventually(
    timeout: Duration = TimingBounds.notAHang, every interval: Duration = .milliseconds(5),
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while try await !condition() {
        guard clock.now < deadline else { return false }
        try await clock.sleep(for: interval)
    }
    return true
}
