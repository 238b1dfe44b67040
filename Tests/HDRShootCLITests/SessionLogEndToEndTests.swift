import Foundation
import TestSupport
import Testing

/// Session logs written by the real binary, replayed by the simulator, and a full disk under the log.
@Suite("Session logs end to end", .realTime, .serialized)
struct SessionLogEndToEndTests {
    /// The session logs in `state` (an `XDG_STATE_HOME`), oldest first.
    static func logs(in state: String) -> [String] {
        let folder = state + "/hdrshoot/logs"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { folder + "/" + $0 }
    }

    /// The run flags of the 3 × 5 bracket against `camera`.
    static func bracket(_ sandbox: ShootSandbox, camera: [String]) -> [String] {
        ["run"] + ThreeByFive.flags + camera + ["--confirm"] + sandbox.shootArguments
    }

    @Test func aReplayOfAQuirkySessionGivesTheSameCameraReportAndTheSameFires() async throws {
        let original = try ShootSandbox()
        defer { original.remove() }
        let state = original.root.appendingPathComponent("xdg-state").path
        // On the time-scale hook (`ScaledTime`), both sides and both sessions: the start-up's busy pauses (0.5 s,
        // then 1 s) are a tenth, at each of the four connections.
        let quirks =
            ["--quirk", "no-events,busy-at-start:2", "--rtt", "5", "--max-shutter", "1/4000"]
            + ScaledTime.simulatorArguments
        let environment = ScaledTime.environment.merging(["XDG_STATE_HOME": state]) { $1 }
        let ((report, shot), fired) = try await original.withSimulator(extra: quirks) { port in
            let camera = ["--camera", "127.0.0.1:\(port)"]
            let report = try await original.hdrshoot(
                ["camera"] + camera + ["--json"], environment: environment)
            let shot = try await original.hdrshoot(
                Self.bracket(original, camera: camera), environment: environment)
            return (report, shot)
        }
        #expect(report.exitCode == 0, "\(report.standardError)")
        #expect(shot.exitCode == 0, "\(shot.standardError)")
        #expect(ThreeByFive.isEveryFrameWithAtMostOneRepeat(fired))
        let logs = Self.logs(in: state)
        try #require(logs.count == 2, "\(logs)")
        let runLog = try #require(logs.last)
        // The run's log carries the shoot id, and the manifest links to it.
        let manifest = try original.manifest()
        let shootID = try #require(manifest["shoot"] as? String)
        #expect(runLog.hasSuffix("-run-\(shootID).jsonl"))
        #expect((manifest["sessionLogs"] as? [String]) == [runLog])

        // The simulator becomes the logged body: the same report, the same quirks, the same bracket fired.
        let replayed = try await original.hdrshoot(
            ["camera", "--camera", "simulator", "--replay-session", runLog, "--json"], environment: environment)
        #expect(replayed.exitCode == 0, "\(replayed.standardError)")
        #expect(replayed.standardOutput == report.standardOutput)
        #expect(replayed.standardError.contains("quirks on from the log: no-events"))
        #expect(replayed.standardError.contains("busy-at-start:2"))

        let replay = try ShootSandbox()
        defer { replay.remove() }
        let (again, firedAgain) = try await replay.withSimulator(
            extra: ["--replay-session", runLog] + ScaledTime.simulatorArguments
        ) { port in
            try await replay.hdrshoot(
                Self.bracket(replay, camera: ["--camera", "127.0.0.1:\(port)"]),
                environment: ScaledTime.environment.merging(
                    ["XDG_STATE_HOME": replay.root.appendingPathComponent("xdg-state").path]) { $1 })
        }
        #expect(again.exitCode == 0, "\(again.standardError)")
        #expect(firedAgain == fired)
    }

    @Test func aBadReplayLogIsOneLineAndNothingConnects() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let notALog = sandbox.root.appendingPathComponent("notes.txt").path
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: notALog))
        let result = try await sandbox.hdrshoot(["camera", "--camera", "simulator", "--replay-session", notALog])
        #expect(result.exitCode == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("error: \(notALog) is not a session log") == true)
        let missing = try await sandbox.hdrshoot(["camera", "--camera", "127.0.0.1", "--replay-session", notALog])
        #expect(missing.exitCode == 64)
        #expect(missing.standardError.contains("--replay-session needs --camera simulator"))
    }

    @Test(
        .enabled(
            if: TestHost.isRoot && TestHost.unshare != nil,
            "needs root and util-linux unshare for a mount namespace with a tiny tmpfs"))
    func aFullDiskUnderTheLogCostsTheShootNothing() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let state = sandbox.root.appendingPathComponent("xdg-state").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        // A one-page tmpfs holds the logs folder and the file's first bytes; the rest of the log finds it full.
        let script = #"mount -t tmpfs -o size=4k tmpfs "$0" && exec "$@""#
        let (result, fired) = try await sandbox.withSimulator { port in
            let arguments =
                ["-m", "sh", "-c", script, state, try ProcessRunner.hdrshootBinary().path]
                + Self.bracket(sandbox, camera: ["--camera", "127.0.0.1:\(port)"])
            return try await ProcessRunner.run(
                try #require(TestHost.unshare), arguments: arguments,
                environment: sandbox.environment.merging(["XDG_STATE_HOME": state]) { $1 }, timeout: .seconds(120))
        }
        if result.standardError.contains("mount:") || result.standardError.contains("unshare:") {
            try Test.cancel("skipped: cannot mount a tmpfs in a mount namespace: \(result.standardError)")
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(ThreeByFive.isEveryFrameWithAtMostOneRepeat(fired))
        let warnings = result.errorLines.filter { $0.hasPrefix("warning: cannot write the session log") }
        #expect(warnings.count == 1, "\(result.standardError)")
        #expect(warnings.first?.contains("No space left on device") == true)
        #expect(result.standardOutput.contains("Complete"))
    }

    @Test func verbosePrintsTheLogLinesToStandardError() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let state = sandbox.root.appendingPathComponent("xdg-state").path
        let result = try await sandbox.hdrshoot(
            ["camera", "--camera", "simulator", "-v"], environment: ["XDG_STATE_HOME": state])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let logged = try String(contentsOfFile: try #require(Self.logs(in: state).first), encoding: .utf8)
        let echoed = result.errorLines.filter { $0.hasPrefix("{\"t\":") }
        #expect(echoed.contains { $0.contains("\"kind\":\"op\"") && $0.contains("GetDeviceInfo") })
        // Every line but the last ("end", written after the command's own output) was echoed as it happened.
        #expect(echoed.count >= logged.split(separator: "\n").count - 1)
    }
}
