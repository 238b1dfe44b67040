import CameraRemoteAPI
import LegacyCameraSimulator
import TestSupport

/// Runs `body` with a legacy simulator on 127.0.0.1 (port 0) and a client connected through its device
/// description, then closes both and waits for the server to end: nothing is left running.
/// The body's time runs on `clock` (real time unless a test gives its own `TestClock`).
@discardableResult
func withLegacySimulator<Result: Sendable>(
    _ configuration: LegacySimulatorConfiguration = LegacySimulatorConfiguration(),
    callTimeout: Duration = .seconds(10), clock: any Clock<Duration> = ContinuousClock(),
    _ body: @Sendable (LegacyCameraSimulator, CameraRemoteAPIClient) async throws -> Result
) async throws -> Result {
    let simulator = try LegacyCameraSimulator(configuration: configuration, clock: clock)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await simulator.run() }
        defer { simulator.close() }
        let (connected, _) = try await CameraRemoteAPIClient.connect(descriptionURL: simulator.descriptionURL)
        let client = try CameraRemoteAPIClient(
            endpoint: connected.endpoint, callTimeout: callTimeout, longPollTimeout: .seconds(20),
            captureTimeout: .seconds(20))
        connected.close()
        defer { client.close() }
        return try await body(simulator, client)
    }
}

/// A configuration that needs no startRecMode and applies settings at once (for tests of one other quirk).
func plainConfiguration() -> LegacySimulatorConfiguration {
    var configuration = LegacySimulatorConfiguration()
    configuration.needsStartRecMode = false
    configuration.settingDelay = .zero
    configuration.saveDuration = .milliseconds(20)
    configuration.imageSize = 20_000
    return configuration
}

/// Runs `call` against a simulated body whose time runs on `clock`, moving that clock to each deadline the body
/// sleeps until (an exposure, its saving, a long poll's next look) while the call is under way, and returns
/// its answer. The body's time passes only while it waits for it, so nothing depends on the real clock.
func answered<T: Sendable>(
    on clock: TestClock, _ call: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await call() }
        group.addTask {
            // Ends when the call has answered (the group is cancelled then).
            while !Task.isCancelled {
                await clock.waitForSleepers(1)
                if !Task.isCancelled, let next = clock.pendingDeadlines.first { clock.advance(to: next) }
            }
            return nil
        }
        defer { group.cancelAll() }
        while let finished = try await group.next() {
            if let answer = finished { return answer }
        }
        throw CancellationError()
    }
}
