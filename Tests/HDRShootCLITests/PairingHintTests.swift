import Foundation
import ShootKit
import TestSupport
import Testing

@testable import HDRShootCLI

/// `HDRSHOOT_PAIRING_HINT`, the test hook for how long hdrshoot waits for a body's Init Command Ack before it
/// says to press OK on the pairing screen: parsed like the other waits, bounded, and a usage error otherwise.
@Suite("HDRSHOOT_PAIRING_HINT")
struct PairingHintTests {
    @Test(arguments: [("100ms", 100), ("0.2s", 200), ("2s", 2000), ("5", 5000)])
    func theVariableIsTheWait(text: String, milliseconds: Int64) throws {
        #expect(
            try CameraCommand.pairingHint(environment: [CameraCommand.pairingHintVariable: text])
                == .milliseconds(milliseconds))
    }

    @Test func unsetOrEmptyKeepsTheTwoSeconds() throws {
        #expect(try CameraCommand.pairingHint(environment: [:]) == nil)
        #expect(try CameraCommand.pairingHint(environment: [CameraCommand.pairingHintVariable: " "]) == nil)
        let identity = try TemporaryFolder(prefix: "hdrshoot-pairing-hint")
        defer { identity.remove() }
        let environment = ["XDG_CONFIG_HOME": identity.url.path]
        let address = try #require(CameraAddress(parsing: "127.0.0.1"))
        #expect(
            try CameraCommand.cameraConfiguration(for: address, environment: environment).pairingHint == .seconds(2))
        #expect(
            try CameraCommand.cameraConfiguration(
                for: address, environment: environment.merging([CameraCommand.pairingHintVariable: "150ms"]) { $1 }
            ).pairingHint == .milliseconds(150))
    }

    @Test(arguments: ["soon", "-1s", "0", "6s", "1s,2s"])
    func anythingElseIsAUsageErrorThatShowsTheForm(text: String) {
        #expect(throws: CameraCommandError.badPairingHint(text)) {
            try CameraCommand.pairingHint(environment: [CameraCommand.pairingHintVariable: text])
        }
        let report = ErrorReport(CameraCommandError.badPairingHint(text))
        #expect(report.exitCode == .usage)
        #expect(
            report.message
                == "HDRSHOOT_PAIRING_HINT='\(text)' is not a wait before the pairing screen is said (a test hook); "
                + "write it like 100ms or 2s (at most 5s), or unset it")
    }

    @Test(.realTime) func theBinaryRefusesABadHintWithOneLineExit64() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-pairing-hint")
        defer { folder.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.url.path
        environment[CameraCommand.pairingHintVariable] = "soon"
        // Port 9 on loopback: nothing is reached, the variable is refused before any connection.
        let result = try await ProcessRunner.run(
            try ProcessRunner.hdrshootBinary(), arguments: ["camera", "--camera", "127.0.0.1:9"],
            environment: environment, timeout: .seconds(60))
        #expect(result.exitCode == 64, "\(result)")
        #expect(
            result.errorLines.first.map(String.init)
                == "error: HDRSHOOT_PAIRING_HINT='soon' is not a wait before the pairing screen is said (a test hook); "
                + "write it like 100ms or 2s (at most 5s), or unset it", "\(result.standardError)")
        #expect(!result.standardOutput.contains("Connecting"), "\(result.standardOutput)")
    }
}
