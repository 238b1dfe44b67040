import CameraRemoteAPI
import Foundation
import LegacyCamera
import LegacyCameraSimulator
import Shooting
import TestSupport

/// Runs a simulated legacy body on a free loopback port with a `LegacySonyCamera` pointed at it (through its
/// device description), and stops both: nothing is left running.
enum LegacyHarness {
    /// A quick simulated body: small images, short saving, the quirks as configured by default (startRecMode
    /// needed, sets applying late: after the read-back that follows the set at once, before the camera's first
    /// look 20 ms later).
    static func simulator(
        _ adjust: (inout LegacySimulatorConfiguration) -> Void = { _ in }
    )
        -> LegacySimulatorConfiguration
    {
        var configuration = LegacySimulatorConfiguration()
        configuration.imageSize = 20_000
        configuration.saveDuration = .milliseconds(20)
        configuration.settingDelay = .milliseconds(10)
        configuration.recModeDelay = .milliseconds(10)
        adjust(&configuration)
        return configuration
    }

    /// A camera configuration for `simulator` with test-sized timeouts.
    static func camera(
        for simulator: LegacyCameraSimulator, _ adjust: (inout LegacySonyCameraConfiguration) -> Void = { _ in }
    ) throws -> LegacySonyCameraConfiguration {
        var configuration = try LegacySonyCameraConfiguration(url: simulator.descriptionURL)
        configuration.connectBackoff = [.milliseconds(10), .milliseconds(20)]
        configuration.setRetry = RetryPolicy(maxAttempts: 10, delays: [.milliseconds(5), .milliseconds(10)])
        configuration.processingMargin = .seconds(10)
        configuration.recModeTimeout = .seconds(5)
        adjust(&configuration)
        return configuration
    }

    /// Starts the simulator, connects a camera, runs `body`, then disconnects and stops the simulator.
    @discardableResult
    static func run<T: Sendable>(
        simulator adjustSimulator: (inout LegacySimulatorConfiguration) -> Void = { _ in },
        camera adjustCamera: (inout LegacySonyCameraConfiguration) -> Void = { _ in },
        connect: Bool = true,
        _ body: (LegacySonyCamera, LegacyCameraSimulator) async throws -> T
    ) async throws -> T {
        try await LegacyCameraSimulator.withRunning(configuration: simulator(adjustSimulator)) { simulator in
            let camera = LegacySonyCamera(configuration: try Self.camera(for: simulator, adjustCamera))
            do {
                if connect { try await camera.connect() }
                let result = try await body(camera, simulator)
                await camera.disconnect()
                return result
            } catch {
                await camera.disconnect()
                throw error
            }
        }
    }
}

/// Counts calls of a release hook (a `beforeRelease` that records it ran).
final class HookCounter: Sendable {
    private let count = LockedLog<Int>()

    /// The hook: records a call, then throws `error` when one is given.
    func hook(throwing error: (any Error & Sendable)? = nil) -> @Sendable () async throws -> Void {
        { [count] in
            count.append(1)
            if let error { throw error }
        }
    }

    /// How many times the hook ran.
    var calls: Int { count.all.count }
}

/// An error a test's hook throws.
struct HookFailure: Error, Equatable {}
