import Exposure
import Foundation
import ShootKit
import SonyCamera
import TestSupport
import Testing

@testable import HDRShootCLI
@testable import Shooting

/// The shoot commands' texts, options and refusals, in-process (no camera needed) and as the built binary.
@Suite("run, resume, status: texts and refusals", .realTime)
struct RunCommandTests {
    static let threeByFive = BracketPlan(
        sets: [
            ["1/1000", "1/500", "1/250", "1/125", "1/60"], ["1/60", "1/30", "1/15", "1/8", "1/4"],
            ["1/4", "0.5", "1", "2", "4"]
        ].map { $0.map { try! ShutterScale.third.parseSpeed($0).speed } })

    @Test func summaryLineMatchesTheIssue() {
        #expect(
            ShootText.summary(Self.threeByFive, overhead: 0.25)
                == "3 sets, 15 exposures. Longest exposure: 4\". Estimated time: ~12 s.")
    }

    @Test func endLinesGiveTheTrueCounts() {
        let complete = ShootResult(saved: 15, total: 15, savedThisRun: 15, resumePosition: nil, stopReason: nil)
        #expect(ShootText.endLine(complete) == "Complete: 15 of 15 exposures saved")
        let stopped = ShootResult(
            saved: 7, total: 15, savedThisRun: 7, resumePosition: ShootPosition(set: 2, frame: 3),
            stopReason: .stopRequested)
        #expect(
            ShootText.endLine(stopped)
                == "Stopped at set 2, frame 3. 7 of 15 exposures saved. Run `hdrshoot resume` to shoot the remaining 8."
        )
        // All 15 fired, none saved (a body that shows one image twice): the line says so, and what resume does.
        let inCamera = ShootResult(
            saved: 0, total: 15, savedThisRun: 0, resumePosition: ShootPosition(set: 1, frame: 1),
            stopReason: .stopRequested, inCamera: 15)
        #expect(
            ShootText.endLine(inCamera)
                == "Stopped at set 1, frame 1. 15 of 15 exposures fired: 0 saved, 15 in the camera. Run `hdrshoot "
                + "resume` to download those 15 first.")
    }

    @Test func substitutionsReadLikeTheIssue() {
        let line = ShootText.substitutionLines([
            .init(
                planned: ShutterSpeed(numerator: 1, denominator: 6400),
                used: ShutterSpeed(numerator: 1, denominator: 5000))
        ])
        #expect(line == ["1/6400 not available on this camera, using 1/5000"])
    }

    @Test(arguments: [
        ("5m", 300_000), ("90s", 90_000), ("300", 300_000), ("1h", 3_600_000), ("500ms", 500), ("2.5m", 150_000)
    ])
    func reconnectTimeoutsParse(text: String, milliseconds: Int64) {
        #expect(ShootConsole.parseDuration(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: ["", "soon", "-5s", "5 parsecs"])
    func badReconnectTimeoutsDoNotParse(text: String) {
        #expect(ShootConsole.parseDuration(text) == nil)
    }

    @Test func progressJSONHasTheDocumentedKeys() throws {
        let progress = FrameProgress(
            position: ShootPosition(set: 2, frame: 3), setCount: 3, framesInSet: 5,
            speed: ShutterSpeed(numerator: 1, denominator: 15),
            setting: .timed(ShutterSpeed(numerator: 1, denominator: 15)), phase: .capturing, completed: 7, total: 15,
            saved: nil)
        let object = try #require(jsonObject(ShootUpdate.progress(ShootUpdate.Progress(progress)).jsonLine))
        #expect(
            Set(object.keys) == [
                "event", "set", "frame", "sets", "framesInSet", "speed", "setting", "phase", "completed", "total",
                "fired", "inCamera"
            ])
        #expect(object["phase"] as? String == "capturing")
        #expect(object["speed"] as? String == "1/15")
    }

    @Test func plainProgressIsOneLinePerEvent() {
        let output = CapturedOutput()
        let view = ShootProgressView(style: .plain, output: output, plan: Self.threeByFive, overhead: 0.25)
        view.show(.started(position: .start, completed: 0, total: 15))
        view.show(.paused(PauseReason(.user)))
        view.show(.reconnecting(attempt: 2, delay: .seconds(5)))
        #expect(
            output.standardOutput == """
                Shooting from set 1, frame 1 (0 of 15 exposures already saved)
                Paused; press space or p to continue, q to stop
                Reconnecting in 5 s (attempt 2)

                """)
    }

    @Test func reconnectMessagesAreOneFlatLineEach() throws {
        let output = CapturedOutput()
        let view = ShootProgressView(style: .plain, output: output, plan: Self.threeByFive, overhead: 0.25)
        let refused = SonyCameraError.connectFailed(
            address: "192.168.122.1:15740", attempts: 1, last: .connectionRefused(address: "192.168.122.1:15740"))
        view.show(.reconnectFailed(attempt: 2, error: refused))
        #expect(output.standardOutput == "Reconnect attempt 2 failed: no answer (connection refused)\n")

        let state = try TemporaryFolder(prefix: "hdrshoot-run").url
        defer { try? FileManager.default.removeItem(at: state) }
        let options = ShootConsole.Options(
            target: nil, confirm: true, json: false, store: JournalStore(directory: state),
            reconnectTimeout: .seconds(300),
            interactive: false, liveOutput: false)
        let result = ShootResult(
            saved: 7, total: 15, savedThisRun: 7, resumePosition: ShootPosition(set: 2, frame: 3),
            stopReason: .reconnectGaveUp(attempts: 12, lastError: refused))
        let ended = CapturedOutput()
        _ = ShootConsole.report(result, outputDirectory: "/photos/shoot", options: options, output: ended)
        #expect(
            ended.standardError == "error: lost the camera and could not reconnect within 5 min after 12 attempts "
                + "(last: connection refused); check that the camera is on and in 'Ctrl w/ Smartphone'; `hdrshoot resume` "
                + "will continue once the camera is back\n")
    }

    @Test func badCameraAddressIsAUsageError() async {
        let run = await runCLI(["run", "--shadow", "1", "--highlight", "1/1000", "--camera", "my camera", "--confirm"])
        #expect(run.exitCode == 64)
        #expect(run.errorLines.first?.hasPrefix("error: 'my camera' is not a camera address") == true)
    }

    @Test func badReconnectTimeoutIsAUsageError() async {
        let run = await runCLI(["run", "--shadow", "1", "--highlight", "1/1000", "--reconnect-timeout", "soon"])
        #expect(run.exitCode == 64)
        #expect(
            run.errorLines.first == "error: --reconnect-timeout: 'soon' is not a duration; write it like 90s, 5m or 1h")
    }

    @Test(arguments: [
        (["--buffer", "0"], "error: --buffer: '0' is not a buffer size; give a whole number of frames from 1 to 999"),
        (
            ["--buffer", "lots"],
            "error: --buffer: 'lots' is not a buffer size; give a whole number of frames from 1 to 999"
        ),
        (["--transfer", "raw"], "error: --transfer: 'raw' is not a transfer choice; use all, jpeg or none")
    ])
    func badBufferOrTransferIsAUsageErrorBeforeConnecting(flags: [String], message: String) async {
        let run = await runCLI(["run", "--shadow", "1", "--highlight", "1/1000", "--confirm"] + flags)
        #expect(run.exitCode == 64)
        #expect(run.errorLines.first.map(String.init) == message, "\(run.standardError)")
    }

    @Test func runDoesNotTakeRestartSet() async {
        let run = await runCLI(["run", "--shadow", "1", "--highlight", "1/1000", "--restart-set"])
        #expect(run.exitCode == 64)
    }

    @Test func resumeWithNothingToResumeSaysSo() async throws {
        let state = try TemporaryFolder(prefix: "hdrshoot-run").url
        defer { try? FileManager.default.removeItem(at: state) }
        let run = await runCLI(["resume", "--confirm", "--state-dir", state.path])
        #expect(run.exitCode == 1)
        #expect(
            run.standardError
                == "error: there is no unfinished shoot in \(state.path) to resume; start one with `hdrshoot run`\n")
    }

    @Test func statusWithoutShootsSaysSo() async throws {
        let state = try TemporaryFolder(prefix: "hdrshoot-run").url
        defer { try? FileManager.default.removeItem(at: state) }
        #expect(
            await runCLI(["status", "--state-dir", state.path]).standardOutput
                == "No shoot recorded in \(state.path).\n")
        #expect(
            await runCLI(["status", "--json", "--state-dir", state.path]).standardOutput
                == "{\"state\":\"none\",\"stateDirectory\":\"\(state.path)\"}\n")
    }

    @Test func statusOfADamagedJournalIsOneClearLine() async throws {
        let state = try TemporaryFolder(prefix: "hdrshoot-run").url
        defer { try? FileManager.default.removeItem(at: state) }
        let path = state.appendingPathComponent("20261122-000000-abcd.json").path
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: path))
        let run = await runCLI(["status", "--state-dir", state.path])
        #expect(run.exitCode == 1)
        #expect(
            run.standardError
                == "error: the shoot journal \(path) is damaged or was edited, so it was left untouched; move it aside to continue\n"
        )
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{ not json")
    }

    @Test func statusReportsAStoppedShootFromItsJournal() async throws {
        let state = try TemporaryFolder(prefix: "hdrshoot-run").url
        defer { try? FileManager.default.removeItem(at: state) }
        let store = JournalStore(directory: state)
        var journal = ShootJournal(
            id: "20261122-000000-abcd", plan: Self.threeByFive,
            camera: CameraIdentity(model: "ILCE-7M3", address: "192.168.122.1:15740"),
            outputDirectory: "/photos/shoot")
        for position in Self.threeByFive.positions.prefix(7) {
            journal.updateFrame(at: position) { $0.state = .done(images: [], at: Date()) }
        }
        journal.updateFrame(at: ShootPosition(set: 2, frame: 3)) { $0.state = .inFlight(since: Date()) }
        journal.status = .stopped(.reconnectGaveUp)
        try await store.create(journal)
        let text = await runCLI(["status", "--state-dir", state.path])
        #expect(text.exitCode == 0)
        #expect(text.standardOutput.contains("State:     stopped (the camera could not be reconnected)"))
        #expect(text.standardOutput.contains("Saved:     7 of 15 exposures"))
        #expect(
            text.standardOutput.contains("Resume at: set 2, frame 3 (8 remaining); run `hdrshoot resume` to continue"))
        #expect(text.standardOutput.contains("Possibly duplicated: set 2, frame 3"))
        #expect(text.standardOutput.contains("Output:    /photos/shoot"))
        let json = await runCLI(["status", "--json", "--state-dir", state.path])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["stopReason"] as? String == "reconnectGaveUp")
        #expect((object["resumePosition"] as? [String: Int]) == ["set": 2, "frame": 3])
    }

    @Test func runWithoutACameraSuggestsTheSimulator() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let result = try await sandbox.hdrshoot(
            ["run", "--shadow", "1", "--highlight", "1/1000", "--confirm"] + sandbox.shootArguments)
        #expect(result.exitCode == 64)
        #expect(
            result.errorLines.first
                == "error: no camera given and none remembered; pass --camera HOST[:PORT], or --camera simulator to try hdrshoot without a camera"
        )
    }

    @Test func runWithAnUnreachableCameraExits69() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Port 1 on loopback refuses at once. The binary goes through its real retries, on a short schedule
        // (the default 2, 5 and 10 s are checked in virtual time by ConnectBackoffTests).
        let result = try await sandbox.hdrshoot(
            ["run", "--shadow", "1", "--highlight", "1/1000", "--confirm", "--camera", "127.0.0.1:1"]
                + sandbox.shootArguments,
            environment: ["HDRSHOOT_CONNECT_BACKOFF": "0.1s,0.2s,0.3s"])
        #expect(result.exitCode == 69)
        #expect(result.errorLines.count == 1)
        #expect(
            result.standardError.hasPrefix("error: could not connect to the camera at 127.0.0.1:1 after 4 attempts"))
        // Never silent: whom it waits for, then every retry with its wait, as they happen.
        #expect(
            result.standardOutput == """
                3 sets, 15 exposures. Longest exposure: 4". Estimated time: ~12 s.
                Connecting to 127.0.0.1:1…
                no answer (connection refused); trying again in 0.1 s (attempt 2 of 4)
                no answer (connection refused); trying again in 0.2 s (attempt 3 of 4)
                no answer (connection refused); trying again in 0.3 s (attempt 4 of 4)

                """)
    }

    @Test func aBadConnectScheduleIsAUsageErrorBeforeAnyAttempt() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let result = try await sandbox.hdrshoot(
            ["run", "--shadow", "1", "--highlight", "1/1000", "--confirm", "--camera", "127.0.0.1:1"]
                + sandbox.shootArguments,
            environment: ["HDRSHOOT_CONNECT_BACKOFF": "2s,soon"])
        #expect(result.exitCode == 64)
        let expected =
            "error: HDRSHOOT_CONNECT_BACKOFF='2s,soon' is not a list of waits between connection attempts; "
            + "write it like 2s,5s,10s (each at most 10m), or unset it"
        #expect(result.errorLines.first.map(String.init) == expected)
        #expect(!result.standardOutput.contains("Connecting"))
    }

    @Test func simulatorCameraShootsWithoutHardware() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let result = try await sandbox.hdrshoot(
            ["run", "--shadow", "1/250", "--highlight", "1/1000", "--frames", "3", "--camera", "simulator", "--confirm"]
                + sandbox.shootArguments)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Camera: ILCE-7M3 at simulator"))
        #expect(result.standardOutput.contains("Complete: 3 of 3 exposures saved"))
        let status = try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory])
        #expect(status.standardOutput.contains("\"state\":\"complete\""))
    }
}
