import CameraSimulator
import Exposure
import Foundation
import LegacyCamera
import LegacyCameraSimulator
import ShootKit
import SonyCamera
import TestSupport
import Testing

@testable import HDRShootCLI

/// The one capabilities value connect returns, and the typed blockers with the layer's sentences: read from the
/// real simulators of both protocols over loopback.
@Suite("Typed camera capabilities and blockers from connect")
struct CameraCapabilitiesTests {
    /// Connects a PTP/IP body to a simulator configured by `adjust` and returns the check.
    static func ptpipCheck(_ adjust: (inout SimulatorConfiguration) -> Void = { _ in }) async throws -> CameraCheck {
        var configuration = SimulatorConfiguration()
        configuration.port = 0
        adjust(&configuration)
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("hdrshoot-caps-\(UUID())")
        defer { try? FileManager.default.removeItem(at: config) }
        return try await CameraSimulator.withRunning(configuration: configuration) { simulator in
            let camera = SonyCamera(
                configuration: try CameraCommand.cameraConfiguration(
                    for: CameraAddress(host: "127.0.0.1", port: simulator.port),
                    environment: ["XDG_CONFIG_HOME": config.path]))
            do {
                let check = try await CameraCheck.connect(camera, address: "127.0.0.1:\(simulator.port)")
                await camera.disconnect()
                return check
            } catch {
                await camera.disconnect()
                throw error
            }
        }
    }

    @Test func aPTPIPBodySavingToTheComputerCanMeterAndShoot() async throws {
        let check = try await Self.ptpipCheck()
        let capabilities = check.capabilities
        #expect(capabilities.remoteProtocol == .ptpip)
        #expect(capabilities.metering)
        #expect(capabilities.saveDestination == .computer)
        #expect(capabilities.protocolVersion?.isEmpty == false)
        #expect(capabilities.bufferCapacity == nil)
        #expect(check.blockers.isEmpty)
        // The value is Codable (the phone remote and `--json` can carry it) and survives a round trip.
        let decoded = try JSONDecoder().decode(CameraCapabilities.self, from: JSONEncoder().encode(capabilities))
        #expect(decoded == capabilities)
    }

    @Test func aBodySavingToItsCardOnlyIsBlockedInTypesWithTodaysSentence() async throws {
        let check = try await Self.ptpipCheck { $0.saveDestination = .camera }
        #expect(check.capabilities.saveDestination == .camera)
        #expect(
            check.blockers == [
                .camera(
                    "images are saved to the memory card only; set the still image save destination to include the PC"
                )
            ])
        #expect(check.blockerSentences == check.blockers.map(\.sentence))
    }

    @Test func aCameraRemoteAPIBodyReportsOneFrameOfBufferAndNoMeterAndMeteringItIsRefused() async throws {
        try await LegacyCameraSimulator.withRunning(configuration: LegacySimulatorConfiguration()) { simulator in
            var configuration = try LegacySonyCameraConfiguration(url: simulator.descriptionURL)
            configuration.connectBackoff = [.milliseconds(10)]
            let camera = LegacySonyCamera(configuration: configuration)
            do {
                let check = try await CameraCheck.connect(camera, address: simulator.descriptionURL)
                #expect(check.capabilities.remoteProtocol == .cameraRemoteAPI)
                #expect(!check.capabilities.metering)
                #expect(check.capabilities.bufferCapacity == 1)
                #expect(check.capabilities.saveDestination == .computerAndCamera)
                #expect(check.capabilities.longExposureNR == nil)
                let probes = FileManager.default.temporaryDirectory.appendingPathComponent("hdrshoot-probes-\(UUID())")
                defer { try? FileManager.default.removeItem(at: probes) }
                await #expect {
                    _ = try await AutoMetering.measure(camera, check: check, probes: probes, say: { _ in })
                } throws: { error in
                    ErrorReport(error).message
                        == "the camera cannot shoot now: --auto and meter measure over PTP/IP; this body speaks the "
                        + "Camera Remote API, so give --shadow and --highlight"
                }
                // Nothing was fired or saved.
                #expect(!FileManager.default.fileExists(atPath: probes.path))
                await camera.disconnect()
            } catch {
                await camera.disconnect()
                throw error
            }
        }
    }

    @Test func theBlockersSentencesAreTheOnesUsersReadToday() throws {
        let minutes = ShutterSpeed(numerator: 240, denominator: 1)
        let plan = BracketPlan(sets: [[minutes]])
        let bulb = try #require(ShootBlocker.bulbFrames(of: plan, settings: []))
        #expect(bulb == .bulbFramesNeedManualMode(frames: [minutes.label]))
        #expect(bulb.sentence == "the plan has bulb frames (\(minutes.label)); turn the mode dial to M")
        #expect(ShootBlocker.bulbFrames(of: plan, settings: [.bulb]) == nil)
        #expect(
            ShootBlocker.speedNotOffered(speed: "1/8000", position: "set 2, frame 3").sentence
                == "the camera no longer offers 1/8000, needed by set 2, frame 3")
        #expect(ShootBlocker.noShutterSpeeds.sentence == "the camera offers no shutter speeds now")
        let all: [ShootBlocker] = [
            .camera("x"), .noShutterSpeeds, bulb, .speedNotOffered(speed: "1", position: nil), .meteringUnavailable,
            .unplannable("y")
        ]
        #expect(try JSONDecoder().decode([ShootBlocker].self, from: JSONEncoder().encode(all)) == all)
    }
}
