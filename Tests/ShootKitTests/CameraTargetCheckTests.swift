import CameraSimulator
import SonyCamera
import TestSupport
import Testing

@testable import ShootKit

/// The idle check in the layer (`CameraTarget.check`, what `serve`'s Check camera asks): a real `SonyCamera`
/// reached through a front end's `CameraReach` against the simulated body on 127.0.0.1, connected and checked
/// as a shoot's preparation does, then let go.
@Suite(.realTime(timeLimit: .seconds(60))) struct CameraTargetCheckTests {
    /// The connect steps heard, in order (worded as CameraCheckTests words them).
    typealias Steps = CameraCheckTests.Steps

    /// Checks the simulated body of `adjust` at its loopback address; returns the check, the steps heard, whether
    /// a client still held the body afterwards, and a second check's model (a body admits one client at a time,
    /// so a second check answers only when the first let it go).
    static func checkTwice(
        _ adjust: (inout SimulatorConfiguration) -> Void = { _ in }
    ) async throws -> (check: CameraCheck, steps: [String], heldAfter: Bool, again: String) {
        let steps = Steps()
        return try await CameraSimulator.withRunning(configuration: .loopback(adjust)) { simulator in
            let target = CameraTarget.address(CameraAddress(host: "127.0.0.1", port: simulator.port))
            let check = try await target.check(reach: CameraTargetTests.QuietReach(), progress: steps.note)
            let held = !(try await eventually { await !simulator.isClientConnected })
            let again = try await target.check(reach: CameraTargetTests.QuietReach())
            return (check, steps.all, held, again.identity.model)
        }
    }

    @Test func theBodyIsReadAsAShootWouldReadItAndLetGo() async throws {
        let (check, steps, heldAfter, again) = try await Self.checkTwice()
        let model = check.identity.model
        #expect(!model.isEmpty)
        #expect(check.identity.address.hasPrefix("127.0.0.1:"))
        #expect(check.blockers.isEmpty)
        #expect(!check.offered.isEmpty)
        #expect(check.cameraUpdate.model == model)
        #expect(check.cameraUpdate.batteryPercent != nil)
        #expect(steps == ["connecting \(check.identity.address)", "connected \(model)"])
        #expect(!heldAfter, "the body was let go")
        #expect(again == model)
    }

    @Test func aBodyThatCannotShootSaysWhatBlocksItAndIsLetGoToo() async throws {
        let (check, _, heldAfter, again) = try await Self.checkTwice { $0.exposureMode = .aperturePriority }
        #expect(!check.blockers.isEmpty)
        #expect(check.blockers.allSatisfy { if case .camera = $0 { true } else { false } })
        #expect(!heldAfter)
        #expect(again == check.identity.model)
    }

    @Test func aCameraThatDoesNotAnswerThrowsItsConnectError() async throws {
        // A port nobody listens on, bound but not listening, so no parallel test is handed it meanwhile.
        let closedPort = try LoopbackSocket()
        defer { closedPort.close() }
        let steps = Steps()
        let target = CameraTarget.address(CameraAddress(host: "127.0.0.1", port: closedPort.port))
        // The test's reach has no retries: one attempt, refused, said as the connect's own error.
        await #expect {
            _ = try await target.check(reach: CameraTargetTests.QuietReach(), progress: steps.note)
        } throws: { error in
            guard case let .connectFailed(address, attempts, _) = error as? SonyCameraError else { return false }
            return address == "127.0.0.1:\(closedPort.port)" && attempts == 1
        }
        #expect(steps.all == ["connecting 127.0.0.1:\(closedPort.port)"])
    }

    @Test func theBuiltInSimulatorIsCheckedAndGoneAfterwards() async throws {
        let check = try await CameraTarget.simulator.check(reach: CameraTargetTests.QuietReach())
        #expect(check.identity.address == CameraTarget.simulatorAddress)
        #expect(!check.identity.model.isEmpty)
        #expect(check.blockers.isEmpty)
    }
}
