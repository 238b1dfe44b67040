import Foundation
import Glibc
import TestSupport
import Testing

/// `hdrshoot run`, `resume` and `camera` as built binaries against `hdrshoot simulate --api`, the simulated legacy
/// body speaking Sony's Camera Remote API over loopback HTTP: the same runner, journal, resume, series and
/// attribution as over PTP/IP.
@Suite(
    "End-to-end shoots on the Camera Remote API (built binary against hdrshoot simulate --api)", .realTime, .serialized)
struct EndToEndRemoteAPITests {
    @Test func threeByFivePlanCompletesAndTheBodyFiresTheFifteenSpeedsInOrder() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // On the time-scale hook: the body's startRecMode, its sets applying late (still after the first
        // read-back) and its saving take a tenth of their real time.
        let (result, fired) = try await sandbox.withLegacySimulator(extra: ScaledTime.simulatorArguments) { url in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--camera", url, "--confirm"] + sandbox.shootArguments,
                environment: ScaledTime.environment)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("(Camera Remote API)…"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        #expect(fired == ThreeByFive.labels)
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.map { $0["plannedSpeed"] as? String } == ThreeByFive.labels)
        #expect(frames.allSatisfy { $0["state"] as? String == "done" && ($0["files"] as? [String])?.count == 1 })
        // Each postview is filed under its frame by its own EXIF exposure time.
        #expect(frames.map { $0["actualSpeed"] as? String } == ThreeByFive.labels)
        let lastFile = try #require((frames.last?["files"] as? [String])?.first)
        #expect(lastFile == "set-03/pict15.JPG")
        #expect(FileManager.default.fileExists(atPath: sandbox.outputDirectory + "/" + lastFile))
    }

    @Test func aFortySecondFrameIsShotInBulbAndItsImageRecordsTheHeldTime() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command =
            ["run", "--shadow", "40s", "--highlight", "30", "--frames", "2", "--ev", "1/3", "--confirm"]
            + sandbox.shootArguments
        // On the time-scale hook at 40 times: a 1 s hold the body, whose time runs as much faster, measures as at
        // least 40 s, from startBulbShooting to stopBulbShooting (what each side proves: `BulbHold`).
        let (result, fired) = try await sandbox.withLegacySimulator(
            extra: ["--iso", "100"] + ScaledTime.simulatorArguments(factor: 40)
        ) { url in
            try await sandbox.hdrshoot(
                command + ["--camera", url], environment: ScaledTime.environment(factor: 40), timeout: .seconds(150))
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Complete: 2 of 2 exposures saved"))
        #expect(fired == ["30\"", "BULB"])
        let log = try String(contentsOfFile: sandbox.captureLog, encoding: .utf8).split(separator: "\n")
        let bulb = try #require(jsonObject(String(log[1])))
        let held = try #require(bulb["exposureSeconds"] as? Double)
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        try BulbHold.expect(held: held, frames: frames, asked: 40)
    }

    @Test func bulbFramesOnAutoISOAreRefusedBeforeAnythingFires() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withLegacySimulator(extra: ScaledTime.simulatorArguments) { url in
            try await sandbox.hdrshoot(
                [
                    "run", "--shadow", "40s", "--highlight", "30", "--frames", "2", "--ev", "1/3", "--confirm",
                    "--camera", url
                ]
                    + sandbox.shootArguments, environment: ScaledTime.environment)
        }
        #expect(result.exitCode == 69)
        #expect(result.errorLines.count == 1)
        #expect(result.standardError.contains("BULB exposures need a fixed ISO and the camera is on ISO AUTO"))
        #expect(fired.isEmpty)
    }

    @Test func runKilledWhileCapturingIsCompletedByResumeWithNothingFiredTwice() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Frame 8 (set 2, frame 3) has fired and is still saving (0.3 s) when the test kills the run: on the
        // time-scale hook the body saves each frame for 3 s of its time, 0.3 s of the test's, and its sets and
        // startRecMode take a tenth of their real time.
        let (resumed, fired) = try await sandbox.withLegacySimulator(
            processingMilliseconds: 3000, extra: ScaledTime.simulatorArguments
        ) { url in
            let arguments =
                ["run"] + ThreeByFive.flags + ["--camera", url, "--confirm", "--json"] + sandbox.shootArguments
            try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(), arguments: arguments,
                environment: sandbox.environment.merging(ScaledTime.environment) { $1 }
            ) { run in
                _ = try await run.waitForLine(timeout: .seconds(120)) { line in
                    guard let object = jsonObject(line) else { return false }
                    return object["phase"] as? String == "capturing" && object["set"] as? Int == 2
                        && object["frame"] as? Int == 3
                }
                try await sandbox.waitForCaptures(8)
                run.send(SIGKILL)
                #expect(await run.waitForExit() == 128 + SIGKILL)
            }
            let status = try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory])
            let object = try #require(jsonObject(status.standardOutput))
            // Every frame before it was downloaded before the next fired; frame 8 may have fired.
            #expect(object["captured"] as? Int == 7)
            return try await sandbox.hdrshoot(
                ["resume", "--confirm", "--state-dir", sandbox.stateDirectory], environment: ScaledTime.environment)
        }
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(resumed.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        // The picture the killed run left in the body is fetched and filed by its EXIF: frame 8 is not fired again.
        #expect(fired == ThreeByFive.labels, "fired: \(fired)")
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.allSatisfy { $0["state"] as? String == "done" && ($0["files"] as? [String])?.count == 1 })
        let eighth = try #require(frames.first { $0["set"] as? Int == 2 && $0["frame"] as? Int == 3 })
        #expect((eighth["files"] as? [String]) == ["set-02/pict8.JPG"], "\(eighth)")
    }

    @Test func aConnectionDroppedAtFrameSevenReconnectsAndTheShootCompletes() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // The body takes frame 7 (set 2, frame 2), then closes the connection instead of answering.
        // On the time-scale hook the first reconnection attempt comes after 0.2 s instead of 2 s.
        let (result, fired) = try await sandbox.withLegacySimulator(
            faults: ["drop-at-frame:7"], extra: ScaledTime.simulatorArguments
        ) { url in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--camera", url, "--confirm"] + sandbox.shootArguments,
                environment: ScaledTime.environment)
        }
        #expect(result.standardOutput.contains("Paused: lost the connection to the camera; reconnecting"))
        // On scaled time a loaded machine can let the first attempt's connect time out (CI saw "attempt 2").
        #expect(result.standardOutput.contains("Reconnected (attempt 1)"), "\(result.standardOutput)")
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        // Its picture is fetched after the reconnect, verified by its EXIF and filed: never fired again.
        #expect(fired == ThreeByFive.labels)
        #expect(
            result.standardOutput.contains(
                "the image of 1/30 taken before the connection dropped was recovered; it was not shot again"))
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        let record = try #require(frames.first { $0["set"] as? Int == 2 && $0["frame"] as? Int == 2 })
        #expect(record["files"] as? [String] == ["set-02/pict7.JPG"])
    }

    @Test func threeRepetitionsEveryTenSecondsGoToTheirOwnFolders() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let flags = ["--shadow", "1/60", "--highlight", "1/1000", "--frames", "3", "--ev", "2"]
        // On the time-scale hook at 20 times: the repetitions start half a real second apart.
        let (result, fired) = try await sandbox.withLegacySimulator(extra: TwentyTimes.simulatorArguments) { url in
            try await sandbox.hdrshoot(
                ["run"] + flags + [
                    "--every", "10s", "--count", "3", "--camera", url, "--confirm", "--no-network-monitor"
                ]
                    + sandbox.shootArguments, environment: TwentyTimes.environment)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Series complete: 3 repetition(s) done."))
        #expect(fired == Array(repeating: ["1/1000", "1/250", "1/60"], count: 3).flatMap { $0 })
        for number in 1...3 {
            let folder = sandbox.outputDirectory + "/rep-00\(number)/set-01"
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".JPG") }
            #expect(files.count == 3, "\(folder): \(files)")
        }
    }

    @Test func cameraShowsTheProtocolTheAPIVersionsAndTheAvailableAPIList() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let ((text, json), _) = try await sandbox.withLegacySimulator(extra: ScaledTime.simulatorArguments) { url in
            (
                try await sandbox.hdrshoot(["camera", "--camera", url], environment: ScaledTime.environment),
                try await sandbox.hdrshoot(["camera", "--camera", url, "--json"], environment: ScaledTime.environment)
            )
        }
        #expect(text.exitCode == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("protocol:          Camera Remote API (JSON-RPC over HTTP), API 1.0, 1.1"))
        #expect(text.standardOutput.contains("application:       Smart Remote Control 2.1.4"))
        #expect(text.standardOutput.contains("available API:     29: getVersions"))
        #expect(text.standardOutput.contains("ready to shoot"))
        let object = try #require(jsonObject(json.standardOutput))
        #expect(object["protocol"] as? String == "Camera Remote API")
        #expect((object["apiVersions"] as? [String])?.first == "1.0")
        #expect((object["availableApiList"] as? [String])?.contains("actTakePicture") == true)
        #expect(object["exposureMode"] as? String == "Manual")
    }

    @Test func theBuiltInSimulatedLegacyBodyShootsWithSimulatorAndAPI() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // On the time-scale hook the built-in body's time (its real exposures, sets, startRecMode) runs as fast.
        let result = try await sandbox.hdrshoot(
            [
                "run", "--shadow", "1/250", "--highlight", "1/1000", "--frames", "2", "--ev", "2", "--camera",
                "simulator",
                "--api", "--confirm"
            ] + sandbox.shootArguments, environment: ScaledTime.environment)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Connecting to the built-in simulated camera (Camera Remote API)…"))
        #expect(result.standardOutput.contains("Complete: 2 of 2 exposures saved"))
        let status = try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory])
        #expect(status.standardOutput.contains("simulator-api"), "\(status.standardOutput)")
    }
}

/// The time-scale hook of `ScaledTime` at 20 times instead of 10, for the waits that are long on the body's time:
/// a series every 10 s starts its repetitions half a second apart.
private enum TwentyTimes {
    /// The children's environment addition.
    static let environment = ["HDRSHOOT_TIME_SCALE": "20"]
    /// The simulator's arguments.
    static let simulatorArguments = ["--time-scale", "20"]
}
