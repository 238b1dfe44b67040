import CameraSimulator
import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import Shooting
import SonyCamera
import Synchronization
import TestSupport
import Testing

@testable import ShootKit

/// The order of the steps before a shoot's first frame (`ShootController.prepare`), in-process against the
/// simulated body over loopback: connect and check, match, propose, ask, record, shoot; a refusal stops before
/// the journal.
@Suite(.realTime) struct ShootPreparationStepsTests {
    struct PlainMessages: ShootMessages {
        func message(for error: any Error) -> String { "\(error)" }
        func connectFailure(_ error: any Error) -> String { "no answer" }
    }

    /// The steps taken, in order.
    final class Steps: Sendable {
        private let taken = Mutex<[String]>([])
        func note(_ step: String) { taken.withLock { $0.append(step) } }
        var all: [String] { taken.withLock { $0 } }
    }

    static func summary() -> ShootUpdate.Summary {
        ShootUpdate.Summary(
            exposures: 3, blockers: [],
            camera: ShootUpdate.Camera(model: "ILCE-7RM4", address: "127.0.0.1", serialNumber: ""),
            output: "/nonexistent/shoot")
    }

    /// A start that notes each of its steps.
    struct NotingStart: ShootStart {
        let steps: Steps
        var blocker: ShootBlocker?

        func match(_ check: inout CameraCheck, messages: any ShootMessages) -> String {
            steps.note("match \(check.offered.isEmpty ? "no speeds" : "speeds")")
            if let blocker { check.blockers.append(blocker) }
            return "plan"
        }

        func proposal(of matched: String, check: CameraCheck) -> ShootUpdate.Summary? {
            var summary = ShootPreparationStepsTests.summary()
            summary.blockers = check.blockers
            return summary
        }

        func record(_ matched: String, camera: any CommandCamera, check: CameraCheck) -> (Int, JournalLock?) {
            steps.note("record \(matched)")
            return (7, nil)
        }
    }

    /// Prepares a shoot on a simulated body; `agree` is the front end's answer to the proposal.
    static func prepare(
        agree: Bool, steps: Steps, blocker: ShootBlocker? = nil
    ) async throws -> (Int, ShootController) {
        let controller = ShootController(messages: PlainMessages())
        await controller.connecting()
        let outcome = try await CameraSimulator.withRunning(configuration: SimulatorConfiguration.loopback()) {
            running in
            let camera = SonyCamera(
                configuration: SonyCameraConfiguration(
                    host: "127.0.0.1", port: running.port,
                    identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests")))
            return try await controller.prepare(
                NotingStart(steps: steps, blocker: blocker), camera: camera, address: "127.0.0.1",
                progress: { progress in
                    if case .connected = progress { steps.note("connected") }
                },
                connected: { steps.note("remembered") },
                present: { matched, _, proposal in
                    steps.note("present \(matched) \(proposal?.exposures ?? 0) \(controller.snapshot.state.rawValue)")
                },
                ask: { proposal in
                    steps.note("ask \(proposal?.exposures ?? 0)")
                    await controller.send(agree ? .confirm : .decline)
                },
                shoot: { recorded in
                    steps.note("shoot \(controller.snapshot.state.rawValue)")
                    return recorded * 6
                })
        }
        return (outcome, controller)
    }

    @Test func aConfirmedShootTakesEveryStepInOrder() async throws {
        let steps = Steps()
        let (outcome, controller) = try await Self.prepare(agree: true, steps: steps)
        #expect(outcome == 42)
        #expect(
            steps.all == [
                "connected", "remembered", "match speeds", "present plan 3 proposed", "ask 3", "record plan",
                "shoot shooting"
            ])
        #expect(controller.snapshot.summary == Self.summary())
    }

    @Test func aDeclinedShootStopsBeforeTheJournal() async throws {
        let steps = Steps()
        await #expect(throws: ShootPreparationError.declined) { _ = try await Self.prepare(agree: false, steps: steps) }
        #expect(steps.all == ["connected", "remembered", "match speeds", "present plan 3 proposed", "ask 3"])
    }

    @Test func aBlockedShootIsRefusedByTheControllerBeforeAnythingIsAsked() async throws {
        let steps = Steps()
        await #expect(throws: ShootPreparationError.blocked([.noShutterSpeeds])) {
            _ = try await Self.prepare(agree: true, steps: steps, blocker: .noShutterSpeeds)
        }
        #expect(steps.all == ["connected", "remembered", "match speeds", "present plan 3 proposed"])
    }
}
