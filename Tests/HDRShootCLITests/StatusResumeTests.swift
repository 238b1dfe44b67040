import Foundation
import TestSupport
import Testing

@testable import HDRShootCLI
@testable import Shooting

/// `status` and `resume` choose the same shoot; `status` lists the unfinished ones and who shoots what;
/// `resume --id` picks one.
@Suite("status and resume agree (built binary)", .realTime)
struct StatusResumeTests {
    /// Records a shoot of the 3 × 5 plan in `store` with its first `saved` frames saved.
    static func record(
        _ id: String, saved: Int, status: ShootJournal.Status, output: String, address: String, in store: JournalStore
    ) async throws {
        let plan = RunCommandTests.threeByFive
        var journal = ShootJournal(
            id: id, plan: plan, camera: CameraIdentity(model: "ILCE-7M3", address: address), outputDirectory: output)
        for position in plan.positions.prefix(saved) {
            journal.updateFrame(at: position) { $0.state = .done(images: [], at: Date()) }
        }
        journal.status = status
        try await store.create(journal)
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    }

    @Test func statusShowsTheLatestListsTheUnfinishedAndResumeIdContinuesTheOneAsked() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let store = JournalStore(directory: URL(fileURLWithPath: sandbox.stateDirectory))
        let older = "20261120-080000-aaaa", newer = "20261121-080000-bbbb", latest = "20261122-080000-cccc"
        let folder = { (id: String) in sandbox.root.appendingPathComponent(id).path }
        let ((status, json, resumed, after), fired) = try await sandbox.withSimulator { port in
            let address = "127.0.0.1:\(port)"
            try await Self.record(
                older, saved: 12, status: .stopped(.stopRequested), output: folder(older), address: address, in: store)
            try await Self.record(
                newer, saved: 3, status: .stopped(.reconnectGaveUp), output: folder(newer), address: address, in: store)
            try await Self.record(
                latest, saved: 15, status: .complete, output: folder(latest), address: address, in: store)
            let status = try await sandbox.hdrshoot(["status", "--state-dir", sandbox.stateDirectory])
            let json = try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory])
            let resumed = try await sandbox.hdrshoot([
                "resume", "--id", older, "--confirm", "--state-dir", sandbox.stateDirectory
            ])
            return (
                status, json, resumed,
                try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory])
            )
        }
        #expect(status.exitCode == 0)
        #expect(status.standardOutput.contains("Shoot:     \(latest)\nState:     complete\n"))
        #expect(
            status.standardOutput.contains(
                "Unfinished shoots (newest first; `hdrshoot resume` continues the first, `hdrshoot resume --id ID` any):\n"
                    + "  \(newer)  3 of 15  stopped (the camera could not be reconnected)  \(folder(newer))\n"
                    + "  \(older)  12 of 15  stopped (you stopped it)  \(folder(older))\n"))
        let object = try #require(jsonObject(json.standardOutput))
        #expect(object["id"] as? String == latest)
        #expect(object["shootingPid"] is NSNull)
        #expect((object["unfinished"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [newer, older])
        // `resume --id` shot the older shoot's three remaining frames into its own folder.
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(
            resumed.standardOutput.contains(
                "Shoot \(older): 12 of 15 exposures saved; 3 to shoot from set 3, frame 3."))
        #expect(fired == Array(ThreeByFive.labels[12...]))
        #expect(OutputFolderTests.listing(folder(older) + "/set-03").filter { $0.hasSuffix(".JPG") }.count == 3)
        let remaining = try #require(jsonObject(after.standardOutput)?["unfinished"] as? [[String: Any]])
        #expect(remaining.compactMap { $0["id"] as? String } == [newer])
    }

    @Test func resumeWithoutIdTakesTheNewestUnfinishedAndSaysOlderOnesExist() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let store = JournalStore(directory: URL(fileURLWithPath: sandbox.stateDirectory))
        try await Self.record(
            "20261120-080000-aaaa", saved: 2, status: .inProgress,
            output: sandbox.root.appendingPathComponent("a").path, address: "127.0.0.1:1", in: store)
        try await Self.record(
            "20261121-080000-bbbb", saved: 14, status: .stopped(.stopRequested), output: sandbox.outputDirectory,
            address: "127.0.0.1:1", in: store)
        let (resumed, _) = try await sandbox.withSimulator { port in
            try await sandbox.hdrshoot([
                "resume", "--confirm", "--camera", "127.0.0.1:\(port)", "--state-dir", sandbox.stateDirectory
            ])
        }
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(resumed.standardOutput.contains("Shoot 20261121-080000-bbbb: 14 of 15 exposures saved"))
        #expect(
            resumed.standardOutput.contains(
                "note: 1 older unfinished shoot too; `hdrshoot status` lists them, `hdrshoot resume --id ID` picks one\n"
            ))
    }

    /// Every frame saved but the shoot not marked complete (the process died at the very end): ShootKit's choice
    /// is "all saved", and the terminal says so in one line and exits 0 without reaching for the camera (its
    /// address is a port nothing listens on).
    @Test func resumeOfABracketWithEveryFrameSavedSaysNothingIsLeftToShoot() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let store = JournalStore(directory: URL(fileURLWithPath: sandbox.stateDirectory))
        try await Self.record(
            "20261122-080000-dddd", saved: 15, status: .inProgress, output: sandbox.outputDirectory,
            address: "127.0.0.1:1", in: store)
        let resumed = try await sandbox.hdrshoot(["resume", "--confirm", "--state-dir", sandbox.stateDirectory])
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(resumed.standardOutput == "Nothing left to shoot: all 15 exposures are saved.\n")
        #expect(resumed.standardError.isEmpty)
    }

    @Test func resumeIdOfAnUnknownOrFinishedShootSaysSo() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let store = JournalStore(directory: URL(fileURLWithPath: sandbox.stateDirectory))
        try await Self.record(
            "20261122-080000-cccc", saved: 15, status: .complete, output: sandbox.outputDirectory,
            address: "127.0.0.1:1", in: store)
        let unknown = try await sandbox.hdrshoot([
            "resume", "--id", "nope", "--confirm", "--state-dir", sandbox.stateDirectory
        ])
        #expect(unknown.exitCode == 1)
        #expect(
            unknown.errorLines == [
                "error: there is no shoot nope in \(sandbox.stateDirectory); `hdrshoot status` lists the unfinished ones"
            ])
        let finished = try await sandbox.hdrshoot([
            "resume", "--id", "20261122-080000-cccc", "--confirm", "--state-dir", sandbox.stateDirectory
        ])
        #expect(finished.exitCode == 1)
        #expect(
            finished.errorLines == ["error: shoot 20261122-080000-cccc is complete; there is nothing left to shoot"])
    }

    @Test func statusSaysWhichProcessIsShootingTheShoot() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // The run is stopped (SIGSTOP) as its first frame starts, with the whole shoot still to go on a slow link,
        // while the test asks for the status, so it is still shooting whatever the host's load (stopped at its first
        // saved frame, a loaded host let it finish the bracket first); it continues (SIGCONT) on a link made fast
        // again and completes afterwards.
        let ((text, json, runPID, exit), _) = try await sandbox.withSimulatorInProcess({
            $0.roundTripDelay = .milliseconds(20)
        }) { simulator in
            let arguments =
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(simulator.port)", "--confirm", "--json"]
                + sandbox.shootArguments
            return try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(), arguments: arguments, environment: sandbox.environment
            ) { run in
                _ = try await run.waitForLine(timeout: .seconds(120)) {
                    jsonObject($0)?["event"] as? String == "started"
                }
                kill(run.pid, SIGSTOP)
                let text = try await sandbox.hdrshoot(["status", "--state-dir", sandbox.stateDirectory])
                let json = try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory])
                await simulator.setRoundTripDelay(.zero)
                kill(run.pid, SIGCONT)
                return (text, json, run.pid, await run.waitForExit(timeout: .seconds(120)))
            }
        }
        #expect(exit == 0)
        #expect(
            text.standardOutput.contains("State:     in progress, being shot by pid \(runPID) right now\n"),
            "\(text.standardOutput)")
        #expect(!text.standardOutput.contains("Resume at:"))
        let object = try #require(jsonObject(json.standardOutput))
        #expect(object["shootingPid"] as? Int == Int(runPID))
        #expect((object["unfinished"] as? [[String: Any]])?.first?["shootingPid"] as? Int == Int(runPID))
    }
}
