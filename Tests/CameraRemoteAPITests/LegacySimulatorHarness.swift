import CameraRemoteAPI
import LegacyCameraSimulator

/// Runs `body` with a legacy simulator on 127.0.0.1 (port 0) and a client connected through its device
/// description, then closes both and waits for the server to end: nothing is left running.
@discardableResult
func withLegacySimulator<Result: Sendable>(
    _ configuration: LegacySimulatorConfiguration = LegacySimulatorConfiguration(),
    callTimeout: Duration = .seconds(10),
    _ body: @Sendable (LegacyCameraSimulator, CameraRemoteAPIClient) async throws -> Result
) async throws -> Result {
    let simulator = try LegacyCameraSimulator(configuration: configuration)
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
