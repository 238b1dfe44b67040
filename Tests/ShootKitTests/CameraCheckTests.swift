import CameraSimulator
import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import SonyCamera
import Synchronization
import TestSupport
import Testing

@testable import ShootKit

/// The layer's connect and check, in-process: a real `SonyCamera` against the simulated body over loopback, the
/// connect steps as typed progress, the check's capabilities and blockers, and the transfer set-up as a typed value.
@Suite(.realTime) struct CameraCheckTests {
    /// Collects the connect steps, worded only as far as a test needs.
    final class Steps: Sendable {
        private let seen = Mutex<[String]>([])
        /// Notes one step.
        func note(_ step: ConnectProgress) {
            let text =
                switch step {
                case .connecting(let address): "connecting \(address)"
                case .retrying(let retry): "retrying \(retry.failedAttempt) of \(retry.maximumAttempts)"
                case .connected(let model): "connected \(model)"
                case let .shutterLimits(slowest, fastest, remembered):
                    "limits \(slowest.label) to \(fastest.label)\(remembered ? " remembered" : "")"
                }
            seen.withLock { $0.append(text) }
        }
        /// The steps so far.
        var all: [String] { seen.withLock { $0 } }
    }

    /// Connects to a simulator set up by `adjust`, runs `body` with the camera and its check, disconnects.
    static func withChecked<T: Sendable>(
        _ adjust: (inout SimulatorConfiguration) -> Void = { _ in }, steps: Steps = Steps(),
        camera adjustCamera: (inout SonyCameraConfiguration) -> Void = { _ in },
        _ body: (SonyCamera, CameraCheck) async throws -> T
    ) async throws -> T {
        var simulator = SimulatorConfiguration()
        simulator.port = 0
        adjust(&simulator)
        return try await CameraSimulator.withRunning(configuration: simulator) { running in
            var configuration = SonyCameraConfiguration(
                host: "127.0.0.1", port: running.port,
                identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests"))
            adjustCamera(&configuration)
            let camera = SonyCamera(configuration: configuration)
            do {
                let check = try await CameraCheck.connect(camera, address: "simulated", progress: steps.note)
                let result = try await body(camera, check)
                await camera.disconnect()
                return result
            } catch {
                await camera.disconnect()
                throw error
            }
        }
    }

    @Test func connectSaysItsStepsInTypesAndReturnsWhatTheBodyCanDo() async throws {
        let steps = Steps()
        let check = try await Self.withChecked(steps: steps) { _, check in check }
        #expect(steps.all == ["connecting simulated", "connected \(check.identity.model)"])
        #expect(!check.identity.model.isEmpty)
        #expect(check.identity.address == "simulated")
        #expect(check.cameraUpdate.address == "simulated")
        #expect(check.capabilities.remoteProtocol == .ptpip)
        #expect(check.capabilities.saveDestination == .computer)
        #expect(check.blockers.isEmpty)
        #expect(!check.offered.isEmpty)
    }

    @Test func aBodyListingNoShutterSpeedsSaysItsRealEndsAsAConnectStepAndOffersOnlyThose() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-check-limits").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // An ILCE-6000-like body: a display-only 0xD20D range, 1/4000 at most.
        let adjust: (inout SimulatorConfiguration) -> Void = {
            $0.protocolVersion = 200
            $0.fastestShutterDenominator = 4000
            $0.quirks = [.shutterRange(listInD229: false)]
            // Each notch applied 20 ms after it is asked for (the loopback body's, not the default 200 ms): the
            // probe steps to both ends one notch at a time, and every step is still confirmed before the next.
            $0.stepDelay = .milliseconds(20)
        }
        let body: (inout SonyCameraConfiguration) -> Void = {
            $0.stepConfirmTimeout = .milliseconds(300)
            $0.bodyRecordDirectory = folder
        }
        let steps = Steps()
        let check = try await Self.withChecked(adjust, steps: steps, camera: body) { _, check in check }
        #expect(steps.all.contains("limits 30\" to 1/4000"), "\(steps.all)")
        #expect(!check.offered.contains(ShutterSpeed(numerator: 1, denominator: 8000)))
        #expect(check.offered.contains(ShutterSpeed(numerator: 1, denominator: 4000)))
        // The second connect of the same body recalls the ends instead of stepping.
        let again = Steps()
        _ = try await Self.withChecked(adjust, steps: again, camera: body) { _, check in check }
        #expect(again.all.contains("limits 30\" to 1/4000 remembered"), "\(again.all)")
    }

    @Test func aBodySendingItsImagesDownloadsThemAndRefusesTransferNone() async throws {
        try await Self.withChecked { camera, _ in
            let setup = try await camera.prepareTransfer(choice: .all)
            #expect(setup == TransferSetup(downloads: true))
            await #expect(throws: ShootPreparationError.transferNeedsCameraOnly) {
                try await camera.prepareTransfer(choice: .none)
            }
        }
    }

    @Test func aBodyKeepingItsImagesIsBlockedAndShotWithoutDownloadsWithItsNote() async throws {
        try await Self.withChecked({ $0.saveDestination = .camera }) { camera, check in
            #expect(check.capabilities.saveDestination == .camera)
            #expect(check.blockers.count == 1)
            let setup = try await camera.prepareTransfer(choice: .all)
            #expect(setup == TransferSetup(downloads: false, note: .cameraOnly))
            #expect(setup.note?.sentence.hasPrefix("The camera saves to its card only") == true)
        }
    }

    @Test func aSummarysBlockersCrossJSONInTypesWithTheirSentences() throws {
        var summary = ShootUpdate.Summary(
            exposures: 5,
            blockers: [
                .bulbFramesNeedManualMode(frames: ["40\""]), .speedNotOffered(speed: "1/8000", position: nil),
                .camera("the mode dial is on A"), .noShutterSpeeds, .meteringUnavailable, .unplannable("too wide")
            ],
            camera: ShootUpdate.Camera(model: "ILCE-7M4", address: "simulator", serialNumber: ""), output: "/out")
        summary.sets = 1
        let data = try JSONEncoder().encode(ShootUpdate.summary(summary))
        let decoded = try JSONDecoder().decode(ShootUpdate.self, from: data)
        #expect(decoded == .summary(summary))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let blockers = try #require(object["blockers"] as? [[String: Any]])
        #expect(blockers.first?["kind"] as? String == "bulbFramesNeedManualMode")
        #expect(
            blockers.first?["sentence"] as? String == ShootBlocker.bulbFramesNeedManualMode(frames: ["40\""]).sentence)
        #expect(blockers.first?["frames"] as? [String] == ["40\""])
        #expect(blockers[1]["position"] == nil)
    }
}
