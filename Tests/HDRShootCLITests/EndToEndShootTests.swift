import Foundation
import Glibc
import TestSupport
import Testing

/// `hdrshoot run`, `resume` and `status` as built binaries against `hdrshoot simulate` over loopback.
@Suite("End-to-end shoots (built binary against hdrshoot simulate)", .realTime, .serialized)
struct EndToEndShootTests {
    @Test func threeByFivePlanCompletesAndTheCameraFiresTheFifteenSpeedsInOrder() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator { port in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"] + sandbox.shootArguments)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("3 sets, 15 exposures. Longest exposure: 4\". Estimated time: ~12 s."))
        #expect(result.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        #expect(fired == ThreeByFive.labels)
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.count == 15)
        #expect(frames.map { $0["plannedSpeed"] as? String } == ThreeByFive.labels)
        #expect(frames.allSatisfy { $0["state"] as? String == "done" && ($0["files"] as? [String])?.count == 1 })
        let lastFile = try #require((frames.last?["files"] as? [String])?.first)
        #expect(lastFile.hasPrefix("set-03/"))
        #expect(FileManager.default.fileExists(atPath: sandbox.outputDirectory + "/" + lastFile))
    }

    @Test func speedsTheCameraLacksAreSubstitutedShownAndRecordedInTheManifest() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Half-stop speeds on a third-stop body: 1/6000, 1/3000 and 1/1500 become their nominal neighbours.
        let (result, fired) = try await sandbox.withSimulator { port in
            try await sandbox.hdrshoot(
                [
                    "run", "--scale", "half", "--shadow", "1/1500", "--highlight", "1/6000", "--frames", "3",
                    "--camera", "127.0.0.1:\(port)", "--confirm"
                ] + sandbox.shootArguments)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("1/6000 not available on this camera, using 1/6400"))
        #expect(fired == ["1/6400", "1/3200", "1/1600"])
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.first?["plannedSpeed"] as? String == "1/6000")
        #expect(frames.first?["usedSpeed"] as? String == "1/6400")
        #expect(frames.first?["actualSpeed"] as? String == "1/6400")
    }

    @Test func runKilledWhileSettingASpeedIsCompletedByResume() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // The body stops answering at frame 8's speed set (set 2, frame 3; `hang-at-speed-set:7`), and the test
        // kills the run once the simulator's operation log shows that set unanswered, so the run is surely in that
        // speed change, however fast or loaded the host: frames 1-7 fired, and their images wait in the camera
        // (capture first, download behind). The fault fires once (a kill before the set reached the body would have
        // left it to hang the resume instead): the resume's connection is answered.
        let operations = sandbox.root.appendingPathComponent("operations.jsonl").path
        let (resumed, fired) = try await sandbox.withSimulator(
            faults: ["hang-at-speed-set:7"], extra: ["--op-log", operations]
        ) { port in
            try await killRun(sandbox, port: port, atPhase: "settingSpeed", unansweredIn: operations)
            let status = try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory])
            let object = try #require(jsonObject(status.standardOutput))
            #expect(object["state"] as? String == "inProgress")
            #expect(object["captured"] as? Int == 0)
            #expect((object["inCamera"] as? [[String: Int]])?.count == 7)
            #expect((object["resumePosition"] as? [String: Int]) == ["set": 1, "frame": 1])
            return try await sandbox.hdrshoot(["resume", "--confirm", "--state-dir", sandbox.stateDirectory])
        }
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(
            resumed.standardOutput.contains(
                "0 of 15 exposures saved; 7 fired and waiting in the camera to be downloaded first; 8 to shoot from set 2, frame 3"
            ), "\(resumed.standardOutput)")
        #expect(resumed.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        #expect(fired == ThreeByFive.labels)
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.allSatisfy { $0["state"] as? String == "done" })
    }

    @Test func runKilledWhileCapturingIsCompletedByResumeWithNothingFiredTwice() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Frame 8 (set 2, frame 3) has fired and its image is still processing (0.2 s) when the test kills the
        // run: the camera keeps its images (frames 1-8) in its buffer, as a real body does.
        let (resumed, fired) = try await sandbox.withSimulator(processingMilliseconds: 200) { port in
            try await killRun(sandbox, port: port, atPhase: "capturing", afterFired: 8)
            let status = try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory])
            let object = try #require(jsonObject(status.standardOutput))
            // The run went on firing while the test killed it: frames 1-8 at least wait in the camera, and the
            // frame then in flight (if any) may have fired.
            #expect(object["captured"] as? Int == 0)
            #expect(((object["inCamera"] as? [[String: Int]])?.count ?? 0) >= 7)
            #expect(((object["possiblyDuplicated"] as? [[String: Int]])?.count ?? 0) <= 1)
            return try await sandbox.hdrshoot(["resume", "--confirm", "--state-dir", sandbox.stateDirectory])
        }
        #expect(resumed.standardOutput.contains("waiting in the camera to be downloaded first"))
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(resumed.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        // Every planned frame fired once: the eight images the camera held were filed to their frames by EXIF.
        #expect(fired == ThreeByFive.labels, "fired: \(fired)")
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.allSatisfy { $0["state"] as? String == "done" && ($0["files"] as? [String])?.count == 1 })
        let eighth = try #require(frames.first { $0["set"] as? Int == 2 && $0["frame"] as? Int == 3 })
        #expect((eighth["files"] as? [String])?.first?.hasPrefix("set-02/DSC00008") == true, "\(eighth)")
    }

    @Test func resumeWhileTheRunStillShootsIsRefusedAndTheRunCompletes() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // A slow link keeps the run going (about 2 s to fire the bracket, the downloads after) until the test holds it
        // still (SIGSTOP) as its first frame starts; held, it surely stays alive and unfinished however long the
        // resume of the same shoot takes; it continues (SIGCONT) once the resume answered, on a link made fast again.
        // (It was held at its first saved frame, which comes only once the whole bracket fired: 2 s of the slow link.)
        let ((run, refused, runPID), fired) = try await sandbox.withSimulatorInProcess({
            $0.roundTripDelay = .milliseconds(20)
        }) { simulator in
            let port = simulator.port
            let arguments =
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm", "--json"]
                + sandbox.shootArguments
            return try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(), arguments: arguments, environment: sandbox.environment
            ) { run in
                _ = try await run.waitForLine(timeout: .seconds(120)) {
                    jsonObject($0)?["event"] as? String == "started"
                }
                run.send(SIGSTOP)
                let refused = try await sandbox.hdrshoot([
                    "resume", "--confirm", "--camera", "127.0.0.1:\(port)", "--state-dir", sandbox.stateDirectory
                ])
                await simulator.setRoundTripDelay(.zero)
                run.send(SIGCONT)
                return (await run.waitForExit(timeout: .seconds(120)), refused, run.pid)
            }
        }
        #expect(refused.exitCode == 75)
        #expect(refused.errorLines.count == 1)
        #expect(
            refused.standardError.hasPrefix("error: this shoot is being shot by hdrshoot (pid \(runPID)) right now"),
            "\(refused.standardError)")
        #expect(refused.standardOutput.isEmpty)
        #expect(run == 0)
        // The refused resume never fired: the camera saw the run's 15 frames only.
        #expect(fired == ThreeByFive.labels)
    }

    /// The image the interrupted attempt left in the camera is on disk in its frame's set folder and listed
    /// with that frame in the manifest (`earlierFiles`), next to the reshot frame's own file.
    /// Starts `hdrshoot run --json` and kills it (SIGKILL) when set 2, frame 3 reaches `phase` (and, with
    /// `afterFired`, once the simulator logged that many fired frames; with `unansweredIn`, once that operation log
    /// of the simulator's ends with a shutter speed set it did not answer).
    private func killRun(
        _ sandbox: ShootSandbox, port: UInt16, atPhase phase: String, afterFired: Int? = nil,
        unansweredIn operationLog: String? = nil
    ) async throws {
        let arguments =
            ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm", "--json"]
            + sandbox.shootArguments
        try await BackgroundProcess.with(
            try ProcessRunner.hdrshootBinary(), arguments: arguments, environment: sandbox.environment
        ) { run in
            _ = try await run.waitForLine(timeout: .seconds(120)) { line in
                guard let object = jsonObject(line) else { return false }
                return object["phase"] as? String == phase && object["set"] as? Int == 2 && object["frame"] as? Int == 3
            }
            if let afterFired { try await sandbox.waitForCaptures(afterFired) }
            if let operationLog {
                let hung = try await eventually(timeout: .seconds(60), every: .milliseconds(5)) {
                    let text = (try? String(contentsOfFile: operationLog, encoding: .utf8)) ?? ""
                    guard let last = text.split(separator: "\n").last.flatMap({ jsonObject(String($0)) }) else {
                        return false
                    }
                    return last["code"] as? String == "0x9205"
                        && (last["response"] == nil || last["response"] is NSNull)
                }
                try #require(hung, "the simulator never logged the speed set it was to leave unanswered")
            }
            run.send(SIGKILL)
            #expect(await run.waitForExit() == 128 + SIGKILL)
        }
    }

    @Test func droppedConnectionAtFrameSevenIsSurvivedByAutoReconnect() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Frame 7 (set 2, frame 2) fires, then the link drops before its image is fetched. On the time-scale hook
        // (`ScaledTime`) the first reconnection attempt comes after 0.2 s instead of 2 s.
        let (result, fired) = try await sandbox.withSimulator(
            faults: ["drop-at-frame:7"], extra: ScaledTime.simulatorArguments
        ) { port in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"] + sandbox.shootArguments,
                environment: ScaledTime.environment)
        }
        #expect(result.standardOutput.contains("Paused: lost the connection to the camera; reconnecting"))
        #expect(result.standardOutput.contains("Reconnected (attempt 1)"))
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        // Frame 7 fired before the drop: after the reconnect its image is fetched from the camera, verified by its
        // EXIF exposure time, and filed to the frame; the frame is never fired again.
        #expect(fired == ThreeByFive.labels)
        #expect(
            result.standardOutput.contains(
                "the image of 1/30 taken before the connection dropped was recovered; it was not shot again"))
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.allSatisfy { $0["state"] as? String == "done" })
        let record = try #require(frames.first { $0["set"] as? Int == 2 && $0["frame"] as? Int == 2 })
        #expect(record["files"] as? [String] == ["set-02/DSC00007_1-30s.JPG"])
        #expect(record["possiblyDuplicated"] as? Bool != true)
        #expect(FileManager.default.fileExists(atPath: sandbox.outputDirectory + "/set-02/DSC00007_1-30s.JPG"))
    }

    @Test func busyAnswersAreRetried() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // On the time-scale hook (`ScaledTime`): the pauses before asking the busy body again are a tenth.
        let (result, fired) = try await sandbox.withSimulator(
            faults: ["busy:0x9205:2", "busy-capture:1"], extra: ScaledTime.simulatorArguments
        ) { port in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"] + sandbox.shootArguments,
                environment: ScaledTime.environment)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        #expect(fired == ThreeByFive.labels)
    }

    @Test func modeDialTurnedToAStopsResumablyAndStatusReportsIt() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let ((result, status), fired) = try await sandbox.withSimulator(faults: ["mode-at-frame:5:A"]) { port in
            let result = try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"] + sandbox.shootArguments)
            return (result, try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory]))
        }
        #expect(result.exitCode == 75)
        #expect(result.errorLines.first?.hasPrefix("error: ") == true)
        #expect(result.standardError.contains("mode A") || result.standardError.contains("on A"))
        #expect(result.standardError.contains("M (manual)"))
        #expect(!result.standardError.contains("SonyCameraError") && !result.standardError.contains("ShootingError"))
        #expect(
            result.standardOutput.contains(
                "Stopped at set 2, frame 1. 5 of 15 exposures saved. Run `hdrshoot resume` to shoot the remaining 10."
            ))
        // The dial turns as frame 5 fires; the next speed change finds the camera in A.
        #expect(fired == Array(ThreeByFive.labels[..<5]))
        #expect(status.exitCode == 0)
        let object = try #require(jsonObject(status.standardOutput))
        #expect(object["state"] as? String == "stopped")
        #expect(object["stopReason"] as? String == "failed")
        #expect(object["captured"] as? Int == 5)
        #expect(object["remaining"] as? Int == 10)
        #expect((object["resumePosition"] as? [String: Int]) == ["set": 2, "frame": 1])
        #expect(object["outputDirectory"] as? String == sandbox.outputDirectory)
    }

    @Test func runOffATerminalWithoutConfirmRefusesToFire() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator { port in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)"] + sandbox.shootArguments)
        }
        #expect(result.exitCode == 64)
        #expect(result.standardError.contains("pass --confirm"))
        #expect(result.standardOutput.contains("3 sets, 15 exposures."))
        #expect(fired.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: sandbox.stateDirectory))
    }
}
