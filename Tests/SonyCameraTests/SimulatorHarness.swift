import CameraSimulator
import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import Shooting
import SonyCamera
import TestSupport
import Testing

/// Runs a simulated body on a free loopback port with a `SonyCamera` pointed at it, and stops both.
enum SimulatorHarness {
    /// A quick simulated body: small images, short processing and step delays.
    static func simulator(_ adjust: (inout SimulatorConfiguration) -> Void = { _ in }) -> SimulatorConfiguration {
        .loopback {
            $0.imageSize = 20_000
            adjust(&$0)
        }
    }

    /// A camera configuration for `port` with test-sized timeouts and busy pauses.
    static func camera(
        port: UInt16, host: String = "127.0.0.1", _ adjust: (inout SonyCameraConfiguration) -> Void = { _ in }
    )
        -> SonyCameraConfiguration
    {
        var configuration = SonyCameraConfiguration(
            host: host, port: port, identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests"))
        configuration.busyRetry = RetryPolicy(maxAttempts: 3, delays: [.milliseconds(10), .milliseconds(20)])
        configuration.connectBackoff = [.milliseconds(10), .milliseconds(20), .milliseconds(30)]
        configuration.operationTimeout = .seconds(30)
        configuration.connectTimeout = .seconds(30)
        configuration.shutterConfirmTimeout = .seconds(5)
        configuration.processingMargin = .seconds(10)
        configuration.transferTimeout = .seconds(10)
        adjust(&configuration)
        return configuration
    }

    /// Starts the simulator, connects a camera, runs `body`, then disconnects and stops the simulator.
    static func run<T: Sendable>(
        simulator adjustSimulator: (inout SimulatorConfiguration) -> Void = { _ in },
        camera adjustCamera: (inout SonyCameraConfiguration) -> Void = { _ in },
        clock: any Clock<Duration> = ContinuousClock(),
        simulatorClock: any Clock<Duration> = ContinuousClock(),
        connect: Bool = true,
        _ body: (SonyCamera, CameraSimulator) async throws -> T
    ) async throws -> T {
        try await CameraSimulator.withRunning(configuration: simulator(adjustSimulator), clock: simulatorClock) {
            simulator in
            let camera = SonyCamera(configuration: Self.camera(port: simulator.port, adjustCamera), clock: clock)
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

    /// The number of operations a connect takes against the default simulated body.
    static func operationsToConnect(_ adjust: (inout SimulatorConfiguration) -> Void = { _ in }) async throws -> Int {
        try await run(simulator: adjust) { _, simulator in await simulator.operationCount }
    }

    /// The index of the first operation named `name` (the simulator's count, as `.dropAtOperation` takes it) when
    /// a default body is connected and one 1/125 frame is shot and fetched (`shootOnceTheImageIsReady`).
    static func operationIndexWhileShooting(of name: String) async throws -> Int {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        try await run(simulator: { $0.operationLogPath = log.path }) { camera, simulator in
            _ = try await camera.shootOnceTheImageIsReady(
                exposure: ShutterSpeed(numerator: 1, denominator: 125),
                to: CaptureDestination(directory: folder.appendingPathComponent("images")), on: simulator)
        }
        let records = try SonyCameraCaptureTests.operations(in: log)
        return try #require(records.first { $0.name == name }).index
    }
}
