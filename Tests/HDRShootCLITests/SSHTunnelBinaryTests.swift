import CameraSimulator
import Foundation
import TestSupport
import Testing

/// PTP/IP over SSH, end to end: the built binary, a real OpenSSH server set up like a body with Access
/// Authentication on (`CameraSSHServer`), and the simulated body behind it on loopback.
@Suite(
    "PTP/IP over SSH (built binary, real sshd)", .realTime,
    .enabled(if: CameraSSHServer.available, Comment(rawValue: CameraSSHServer.skipReason)))
struct SSHTunnelBinaryTests {
    static let user = "root"
    static let password = "camera-pass 1"

    /// A folder for one test: the server's files, hdrshoot's state and config, the password file, the shoots.
    struct Scene {
        let root: URL
        var server: URL { root.appendingPathComponent("server") }
        var state: URL { root.appendingPathComponent("state") }
        var knownHosts: String { state.appendingPathComponent("hdrshoot/known_hosts").path }
        var passwordFile: String { root.appendingPathComponent("password").path }
        var shoots: URL { root.appendingPathComponent("shoots") }
        var operationLog: String { root.appendingPathComponent("operations.jsonl").path }

        init() throws {
            root = try TemporaryFolder(prefix: "hdrshoot-ssh").url
            for folder in [server, state, shoots, root.appendingPathComponent("config")] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
        }

        /// Writes `password` to the password file with `mode`.
        func writePassword(_ password: String, mode: mode_t = 0o600) throws {
            try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))
            chmod(passwordFile, mode)
        }

        func environment(forwardPort: UInt16) -> [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_STATE_HOME"] = state.path
            environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
            environment["HDRSHOOT_SSH_FORWARD_PORT"] = String(forwardPort)
            environment["HDRSHOOT_CONNECT_BACKOFF"] = "1s,1s,2s,2s"
            return environment
        }

        /// The ssh processes this test's hdrshoot started (found by the known-hosts path in their arguments).
        var sshProcesses: [Int32] {
            ProcessTable.pids(withCommandLineContaining: "UserKnownHostsFile=\(knownHosts)").filter {
                (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8))?.hasPrefix("ssh") == true
            }
        }
    }

    static func body() -> SimulatorConfiguration {
        .loopback {
            $0.exposureCap = .milliseconds(20)
            $0.imageSize = 4000
        }
    }

    static func run(
        _ arguments: [String], scene: Scene, forwardPort: UInt16, timeout: Duration = .seconds(120)
    ) async throws -> ProcessResult {
        try await ProcessRunner.run(
            try ProcessRunner.hdrshootBinary(), arguments: arguments,
            environment: scene.environment(forwardPort: forwardPort), currentDirectory: scene.shoots,
            timeout: timeout)
    }

    static func shoot(port: UInt16, scene: Scene, extra: [String] = []) -> [String] {
        [
            "run", "--shadow", "1/4", "--highlight", "1/1000", "--frames", "5", "--confirm", "--no-network-monitor",
            "--camera", "127.0.0.1:\(port)", "--ssh", "--ssh-user", user, "--ssh-password-file", scene.passwordFile
        ] + extra
    }

    /// What one test runs against: its scene, the simulated body, the camera-like sshd in front of it, and the
    /// `SHA256:` fingerprint of that server's host key.
    struct Rig {
        let scene: Scene
        let simulator: CameraSimulator
        let server: CameraSSHServer
        let fingerprint: String

        /// The simulated body's operation log so far (one JSON object a line).
        var operations: String {
            (try? String(contentsOfFile: scene.operationLog, encoding: .utf8)) ?? ""
        }
    }

    /// Makes a scene whose password file holds `passwordFile` with `mode`, starts the simulated body with
    /// `configuration` (its operation log in the scene) and a camera-like sshd (password `password`) forwarding
    /// to it, runs `test`, then stops both and removes the scene.
    static func withRig<T: Sendable>(
        passwordFile: String = password, mode: mode_t = 0o600, configuration: SimulatorConfiguration = body(),
        _ test: (Rig) async throws -> T
    ) async throws -> T {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        try scene.writePassword(passwordFile, mode: mode)
        var configuration = configuration
        configuration.operationLogPath = scene.operationLog
        return try await CameraSimulator.withRunning(configuration: configuration) { simulator in
            try await CameraSSHServer.with(folder: scene.server, password: password, forwardPort: simulator.port) {
                server in
                let fingerprint = try await CameraSSHServer.fingerprint(
                    ofKey: scene.server.appendingPathComponent("host_ecdsa").path)
                return try await test(
                    Rig(scene: scene, simulator: simulator, server: server, fingerprint: fingerprint))
            }
        }
    }

    @Test func aFirstContactWithoutATerminalNamesTheFingerprintAndSendsNoPassword() async throws {
        try await Self.withRig { rig in
            let result = try await Self.run(
                [
                    "camera", "--camera", "127.0.0.1:\(rig.server.port)", "--ssh", "--ssh-user", Self.user,
                    "--ssh-password-file", rig.scene.passwordFile
                ],
                scene: rig.scene, forwardPort: rig.simulator.port)
            #expect(result.exitCode == 69, "\(result)")
            #expect(result.errorLines.count == 1, "\(result.standardError)")
            #expect(result.standardError.contains("is new to hdrshoot: its key is \(rig.fingerprint)"))
            #expect(result.standardError.contains("--ssh-fingerprint \(rig.fingerprint)"))
            #expect(rig.server.passwordAttempts == 0)
            #expect(!FileManager.default.fileExists(atPath: rig.scene.knownHosts))
        }
    }

    @Test func aBracketRunsThroughTheTunnelPinnedAndThenWithTheKeptKey() async throws {
        try await Self.withRig { rig in
            let pinned = try await Self.run(
                Self.shoot(port: rig.server.port, scene: rig.scene, extra: ["--ssh-fingerprint", rig.fingerprint]),
                scene: rig.scene, forwardPort: rig.simulator.port)
            #expect(pinned.exitCode == 0, "\(pinned)")
            #expect(pinned.standardOutput.contains("Complete: 15 of 15 exposures saved"))
            #expect(pinned.standardOutput.contains("at ssh://\(Self.user)@127.0.0.1:\(rig.server.port)"))
            let mode = try FileManager.default.attributesOfItem(atPath: rig.scene.knownHosts)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(rig.scene.sshProcesses.isEmpty)
            // Again, without the pin: the key kept on first contact is the one checked.
            let kept = try await Self.run(
                Self.shoot(port: rig.server.port, scene: rig.scene), scene: rig.scene, forwardPort: rig.simulator.port)
            #expect(kept.exitCode == 0, "\(kept)")
            #expect(kept.standardOutput.contains("Complete: 15 of 15 exposures saved"))
            #expect(await rig.simulator.captures.count == 30)
            #expect(rig.server.passwordAttempts == 2)
            #expect(rig.server.log.contains("Accepted keyboard-interactive/pam for \(Self.user)"))
            #expect(rig.scene.sshProcesses.isEmpty)
        }
    }

    /// `meter` and `run --auto` without `--camera` reach the remembered camera behind SSH through the one chooser
    /// (`ChosenCamera`), with the SSH options applied: without them the first contact (no fingerprint, no
    /// terminal) and the login (no password file) would be refused. `meter` meters the camera `run` shoots.
    @Test func meterAndRunAutoReachARememberedCameraBehindSSHWithTheOptionsApplied() async throws {
        var configuration = Self.body()
        configuration.scene = .interiorWindow
        try await Self.withRig(configuration: configuration) { rig in
            let remembered = rig.scene.root.appendingPathComponent("config/hdrshoot/last-camera")
            try FileManager.default.createDirectory(
                at: remembered.deletingLastPathComponent(), withIntermediateDirectories: true)
            let stored = "ssh://\(Self.user)@127.0.0.1:\(rig.server.port)"
            try Data((stored + "\n").utf8).write(to: remembered)
            let metered = try await Self.run(
                [
                    "meter", "--ssh-password-file", rig.scene.passwordFile, "--ssh-fingerprint", rig.fingerprint,
                    "--output", rig.scene.shoots.appendingPathComponent("metered").path
                ],
                scene: rig.scene, forwardPort: rig.simulator.port)
            #expect(metered.exitCode == 0, "\(metered)")
            #expect(metered.standardOutput.contains("Readings: --highlight "), "\(metered.standardOutput)")
            #expect(rig.server.passwordAttempts == 1)
            let probes = await rig.simulator.captures.count
            #expect((1...8).contains(probes))
            #expect(rig.scene.sshProcesses.isEmpty)
            // The key is kept now; the password file is still needed, for the metering and for the shoot.
            let shot = try await Self.run(
                [
                    "run", "--auto", "--frames", "3", "--ev", "2", "--confirm", "--no-network-monitor",
                    "--ssh-password-file", rig.scene.passwordFile,
                    "--output", rig.scene.shoots.appendingPathComponent("auto").path
                ],
                scene: rig.scene, forwardPort: rig.simulator.port)
            #expect(shot.exitCode == 0, "\(shot)")
            #expect(shot.standardOutput.contains("--auto: highlight "), "\(shot.standardOutput)")
            #expect(shot.standardOutput.contains("at \(stored)"), "\(shot.standardOutput)")
            #expect(shot.standardOutput.contains("Complete: "), "\(shot.standardOutput)")
            #expect(rig.server.passwordAttempts == 3, "the metering's login and the shoot's")
            #expect(try String(contentsOf: remembered, encoding: .utf8).contains(stored))
            #expect(rig.scene.sshProcesses.isEmpty)
        }
    }

    @Test func aChangedHostKeyIsRefusedWithOneLineAndNoPassword() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.root) }
        try scene.writePassword(Self.password)
        try await CameraSimulator.withRunning(configuration: Self.body()) { simulator in
            let camera = { (port: UInt16, extra: [String]) in
                [
                    "camera", "--camera", "127.0.0.1:\(port)", "--ssh", "--ssh-user", Self.user,
                    "--ssh-password-file", scene.passwordFile
                ] + extra
            }
            let first = try await CameraSSHServer.fingerprint(
                ofKey: try await CameraSSHServer.makeHostKey(in: scene.server, name: "host_ecdsa"))
            let port = try await CameraSSHServer.with(
                folder: scene.server, password: Self.password, forwardPort: simulator.port
            ) { server in
                let result = try await Self.run(
                    camera(server.port, ["--ssh-fingerprint", first]), scene: scene, forwardPort: simulator.port)
                #expect(result.exitCode == 0, "\(result)")
                return server.port
            }
            _ = port
            // The body's Access Authentication was reset: a new key at the same address.
            try await CameraSSHServer.with(
                folder: scene.server, hostKey: "host_ecdsa_new", password: Self.password, forwardPort: simulator.port
            ) { server in
                let second = try await CameraSSHServer.fingerprint(
                    ofKey: scene.server.appendingPathComponent("host_ecdsa_new").path)
                // The known-hosts line names the port: keep it under the new server's port too.
                let kept = try String(contentsOfFile: scene.knownHosts, encoding: .utf8)
                let moved = kept.replacingOccurrences(of: "]:\(port) ", with: "]:\(server.port) ")
                try moved.write(toFile: scene.knownHosts, atomically: true, encoding: .utf8)
                let result = try await Self.run(camera(server.port, []), scene: scene, forwardPort: simulator.port)
                #expect(result.exitCode == 69, "\(result)")
                #expect(result.errorLines.count == 1, "\(result.standardError)")
                #expect(result.standardError.contains("shows another key (\(second)) than the one kept (\(first))"))
                #expect(server.passwordAttempts == 0)
                #expect(scene.sshProcesses.isEmpty)
            }
        }
    }

    @Test func aWrongPasswordIsOneRefusedAttemptWithOneLine() async throws {
        try await Self.withRig(passwordFile: "not the password") { rig in
            let result = try await Self.run(
                Self.shoot(port: rig.server.port, scene: rig.scene, extra: ["--ssh-fingerprint", rig.fingerprint]),
                scene: rig.scene, forwardPort: rig.simulator.port)
            #expect(result.exitCode == 69, "\(result)")
            #expect(result.errorLines.count == 1, "\(result.standardError)")
            #expect(
                result.standardError.contains(
                    "the camera at 127.0.0.1 refused the login as '\(Self.user)'; check the user and password"))
            #expect(rig.server.passwordAttempts == 1)
            #expect(await rig.simulator.captures.isEmpty)
            #expect(rig.scene.sshProcesses.isEmpty)
            #expect(!result.standardOutput.contains("not the password"))
            #expect(!result.standardError.contains("not the password"))
        }
    }

    @Test func aPasswordFileOthersMayReadIsRefusedBeforeAnyLogin() async throws {
        try await Self.withRig(mode: 0o644) { rig in
            let result = try await Self.run(
                Self.shoot(port: rig.server.port, scene: rig.scene, extra: ["--ssh-fingerprint", rig.fingerprint]),
                scene: rig.scene, forwardPort: rig.simulator.port)
            #expect(result.exitCode == 64, "\(result)")
            #expect(result.standardError.contains("others may read it (mode 644); run chmod 600 on it"))
            #expect(rig.server.passwordAttempts == 0)
        }
    }

    @Test func aTunnelKilledMidShootIsReopenedAndTheBracketCompletes() async throws {
        try await Self.withRig { rig in
            let arguments = Self.shoot(
                port: rig.server.port, scene: rig.scene, extra: ["--ssh-fingerprint", rig.fingerprint])
            var environment = rig.scene.environment(forwardPort: rig.simulator.port)
            environment["PWD"] = rig.scene.shoots.path
            // The tunnel waits 1 s before it opens again and the runner 2 s before its first reconnection attempt,
            // for a body's Wi-Fi to come back; the sshd is back at once here, and on the time-scale hook the waits
            // are 0.1 s and 0.2 s (the body's exposures are capped at 20 ms, so nothing else it waits for gets
            // shorter than the body takes; the margins a body gets to process an image stay 2 s).
            environment["HDRSHOOT_TIME_SCALE"] = "10"
            let output = try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(),
                arguments: arguments + ["--output", rig.scene.shoots.appendingPathComponent("killed").path],
                environment: environment
            ) { shoot in
                _ = try await shoot.waitForLine(timeout: .seconds(60)) { $0.contains("(4 of 15)") }
                let tunnels = rig.scene.sshProcesses
                #expect(tunnels.count == 1)
                for pid in tunnels { kill(pid, SIGKILL) }
                let status = await shoot.waitForExit(timeout: .seconds(120))
                #expect(status == 0, "\(shoot.standardOutput)\n\(shoot.standardError)")
                return shoot.standardOutput
            }
            // The real reason only: no noise from the helper shell that watches ssh.
            #expect(
                output.contains("The SSH tunnel to the camera closed (ssh was ended by signal 9); opening it again..."),
                "\(output)")
            #expect(output.contains("The SSH tunnel to the camera is open again."))
            #expect(output.contains("Complete: 15 of 15 exposures saved"))
            // Traced (op logs of 30 runs, one with 16 captures): the only extra release is a frame whose image the
            // body sent (GetObject answered, so it let the image go) while the killed tunnel lost the bytes; after
            // the reconnect the buffer reads empty and that frame, and only it, is fired again, saying so. A
            // release pressed again blind would instead bring a 16th image home (set apart as unmatched).
            let captures = await rig.simulator.captures.count
            let sent = rig.operations.split(separator: "\n").count {
                $0.contains("\"name\":\"GetObject\"") && $0.contains("\"response\":\"0x2001\"")
            }
            let shotAgain = output.components(separatedBy: "arrived from the camera; it is shot again").count - 1
            #expect(captures == sent, "every capture's image was sent once")
            #expect(captures == 15 + shotAgain, "\(output)")
            #expect(shotAgain <= 1, "\(output)")
            #expect(!output.contains("unmatched/"), "\(output)")
            #expect(rig.server.passwordAttempts == 2)
            #expect(rig.scene.sshProcesses.isEmpty)
        }
    }

    /// Runs a pinned shoot in the background, sends `signal` to hdrshoot once 4 frames are saved, and returns its
    /// exit status, its output and the simulator's operation log.
    static func interrupt(with signal: Int32) async throws -> (status: Int32, output: String, operations: String) {
        try await withRig { rig in
            let arguments =
                shoot(port: rig.server.port, scene: rig.scene, extra: ["--ssh-fingerprint", rig.fingerprint])
                + ["--output", rig.scene.shoots.appendingPathComponent("stopped").path]
            let (status, output) = try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(), arguments: arguments,
                environment: rig.scene.environment(forwardPort: rig.simulator.port)
            ) { shoot in
                _ = try await shoot.waitForLine(timeout: .seconds(60)) { $0.contains("(4 of 15)") }
                #expect(rig.scene.sshProcesses.count == 1)
                shoot.send(signal)
                return (await shoot.waitForExit(timeout: .seconds(60)), shoot.standardOutput)
            }
            // No ssh outlives hdrshoot, however it ended.
            #expect(try await eventually { rig.scene.sshProcesses.isEmpty })
            return (status, output, rig.operations)
        }
    }

    @Test func aShootStoppedBySIGTERMClosesTheSessionThroughTheTunnel() async throws {
        let (status, output, operations) = try await Self.interrupt(with: SIGTERM)
        #expect(status == 75, "\(output)")
        #expect(output.contains("Run `hdrshoot resume`"), "\(output)")
        let last = operations.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains("\"name\":\"CloseSession\""), "\(last)")
    }

    @Test func aShootStoppedByCtrlCClosesTheSessionThroughTheTunnel() async throws {
        let (status, output, operations) = try await Self.interrupt(with: SIGINT)
        #expect(status == 75, "\(output)")
        let last = operations.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains("\"name\":\"CloseSession\""), "\(last)")
    }

    @Test func aKilledHdrshootLeavesNoSSHBehind() async throws {
        let (status, _, operations) = try await Self.interrupt(with: SIGKILL)
        #expect(status == 128 + SIGKILL)
        // SIGKILL sends nothing: the body sees the link drop instead.
        #expect(!operations.contains("\"name\":\"CloseSession\""))
    }
}
