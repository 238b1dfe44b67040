import Foundation
import Glibc
import TestSupport
import Testing

/// `hdrshoot run --every` (interval HDR) and its `resume`, as built binaries against `hdrshoot simulate`.
///
/// The schedules run on the time-scale hook (`ScaledTime`, 10 times faster, or 20 where nothing reads a start time
/// across two processes): a series every 10 s starts its repetitions a real second (half a second) apart, and the
/// manifest records them 10 s apart. Real-clock starts are checked in
/// process by `SeriesRunnerRealClockTests`.
@Suite("End-to-end interval series (built binary against hdrshoot simulate)", .realTime, .serialized)
struct SeriesEndToEndTests {
    /// 3 frames, 2 EV apart: 1/1000, 1/250, 1/60.
    static let flags = ["--shadow", "1/60", "--highlight", "1/1000", "--frames", "3", "--ev", "2"]
    static let labels = ["1/1000", "1/250", "1/60"]
    /// The time scale of the tests that only let a schedule run (no start time read across two processes): 20
    /// times, as the Camera Remote API's series test; a 3-frame repetition takes well under its real interval.
    static let fast = 20
    /// The time scale of the resumes that skip missed starts: they wait for repetition 4 (30 s after the first
    /// start), 2 real seconds at 15 times; the stopped run and the resume have until then, the resume 0.65 s of it
    /// after the test's wait (at 10 times it was 3 s, and 0.5 s after a wait until halfway between 3 and 4).
    static let skipScale = 15

    @Test func threeRepetitionsEveryTenSecondsGoToTheirOwnFoldersAndTheManifestListsTheirStarts() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Twenty times faster (`Self.fast`): the repetitions start half a real second apart.
        let (result, fired) = try await sandbox.withSimulator(extra: ScaledTime.simulatorArguments(factor: Self.fast)) {
            port in
            try await sandbox.hdrshoot(
                ["run"] + Self.flags + [
                    "--every", "10s", "--count", "3", "--camera", "127.0.0.1:\(port)", "--confirm",
                    "--no-network-monitor"
                ]
                    + sandbox.shootArguments, environment: ScaledTime.environment(factor: Self.fast))
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Series: 3 repetitions every 10 s"))
        #expect(result.standardOutput.contains("Each repetition fits its interval"))
        // The simulated body reports its battery (0xD218) and the shots left on its card (0xD249).
        #expect(result.standardOutput.contains("Battery and card: battery 100 %, card: 9999 shots left (9 exposures)."))
        #expect(result.standardOutput.contains("Series complete: 3 repetition(s) done."))
        let status = try await sandbox.hdrshoot(["status", "--state-dir", sandbox.stateDirectory])
        #expect(
            status.standardOutput.contains("Series:    every 10 s, repetition 3 of 3 done (3 done, 0 skipped)"),
            "\(status.standardOutput)")
        #expect(fired == Self.labels + Self.labels + Self.labels)
        for number in 1...3 {
            let folder = sandbox.outputDirectory + "/rep-00\(number)/set-01"
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".JPG") }
            #expect(files.count == 3, "\(folder): \(files)")
            #expect(FileManager.default.fileExists(atPath: sandbox.outputDirectory + "/rep-00\(number)/manifest.json"))
        }
        let manifest = try sandbox.manifest()
        #expect(manifest["status"] as? String == "complete")
        #expect(manifest["everySeconds"] as? Double == 10)
        let repetitions = try #require(manifest["repetitions"] as? [[String: Any]])
        #expect(repetitions.map { $0["folder"] as? String } == ["rep-001", "rep-002", "rep-003"])
        #expect(repetitions.allSatisfy { $0["state"] as? String == "done" && $0["saved"] as? Int == 3 })
        // The series manifest's keys, and each finished repetition's (all of them known once it ended).
        #expect(
            Set(manifest.keys) == [
                "shoot", "camera", "everySeconds", "end", "firstStart", "shiftEV", "status", "repetitions"
            ])
        #expect(manifest["end"] as? [String: Int] == ["count": 3])
        #expect(
            repetitions.allSatisfy {
                Set($0.keys) == [
                    "number", "state", "timing", "plannedStart", "actualStart", "endedAt", "folder", "exposures",
                    "saved", "startDriftSeconds"
                ]
            })
        let planned = try repetitions.map { try #require(($0["plannedStart"] as? String).flatMap(Self.date)) }
        #expect(planned[1].timeIntervalSince(planned[0]) == 10 && planned[2].timeIntervalSince(planned[1]) == 10)
        let actual = try repetitions.map { try #require(($0["actualStart"] as? String).flatMap(Self.date)) }
        #expect(zip(actual, planned).allSatisfy { $0 >= $1 })
        print(
            "series drift, scaled time (x\(Self.fast)), 3 repetitions every 10s (ms):",
            zip(actual, planned).map { Int(($0.timeIntervalSince($1) * 1000).rounded()) })
    }

    @Test func fiveRealRepetitionsStartOnTheirSchedule() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Twenty times faster (`Self.fast`): a quarter of a real second apart.
        let (result, fired) = try await sandbox.withSimulator(extra: ScaledTime.simulatorArguments(factor: Self.fast)) {
            port in
            try await sandbox.hdrshoot(
                ["run"] + Self.flags + [
                    "--every", "5s", "--count", "5", "--camera", "127.0.0.1:\(port)", "--confirm",
                    "--no-network-monitor"
                ]
                    + sandbox.shootArguments, environment: ScaledTime.environment(factor: Self.fast))
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(fired.count == 15)
        let repetitions = try #require(try sandbox.manifest()["repetitions"] as? [[String: Any]])
        #expect(repetitions.count == 5)
        let drifts = repetitions.compactMap { $0["startDriftSeconds"] as? Double }
        let timings = repetitions.compactMap { $0["timing"] as? String }
        #expect(drifts.count == 5 && drifts.allSatisfy { $0 >= 0 })
        print(
            "series drift, scaled time (x\(Self.fast)), 5 repetitions every 5s (ms):",
            drifts.map { Int(($0 * 1000).rounded()) }, timings)
    }

    @Test func aFullCardPausesTheSeriesWithAClearMessage() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Room for one repetition of 3 frames.
        let (stopped, fired) = try await sandbox.withSimulator(
            extra: ["--card-shots", "3"] + ScaledTime.simulatorArguments
        ) { port in
            let arguments =
                ["run"] + Self.flags + [
                    "--every", "2s", "--count", "2", "--camera", "127.0.0.1:\(port)", "--confirm",
                    "--no-network-monitor"
                ] + sandbox.shootArguments
            return try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(), arguments: arguments,
                environment: sandbox.environment.merging(ScaledTime.environment) { $1 }
            ) { run in
                let line = try await run.waitForLine { $0.contains("memory card is full") }
                run.send(SIGINT)
                return (line, await run.waitForExit(timeout: .seconds(30)))
            }
        }
        #expect(stopped.0.contains("the memory card is full (0 shots left, 3 needed)"), "\(stopped.0)")
        #expect(stopped.1 == 75)
        #expect(fired == Self.labels)
    }

    /// Runs a series of `count` repetitions every 10 s on the real clock (so the stop surely comes before
    /// repetition 2, however loaded the host) and stops it (SIGINT) while it waits for repetition 2; returns the
    /// exit code.
    static func stopWhileWaitingForRepetitionTwo(
        sandbox: ShootSandbox, port: UInt16, count: Int
    ) async throws -> Int32 {
        let arguments =
            ["run"] + flags + [
                "--every", "10s", "--count", "\(count)", "--camera", "127.0.0.1:\(port)", "--confirm",
                "--no-network-monitor", "--json"
            ] + sandbox.shootArguments
        return try await BackgroundProcess.with(
            try ProcessRunner.hdrshootBinary(), arguments: arguments, environment: sandbox.environment
        ) { run in
            _ = try await run.waitForLine { jsonObject($0)?["event"] as? String == "waiting" }
            run.send(SIGINT)
            return await run.waitForExit(timeout: .seconds(30))
        }
    }

    /// Sleeps until `seconds` of real time after the series' first start (repetition 1's planned start in the
    /// manifest the stopped run wrote): whatever the stop took, the resume then reads the same point of the
    /// schedule.
    static func sleep(untilSecondsAfterTheFirstStart seconds: Double, sandbox: ShootSandbox) async throws {
        let repetitions = try #require(try sandbox.manifest()["repetitions"] as? [[String: Any]])
        let text = try #require(repetitions.first?["plannedStart"] as? String)
        let first = try #require(date(text))
        let left = first.addingTimeInterval(seconds).timeIntervalSinceNow
        if left > 0 { try await Task.sleep(for: .seconds(left)) }
    }

    @Test func aSeriesStoppedBetweenRepetitionsResumesSkippingTheMissedStarts() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let ((stopped, resumed), fired) = try await sandbox.withSimulator { port in
            let stopped = try await Self.stopWhileWaitingForRepetitionTwo(sandbox: sandbox, port: port, count: 4)
            // The resume reads the schedule 15 times faster (`skipScale`): 1.35 s after the first start is 20.25 s,
            // so repetitions 2 and 3 (10 s and 20 s) passed while hdrshoot was away, and 4 (30 s, 2 real seconds
            // after the first start) is 0.65 s ahead.
            try await Self.sleep(untilSecondsAfterTheFirstStart: 1.35, sandbox: sandbox)
            let resumed = try await sandbox.hdrshoot(
                ["resume", "--confirm", "--skip-missed", "--no-network-monitor", "--state-dir", sandbox.stateDirectory],
                environment: ScaledTime.environment(factor: Self.skipScale))
            return (stopped, resumed)
        }
        #expect(stopped == 75)
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(resumed.standardOutput.contains("skipped (--skip-missed)"))
        #expect(fired == Self.labels + Self.labels)
        let repetitions = try #require(try sandbox.manifest()["repetitions"] as? [[String: Any]])
        #expect(repetitions.map { $0["state"] as? String } == ["done", "skipped", "skipped", "done"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.outputDirectory + "/rep-002"))
        #expect(FileManager.default.fileExists(atPath: sandbox.outputDirectory + "/rep-004/set-01"))
    }

    /// On a terminal, without --confirm or --skip-missed, the resume asks (the controller's question) and the
    /// photographer's `s` skips the passed starts like --skip-missed.
    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func onATerminalTheMissedStartsAreAQuestionAndSSkipsThem() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let ((stopped, resumed), fired) = try await sandbox.withSimulator { port in
            let stopped = try await Self.stopWhileWaitingForRepetitionTwo(sandbox: sandbox, port: port, count: 4)
            // As above: at 20.25 s (scaled), repetitions 2 and 3 passed and 4 is ahead.
            try await Self.sleep(untilSecondsAfterTheFirstStart: 1.35, sandbox: sandbox)
            let resumed = try await EndToEndShootControlTests.onTerminal(
                sandbox, ["resume", "--no-network-monitor", "--state-dir", sandbox.stateDirectory], typing: "s\ny\n",
                environment: ScaledTime.environment(factor: Self.skipScale))
            return (stopped, resumed)
        }
        #expect(stopped == 75)
        #expect(resumed.exitCode == 0, "\(resumed.standardOutput)")
        #expect(
            resumed.standardOutput.contains(
                "Start times passed while hdrshoot was away (repetition(s) 2, 3). Shoot repetition 2 now and continue "
                    + "the schedule after it [n], or skip to the schedule [s]? "), "\(resumed.standardOutput)")
        #expect(resumed.standardOutput.contains("skipped (--skip-missed)"))
        #expect(fired == Self.labels + Self.labels)
        let repetitions = try #require(try sandbox.manifest()["repetitions"] as? [[String: Any]])
        #expect(repetitions.map { $0["state"] as? String } == ["done", "skipped", "skipped", "done"])
    }

    @Test func aSeriesResumedAfterMissedStartsShootsTheNextOneNowAndSaysItIsLate() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let ((stopped, resumed), fired) = try await sandbox.withSimulator { port in
            let stopped = try await Self.stopWhileWaitingForRepetitionTwo(sandbox: sandbox, port: port, count: 3)
            // 1.02 s after the first start, read 10 times faster, is 10.2 s: repetition 2 (10 s) passed, 3 (20 s) not
            // (just after 2 rather than halfway to 3: the schedule goes on from the late repetition 2, so the test
            // waits half a second less for the same checks).
            try await Self.sleep(untilSecondsAfterTheFirstStart: 1.02, sandbox: sandbox)
            let resumed = try await sandbox.hdrshoot(
                ["resume", "--confirm", "--no-network-monitor", "--state-dir", sandbox.stateDirectory],
                environment: ScaledTime.environment)
            return (stopped, resumed)
        }
        #expect(stopped == 75)
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(resumed.standardOutput.contains("Start times passed while hdrshoot was away (repetition(s) 2"))
        #expect(resumed.standardOutput.contains("pass --skip-missed to keep the clock times instead"))
        #expect(fired == Self.labels + Self.labels + Self.labels)
        let repetitions = try #require(try sandbox.manifest()["repetitions"] as? [[String: Any]])
        #expect(repetitions.map { $0["state"] as? String } == ["done", "done", "done"])
        #expect(repetitions[1]["timing"] as? String == "late")
        #expect(repetitions[2]["timing"] as? String == "onTime")
    }

    @Test func aHangupDoesNotEndTheSeries() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (exitCode, fired) = try await sandbox.withSimulator(extra: ScaledTime.simulatorArguments) { port in
            let arguments =
                ["run"] + Self.flags + [
                    "--every", "10s", "--count", "2", "--camera", "127.0.0.1:\(port)", "--confirm",
                    "--no-network-monitor", "--json"
                ] + sandbox.shootArguments
            return try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(), arguments: arguments,
                environment: sandbox.environment.merging(ScaledTime.environment) { $1 }
            ) { run in
                _ = try await run.waitForLine { jsonObject($0)?["event"] as? String == "waiting" }
                // The SSH session drops while the series waits for its second repetition.
                run.send(SIGHUP)
                return await run.waitForExit(timeout: .seconds(30))
            }
        }
        #expect(exitCode == 0)
        #expect(fired == Self.labels + Self.labels)
        let repetitions = try #require(try sandbox.manifest()["repetitions"] as? [[String: Any]])
        #expect(repetitions.map { $0["state"] as? String } == ["done", "done"])
    }

    @Test func seriesOptionsWithoutEveryAreAUsageError() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let result = try await sandbox.hdrshoot(
            ["run"] + Self.flags + ["--count", "3", "--camera", "simulator"] + sandbox.shootArguments)
        #expect(result.exitCode == 64)
        #expect(result.standardError.contains("--count needs --every"))
        let both = try await sandbox.hdrshoot(
            ["run"] + Self.flags + ["--every", "2m", "--count", "3", "--forever", "--camera", "simulator"]
                + sandbox.shootArguments)
        #expect(both.exitCode == 64)
        #expect(both.standardError.contains("give only one of --count, --until and --forever"))
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
