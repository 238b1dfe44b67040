import CameraRemoteAPI
import Glibc
import Posix
import TestSupport
import Testing

/// Timeouts in virtual time: a camera that accepts and never answers is given up on exactly when the
/// injected clock says so, and a long poll gets its own, longer allowance.
@Suite struct ClientTimeoutTests {
    /// Runs `body` with a loopback listener that accepts connections and never answers on them.
    private func withSilentCamera(_ body: @Sendable (RemoteURL) async throws -> Void) async throws {
        let listener = try Socket(family: AF_INET)
        defer { listener.close() }
        try listener.listen(on: try #require(SocketAddress(numericHost: "127.0.0.1", port: 0)), backlog: 4)
        let port = try #require(try listener.localAddress()).port
        try await body(RemoteURL(host: "127.0.0.1", port: port, path: "/sony/camera"))
    }

    /// Returns once a sleeper with a deadline `offset` after the start waits on `clock` (the request's timer;
    /// the connect timer may register first).
    private static func waitForDeadline(_ offset: Duration, on clock: TestClock) async {
        while !clock.pendingDeadlines.contains(TestClock.Instant(offset: offset)) { await Task.yield() }
    }

    @Test(.timeLimit(.minutes(1)))
    func aCallToACameraThatNeverAnswersTimesOutOnTheInjectedClock() async throws {
        try await withSilentCamera { endpoint in
            let clock = TestClock()
            let client = try CameraRemoteAPIClient(endpoint: endpoint, clock: clock, callTimeout: .seconds(10))
            defer { client.close() }
            async let call: Void = { _ = try await client.getShutterSpeed() }()
            await Self.waitForDeadline(.seconds(10), on: clock)
            clock.advance(by: .seconds(10))
            do {
                try await call
                Issue.record("a silent camera should time out")
            } catch let error as CameraRemoteAPIError {
                #expect(error == .timedOut(address: "127.0.0.1:\(endpoint.port)", during: "POST /sony/camera"))
                #expect(error.isTransient)
                #expect(!error.isConnectionLost)
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aLongPollWaitsItsOwnLongerTimeBeforeGivingUp() async throws {
        try await withSilentCamera { endpoint in
            let clock = TestClock()
            let client = try CameraRemoteAPIClient(
                endpoint: endpoint, clock: clock, callTimeout: .seconds(10), longPollTimeout: .seconds(75))
            defer { client.close() }
            async let poll = client.getEvent(longPoll: true)
            // The call's deadline is the long poll's, not an ordinary call's.
            await Self.waitForDeadline(.seconds(75), on: clock)
            #expect(!clock.pendingDeadlines.contains(TestClock.Instant(offset: .seconds(10))))
            clock.advance(by: .seconds(74))
            #expect(clock.pendingDeadlines.contains(TestClock.Instant(offset: .seconds(75))))
            clock.advance(by: .seconds(1))
            do {
                _ = try await poll
                Issue.record("a silent camera's long poll should time out")
            } catch let error as CameraRemoteAPIError {
                #expect(error == .timedOut(address: "127.0.0.1:\(endpoint.port)", during: "POST /sony/camera"))
            }
        }
    }
}
