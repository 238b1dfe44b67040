import Shooting
import Testing

/// The backoff schedules.
@Suite struct RetryPolicyTests {
    @Test func busyPolicyMakesThreeAttemptsHalfASecondThenOneSecondApart() {
        #expect(RetryPolicy.busy.maxAttempts == 3)
        #expect([1, 2, 3].map(RetryPolicy.busy.delay(beforeRetry:)) == [.milliseconds(500), .seconds(1), .seconds(1)])
    }

    @Test func reconnectScheduleIsTwoFiveTenThenEveryTenSeconds() {
        let policy = ReconnectPolicy.standard(timeout: .seconds(60))
        #expect(
            (1...5).map { policy.delay(beforeAttempt: $0) } == [
                .seconds(2), .seconds(5), .seconds(10), .seconds(10), .seconds(10)
            ])
        #expect(policy.timeout == .seconds(60))
        #expect(ReconnectPolicy.standard.timeout == .seconds(300))
        #expect(ReconnectPolicy.disabled.delay(beforeAttempt: 1) == nil)
    }
}
