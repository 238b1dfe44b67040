import CameraSimulator
import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import Shooting
import SonyCamera
import TestSupport
import Testing

@testable import ShootKit

/// `--auto`'s probing in-process, as the application layer runs it: a real `SonyCamera` against the simulated
/// body on loopback, checked by `CameraCheck`, probes saved in a real folder.
@Suite(.realTime) struct AutoMeteringTests {
    @Test func theSimulatedSunsetIsMeteredWithProbesSavedAndListedForTheManifest() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let outcome = try await Self.meterTheSimulatedSunset(probes: folder.url.appendingPathComponent("probes"))
        #expect(!outcome.result.probes.isEmpty && outcome.result.probes.count <= 8)
        #expect(outcome.files.count == outcome.result.probes.count)
        #expect(outcome.files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        // The highlight reading is the shorter one (or both the same, for a flat scene).
        #expect(outcome.readings.highlight <= outcome.readings.shadow)
        let records = outcome.records(relativeTo: folder.url.path)
        #expect(records.count == outcome.files.count)
        #expect(records.allSatisfy { $0.file.hasPrefix("probes/") }, "\(records.map(\.file))")
    }

    /// `--auto`'s probing of the simulated sunset on loopback: a real `SonyCamera` checked by `CameraCheck`, its
    /// probes saved in `probes`; the camera is let go after.
    static func meterTheSimulatedSunset(probes: URL) async throws -> AutoMetering.Outcome {
        var simulator = SimulatorConfiguration.loopback()
        simulator.scene = .sunset
        return try await CameraSimulator.withRunning(configuration: simulator) { body in
            let camera = SonyCamera(
                configuration: SonyCameraConfiguration(
                    host: "127.0.0.1", port: body.port,
                    identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests")))
            let check = try await CameraCheck.connect(camera, address: "127.0.0.1:\(body.port)")
            let outcome = try await AutoMetering.measure(camera, check: check, probes: probes, say: { _ in })
            await camera.disconnect()
            return outcome
        }
    }
}
