/// How often, and after which pauses, a transient (busy) camera error is retried.
package struct RetryPolicy: Sendable, Hashable {
    /// The total number of attempts, the first included (3 means up to two retries).
    package var maxAttempts: Int
    /// The pause before retry n (index n - 1); the last entry repeats when there are more retries.
    package var delays: [Duration]

    /// Creates a policy; `maxAttempts` is at least 1.
    package init(maxAttempts: Int, delays: [Duration]) {
        precondition(maxAttempts >= 1, "at least one attempt")
        self.maxAttempts = maxAttempts
        self.delays = delays
    }

    /// Three attempts, 0.5 s then 1 s apart: what a Sony body needs to finish writing a frame.
    package static let busy = RetryPolicy(maxAttempts: 3, delays: [.milliseconds(500), .seconds(1)])

    /// No retry at all.
    package static let none = RetryPolicy(maxAttempts: 1, delays: [])

    /// The pause before the given retry (1-based: retry 1 is the second attempt).
    package func delay(beforeRetry retry: Int) -> Duration {
        guard let last = delays.last else { return .zero }
        return retry - 1 < delays.count ? delays[max(retry - 1, 0)] : last
    }
}

/// How the runner reconnects after the camera connection drops mid-shoot.
package struct ReconnectPolicy: Sendable, Hashable {
    /// Pauses before successive attempts; the last one repeats until `timeout`.
    package var delays: [Duration]
    /// Give up when the next attempt would start later than this after the drop.
    package var timeout: Duration

    /// Creates a policy.
    package init(delays: [Duration], timeout: Duration) {
        self.delays = delays
        self.timeout = timeout
    }

    /// 2 s, 5 s, 10 s, then every 10 s, for up to 5 minutes (`--reconnect-timeout` overrides the 5 minutes).
    package static let standard = ReconnectPolicy(
        delays: [.seconds(2), .seconds(5), .seconds(10)], timeout: .seconds(300))

    /// The standard schedule with another overall timeout (`--reconnect-timeout`).
    package static func standard(timeout: Duration) -> ReconnectPolicy {
        ReconnectPolicy(delays: standard.delays, timeout: timeout)
    }

    /// Never reconnect: a drop stops the run at once (resumable).
    package static let disabled = ReconnectPolicy(delays: [], timeout: .zero)

    /// The pause before attempt n (1-based), or `nil` when there are no attempts at all.
    package func delay(beforeAttempt attempt: Int) -> Duration? {
        guard let last = delays.last else { return nil }
        return attempt - 1 < delays.count ? delays[max(attempt - 1, 0)] : last
    }
}
