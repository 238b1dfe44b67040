import CameraSimulator
import Foundation
import Glibc
import TestSupport
import Testing

/// The README's exit-code table, held by the built binary for every command.
@Suite("exit codes of every command (built binary)", .realTime)
struct ExitCodeBinaryTests {
    @Test func cameraAgainstARefusedAddressExits69LikeRun() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Port 1 on loopback refuses at once; connectRetrying tries 4 times (here 0.1, 0.2 and 0.3 s apart).
        let result = try await sandbox.hdrshoot(
            ["camera", "--camera", "127.0.0.1:1"], environment: ["HDRSHOOT_CONNECT_BACKOFF": "0.1s,0.2s,0.3s"])
        #expect(result.exitCode == 69)
        #expect(result.errorLines.count == 1)
        #expect(
            result.standardError.hasPrefix("error: could not connect to the camera at 127.0.0.1:1 after 4 attempts"))
        // The report's first line says how the camera was to be reached; nothing of a report follows it.
        #expect(
            result.standardOutput
                == "Connection: plain PTP/IP to 127.0.0.1:1 (a port was given, so the camera's description was not read).\n"
        )
    }

    @Test(arguments: [
        ["camera", "--camera", "simulater"],
        ["camera", "--camera", "Simulator"],
        ["run", "--shadow", "1", "--highlight", "1/1000", "--confirm", "--camera", "simulatr"],
        ["resume", "--confirm", "--camera", "simulater"]
    ])
    func aNearMissOfSimulatorIsAUsageErrorThatSuggestsIt(_ arguments: [String]) async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let extra = arguments[0] == "camera" ? [] : ["--state-dir", sandbox.stateDirectory]
        let result = try await sandbox.hdrshoot(arguments + extra)
        let typed = try #require(arguments.last)
        #expect(result.exitCode == 64)
        #expect(
            result.errorLines == [
                "error: '\(typed)' is not a camera address (did you mean 'simulator'?)",
                "Run 'hdrshoot \(arguments[0]) --help' for usage."
            ])
    }

    @Test func simulateOnATakenPortExits69() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        var configuration = SimulatorConfiguration()
        configuration.port = 0
        let result = try await CameraSimulator.withRunning(configuration: configuration) { simulator in
            try await sandbox.hdrshoot(["simulate", "--port", String(simulator.port)])
        }
        #expect(result.exitCode == 69)
        #expect(result.errorLines.count == 1)
        #expect(result.standardError.hasPrefix("error: cannot listen on 127.0.0.1:"))
    }

    @Test func cameraSimulatorStartsTheBuiltInCameraLikeRunDoes() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let result = try await sandbox.hdrshoot(["camera", "--camera", "simulator"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput.contains(" at simulator\n"))
        #expect(result.standardOutput.contains("exposure mode:     M"))
        let json = try await sandbox.hdrshoot(["camera", "--camera", "simulator", "--json"])
        #expect(json.exitCode == 0)
        let speeds = try #require(jsonObject(json.standardOutput)?["availableShutterSpeeds"] as? [[String: Any]])
        #expect(speeds.contains { $0["label"] as? String == "1/8000" })
        // The simulator is not a camera to come back to: nothing is remembered.
        let remembered = sandbox.root.appendingPathComponent("config/hdrshoot/last-camera").path
        #expect(!FileManager.default.fileExists(atPath: remembered))
    }

    @Test func focusThatNeverLocksBeforeTheFirstFrameExits69() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command = ["run"] + ThreeByFive.flags + ["--confirm"] + sandbox.shootArguments
        let (result, fired) = try await sandbox.withSimulator(extra: ["--focus", "AF-S", "--quirk", "af-fail"]) {
            port in
            try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"])
        }
        // A shoot that stops after frames were captured (the dial turned mid-shoot) exits 75 instead:
        // EndToEndShootTests.modeDialTurnedToAStopsResumablyAndStatusReportsIt.
        #expect(result.exitCode == 69, "\(result.standardError)")
        #expect(result.errorLines.first?.hasPrefix("error: ") == true)
        #expect(result.standardError.contains("focus"))
        #expect(fired.isEmpty)
    }

    @Test func anUnusableStateFolderAtTheStartOfARunExits1AboutTheStateFolder() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // A state folder inside a regular file cannot be created (ENOTDIR), whoever runs the test.
        let file = sandbox.root.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let state = file.appendingPathComponent("state").path
        let result = try await sandbox.hdrshoot(
            [
                "run", "--shadow", "1/1000", "--highlight", "1/1000", "--camera", "simulator", "--confirm",
                "--state-dir", state, "--output", sandbox.outputDirectory
            ])
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(
            result.errorLines == [
                "error: cannot record the shoot in the state folder \(state) (Not a directory); free some space there or "
                    + "choose another folder with --state-dir; nothing was shot"
            ])
        #expect(!result.standardOutput.contains("Complete"))
    }

    @Test(
        .enabled(
            if: TestHost.isRoot && TestHost.unshare != nil,
            "needs root and util-linux unshare for a mount namespace with a full tmpfs"))
    func aFullStateDiskAtTheStartOfARunExits1WithoutAResumeHint() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let state = sandbox.stateDirectory
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        // A private mount namespace: a one-page tmpfs on the state folder, filled up, then hdrshoot in it.
        let script =
            #"mount -t tmpfs -o size=4k tmpfs "$0" && { head -c 65536 /dev/zero > "$0/fill" 2>/dev/null; exec "$@"; }"#
        let arguments = [
            "-m", "sh", "-c", script, state, try ProcessRunner.hdrshootBinary().path,
            "run", "--shadow", "1/1000", "--highlight", "1/1000", "--camera", "simulator", "--confirm",
            "--state-dir", state, "--output", sandbox.outputDirectory
        ]
        let result = try await ProcessRunner.run(
            try #require(TestHost.unshare), arguments: arguments, environment: sandbox.environment,
            timeout: .seconds(60))
        if result.standardError.contains("mount:") || result.standardError.contains("unshare:") {
            try Test.cancel("skipped: cannot mount a tmpfs in a mount namespace: \(result.standardError)")
        }
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(
            result.errorLines == [
                "error: cannot record the shoot in the state folder \(state) (no space left on the device); free some space "
                    + "there or choose another folder with --state-dir; nothing was shot"
            ])
        #expect(!result.standardError.contains("resume"))
    }
}
