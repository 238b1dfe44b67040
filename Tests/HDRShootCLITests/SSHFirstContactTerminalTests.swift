import Foundation
import Glibc
import TestSupport
import Testing

/// The first contact with a camera's SSH server on a real pseudo-terminal (util-linux `script`), through a real
/// sshd set up like the camera: the fingerprint is shown and asked about before any password is sent.
@Suite(
    "SSH first contact on a terminal (built binary, real sshd, pseudo-terminal)", .realTime, .serialized,
    .enabled(if: CameraSSHServer.available, Comment(rawValue: CameraSSHServer.skipReason)),
    .enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
struct SSHFirstContactTerminalTests {
    /// The question hdrshoot asks on first contact, after the fingerprint.
    static let question = "Is it the same? [y/N]"

    /// Runs `hdrshoot <arguments>` on a pseudo-terminal with the rig's environment; `body` may type keys.
    static func onTerminal<T>(
        _ rig: SSHTunnelBinaryTests.Rig, _ arguments: [String], _ body: (BackgroundProcess) async throws -> T
    ) async throws -> T {
        let shell = "stty cols 100 rows 24; exec \(try EndToEndTerminalTests.shellLine(arguments))"
        var environment = rig.scene.environment(forwardPort: rig.simulator.port)
        environment["PWD"] = rig.scene.shoots.path
        return try await BackgroundProcess.with(
            try #require(TestHost.script), arguments: ["-qefc", shell, "/dev/null"], environment: environment,
            typing: true, body)
    }

    @Test func aConfirmedFirstContactShootsFifteenOfFifteenAndThenAgainPinned() async throws {
        try await SSHTunnelBinaryTests.withRig { rig in
            let first = SSHTunnelBinaryTests.shoot(port: rig.server.port, scene: rig.scene)
            let (status, output) = try await Self.onTerminal(rig, first) { run in
                try await EndToEndTerminalTests.waitForOutput(run, containing: Self.question)
                // Nothing was sent to the camera's login before the answer.
                #expect(rig.server.passwordAttempts == 0)
                run.type("y\n")
                return (await run.waitForExit(timeout: .seconds(120)), run.standardOutput)
            }
            #expect(status == 0, "\(output)")
            #expect(output.contains("The camera at 127.0.0.1 is new to hdrshoot."), "\(output)")
            #expect(output.contains(rig.fingerprint), "\(output)")
            #expect(output.contains("Complete: 15 of 15 exposures saved"), "\(output)")
            #expect(FileManager.default.fileExists(atPath: rig.scene.knownHosts))

            // Again with the key pinned: no question.
            let pinned = first + ["--ssh-fingerprint", rig.fingerprint]
            let (again, againOutput) = try await Self.onTerminal(rig, pinned) { run in
                (await run.waitForExit(timeout: .seconds(120)), run.standardOutput)
            }
            #expect(again == 0, "\(againOutput)")
            #expect(!againOutput.contains(Self.question), "\(againOutput)")
            #expect(againOutput.contains("Complete: 15 of 15 exposures saved"), "\(againOutput)")
            #expect(await rig.simulator.captures.count == 30)
            #expect(rig.server.passwordAttempts == 2)
            #expect(rig.scene.sshProcesses.isEmpty)
        }
    }

    @Test func aFirstContactAnsweredNoSendsNoPasswordAndKeepsNoKey() async throws {
        try await SSHTunnelBinaryTests.withRig { rig in
            let arguments = SSHTunnelBinaryTests.shoot(port: rig.server.port, scene: rig.scene)
            let (status, output) = try await Self.onTerminal(rig, arguments) { run in
                try await EndToEndTerminalTests.waitForOutput(run, containing: Self.question)
                run.type("n\n")
                return (await run.waitForExit(timeout: .seconds(60)), run.standardOutput)
            }
            #expect(status == 69, "\(output)")
            #expect(
                output.contains("error: the camera's key \(rig.fingerprint) was not confirmed; nothing was sent"),
                "\(output)")
            #expect(rig.server.passwordAttempts == 0)
            #expect(await rig.simulator.captures.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: rig.scene.knownHosts))
            #expect(rig.scene.sshProcesses.isEmpty)
        }
    }
}
