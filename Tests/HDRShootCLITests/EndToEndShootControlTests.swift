import Foundation
import Glibc
import TestSupport
import Testing

/// Stopping, abandoning and answering a shoot: signals to the built binary, and a pseudo-terminal (util-linux
/// `script`) for the prompt, the keys and the live line.
@Suite("Shoot controls (built binary against hdrshoot simulate)", .realTime, .serialized)
struct EndToEndShootControlTests {
    @Test func droppedConnectionAtAnOperationIsSurvivedByAutoReconnect() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Operation 71 falls around frame 7 or 8 (the count of property reads varies with event timing): a
        // speed change, a button press or a transfer. Wherever it lands, the outcome is the same: the
        // unfinished frame is shot again, and an image left in the camera is recovered, never blocking.
        // On the time-scale hook the first reconnection attempt comes after 0.2 s instead of 2 s, and a frame whose
        // release the drop cut off is looked for in the camera for 1 s instead of the hook's 2 s floor before it is
        // shot again (`environmentWithOneSecondMargins`).
        let (result, fired) = try await sandbox.withSimulator(
            faults: ["drop-at-op:71"], extra: ScaledTime.simulatorArguments
        ) { port in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"] + sandbox.shootArguments,
                environment: ScaledTime.environmentWithOneSecondMargins)
        }
        #expect(result.standardOutput.contains("Paused: lost the connection to the camera; reconnecting"))
        #expect(result.standardOutput.contains("Reconnected (attempt 1)"))
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        #expect(ThreeByFive.isEveryFrameWithAtMostOneRepeat(fired), "fired: \(fired)")
        // Every image the camera made is on disk: one per fired frame.
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        let files = frames.flatMap { ($0["files"] as? [String] ?? []) + ($0["earlierFiles"] as? [String] ?? []) }
        #expect(files.count == fired.count, "\(files)")
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: sandbox.outputDirectory + "/" + $0) })
    }

    @Test func reconnectGivingUpStopsResumablyAndSaysResumeWillContinue() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // The first reconnect attempt would come after 2 s: a 1 s timeout gives up at once.
        let ((result, status), _) = try await sandbox.withSimulator(faults: ["drop-at-frame:3"]) { port in
            let result = try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + [
                    "--camera", "127.0.0.1:\(port)", "--confirm", "--reconnect-timeout", "1s"
                ] + sandbox.shootArguments)
            return (result, try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory]))
        }
        #expect(result.exitCode == 75)
        #expect(result.errorLines.count == 1)
        #expect(result.standardError.hasPrefix("error: lost the camera and could not reconnect within 1 s"))
        #expect(result.standardError.contains("`hdrshoot resume` will continue"))
        // Frames 1 and 2 fired before the drop; their images are still in the camera (no reconnect came).
        // Fired and saved said apart; frame 3 may or may not have fired and is not counted.
        #expect(
            result.standardOutput.contains(
                "Stopped at set 1, frame 1. 2 of 15 exposures fired: 0 saved, 2 in the camera. Run `hdrshoot resume` "
                    + "to download those 2 first and shoot the remaining 13."))
        let object = try #require(jsonObject(status.standardOutput))
        #expect((object["inCamera"] as? [[String: Int]]) == [["set": 1, "frame": 1], ["set": 1, "frame": 2]])
        #expect(object["fired"] as? Int == 2 && object["saved"] as? Int == 0, "\(object)")
        #expect(object["stopReason"] as? String == "reconnectGaveUp")
        #expect((object["possiblyDuplicated"] as? [[String: Int]]) == [["set": 1, "frame": 3]])
        // Every key of `status --json` is there, a value not known as an explicit null (no process holds it).
        #expect(
            Set(object.keys) == [
                "id", "state", "stopReason", "captured", "saved", "fired", "total", "remaining", "resumePosition",
                "possiblyDuplicated", "inCamera", "outputDirectory", "journal", "camera", "shootingPid", "createdAt",
                "updatedAt", "unfinished"
            ])
        #expect(object["shootingPid"] is NSNull)
        #expect((object["camera"] as? [String: Any]).map { Set($0.keys) } == ["model", "address", "serialNumber"])
        let unfinished = try #require((object["unfinished"] as? [[String: Any]])?.first)
        #expect(Set(unfinished.keys) == ["id", "state", "captured", "total", "outputDirectory", "shootingPid"])
    }

    @Test func sigintStopsAfterTheCurrentFrameAndLeavesAResumableShoot() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let ((exit, output), _) = try await sandbox.withSimulator(processingMilliseconds: 300) { port in
            let arguments =
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm", "--json"]
                + sandbox.shootArguments
            return try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(), arguments: arguments, environment: sandbox.environment
            ) { run in
                _ = try await run.waitForLine { line in
                    let object = jsonObject(line)
                    return object?["phase"] as? String == "capturing" && object?["frame"] as? Int == 3
                }
                run.send(SIGINT)
                return (await run.waitForExit(), run.standardOutput)
            }
        }
        #expect(exit == 75)
        let lines = output.split(separator: "\n").compactMap { jsonObject(String($0)) }
        #expect(
            lines.contains {
                $0["event"] as? String == "note"
                    && ($0["message"] as? String)?.hasPrefix("Stopping after the current frame") == true
            })
        let finished = try #require(lines.last)
        #expect(finished["event"] as? String == "finished")
        #expect(finished["stopReason"] as? String == "stopRequested")
        // Frames fire at shutter speed: frame 3 (or 4, when it was already in flight as the signal came) is the
        // last fired; what fired is downloaded before the run ends.
        let completed = finished["completed"] as? Int ?? 0
        #expect((3...4).contains(completed), "\(finished)")
        #expect((finished["resumePosition"] as? [String: Int]) == ["set": 1, "frame": completed + 1])
        let status = try await sandbox.hdrshoot(["status", "--state-dir", sandbox.stateDirectory])
        #expect(status.standardOutput.contains("State:     stopped (you stopped it)"))
        #expect(
            status.standardOutput.contains("Resume at: set 1, frame \(completed + 1) (\(15 - completed) remaining)"))
    }

    @Test func secondSigintAbandonsTheFrameInFlight() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let ((exit, output, errors), _) = try await sandbox.withSimulator(processingMilliseconds: 2000) { port in
            let arguments =
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm", "--json"]
                + sandbox.shootArguments
            return try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(), arguments: arguments, environment: sandbox.environment
            ) { run in
                _ = try await run.waitForLine { jsonObject($0)?["phase"] as? String == "capturing" }
                run.send(SIGINT)
                _ = try await run.waitForLine { jsonObject($0)?["event"] as? String == "note" }
                run.send(SIGINT)
                return (await run.waitForExit(), run.standardOutput, run.standardError)
            }
        }
        #expect(exit == 75)
        let finished = try #require(output.split(separator: "\n").compactMap { jsonObject(String($0)) }.last)
        #expect(finished["stopReason"] as? String == "cancelled")
        #expect(finished["completed"] as? Int == 0)
        #expect(errors.contains("abandoned"))
    }

    @Test func aStoppedSimulatorShootIsResumedOnANewSimulator() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let arguments =
            [
                "run", "--shadow", "1/60", "--highlight", "1/1000", "--frames", "3", "--camera", "simulator",
                "--confirm", "--json"
            ]
            + sandbox.shootArguments
        // On the time-scale hook (`ScaledTime`): the frames the first simulator fired but the new one never had
        // are shot again after the runner's image-never-came margin, 1 s instead of 10
        // (`environmentWithOneSecondMargins`).
        let stopped = try await BackgroundProcess.with(
            try ProcessRunner.hdrshootBinary(), arguments: arguments,
            environment: sandbox.environment.merging(ScaledTime.environment) { $1 }
        ) { run in
            _ = try await run.waitForLine { jsonObject($0)?["phase"] as? String == "saved" }
            run.send(SIGINT)
            return await run.waitForExit()
        }
        #expect(stopped == 75)
        let resumed = try await sandbox.hdrshoot(
            ["resume", "--confirm", "--state-dir", sandbox.stateDirectory],
            environment: ScaledTime.environmentWithOneSecondMargins)
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(resumed.standardOutput.contains("Camera: ILCE-7M3 at simulator"))
        #expect(resumed.standardOutput.contains("Complete: 9 of 9 exposures saved"))
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.count == 9)
        #expect(
            frames.allSatisfy {
                $0["state"] as? String == "done" && $0["actualSpeed"] as? String == $0["usedSpeed"] as? String
            })
    }

    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func onATerminalAYesShootsWithALiveProgressLine() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator { port in
            try await Self.onTerminal(
                sandbox, ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)"] + sandbox.shootArguments,
                typing: "y\n")
        }
        #expect(result.exitCode == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("Proceed? [y/N] "))
        // `script` without a terminal around it makes a 0-column terminal: the line fits the usual 80.
        #expect(
            result.standardOutput.contains(
                "\r\u{1B}[2KSet 3/3 frame 5/5  4\"  done           [====================]  15/15  ~0:00 left"))
        #expect(result.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        #expect(fired == ThreeByFive.labels)
    }

    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func onATerminalSpaceThenPPausesAndContinues() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator { port in
            try await Self.onTerminal(
                sandbox, ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)"] + sandbox.shootArguments,
                typing: "y\n p")
        }
        #expect(result.exitCode == 0, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("Paused; press space or p to continue, q to stop"))
        #expect(result.standardOutput.contains("Continuing"))
        #expect(result.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        #expect(fired == ThreeByFive.labels)
    }

    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func onATerminalAnythingButYesFiresNothing() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator { port in
            try await Self.onTerminal(
                sandbox, ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)"] + sandbox.shootArguments,
                typing: "\n")
        }
        #expect(result.exitCode == 1)
        #expect(result.standardOutput.contains("error: not confirmed; nothing was shot"))
        #expect(fired.isEmpty)
    }

    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func onATerminalQStopsTheShootAndTheTerminalModeIsRestored() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // `stty -a` after the shoot, on the same terminal, shows whether echo and line editing came back.
        let command = ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:PORT"] + sandbox.shootArguments
        let (result, _) = try await sandbox.withSimulator { port in
            let line = command.map { $0 == "127.0.0.1:PORT" ? "127.0.0.1:\(port)" : $0 }
            return try await Self.onTerminal(sandbox, line, typing: "y\nq", then: "; stty -a")
        }
        #expect(result.standardOutput.contains("Stopping after the current frame"))
        #expect(result.standardOutput.contains("Stopped at set 1, frame "))
        #expect(result.standardOutput.contains(" icanon "))
        #expect(result.standardOutput.contains(" echo "))
    }

    /// Runs `hdrshoot <arguments>` on a pseudo-terminal, typing `input`; returns what the terminal showed and
    /// the command's exit status.
    static func onTerminal(
        _ sandbox: ShootSandbox, _ arguments: [String], typing input: String, then: String = "",
        environment: [String: String] = [:]
    ) async throws -> ProcessResult {
        let binary = try ProcessRunner.hdrshootBinary().path
        let line = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
        let shell = then.isEmpty ? line : "\(line)\(then)"
        return try await ProcessRunner.run(
            try #require(TestHost.script), arguments: ["-qefc", shell, "/dev/null"],
            environment: sandbox.environment.merging(environment) { $1 },
            standardInput: Array(input.utf8), timeout: .seconds(120))
    }
}
