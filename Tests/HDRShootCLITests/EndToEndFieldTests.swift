import Foundation
import TestSupport
import Testing

/// The built binary against `hdrshoot simulate` with quirks of real bodies: each shoot completes with
/// every planned frame fired exactly once.
@Suite(.realTime(timeLimit: .seconds(180)), .serialized)
struct EndToEndFieldTests {
    @Test func aBodyThatDropsTheLinkAfterThreeSilentSecondsShootsALongerWaitInOneRelease() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // 3.5 s of processing after the release: a client that stays silent meanwhile loses the link at 3 s (both on
        // the body's clock, so the drop surely comes first) and, reconnecting, could fire the frame again and again;
        // the keepalive (a read after 2 s of silence) keeps it. A one-image body (busy-while-buffered) answers the
        // early-release check's second press busy while it processes.
        let command = ["run", "--shadow", "1/250", "--highlight", "1/250", "--confirm"] + sandbox.shootArguments
        let (result, fired) = try await sandbox.withSimulator(
            processingMilliseconds: 3500, extra: ["--quirk", "idle-drop:3", "--quirk", "busy-while-buffered"]
        ) { port in
            try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"])
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Complete: 1 of 1 exposures saved"))
        #expect(!result.standardOutput.contains("Reconnect"))
        #expect(fired == ["1/250"])
    }

    @Test func anAFBodyThatNeedsTimeToFocusShootsEveryFrameOnceInMF() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command = ["run"] + ThreeByFive.flags + ["--confirm"] + sandbox.shootArguments
        let (result, fired) = try await sandbox.withSimulator(extra: ["--focus", "AF-S", "--quirk", "af-lock:300"]) {
            port in
            try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"])
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("focused once (AF-S); the camera is in MF for the shoot"))
        #expect(fired == ThreeByFive.labels)
    }

    @Test func aBodyWithoutEventsThatIgnoresItsFirstReleaseAndLagsStillShootsEveryFrameOnce() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command = ["run"] + ThreeByFive.flags + ["--confirm"] + sandbox.shootArguments
        let quirks = "no-events,startup-nofire:10,d215-lag,busy-at-start:2"
        // Ten times faster on both sides (`ScaledTime`): the body ignores releases for its first 10 s, a real second,
        // hdrshoot releases about 0.2 s in (after two busy answers) and waits its processing margin (the hook's
        // 2 s floor) for a sign before it presses again, well after the window's end.
        let (result, fired) = try await sandbox.withSimulator(
            extra: ["--quirk", quirks] + ScaledTime.simulatorArguments
        ) { port in
            try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"], environment: ScaledTime.environment)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        #expect(result.standardOutput.contains("ignored the first shutter release"))
        #expect(fired == ThreeByFive.labels)
    }

    @Test func aBodyThatNeverFiresStopsAfterTwoPressesOfTheFirstFrameAndSaysNothingFiredOrWaits() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command = ["run"] + ThreeByFive.flags + ["--confirm"] + sandbox.shootArguments
        // The body answers every S2 OK and fires nothing (its start-up ignore for an hour): no event, no buffer
        // count, no image. hdrshoot presses the first frame twice at most (the second after looking for its image in
        // the camera), never a third time blind, and stops resumable saying what fired, waits and was saved.
        // Fifty times faster on both sides (`ScaledTime`), and each processing margin 0.2 s instead of the hook's
        // usual 2 s floor: nothing ever fires, so no window is too short to matter (each of the five margins the two
        // presses wait out, the body's and the runner's, is waited out in full either way).
        let (result, fired) = try await sandbox.withSimulator(
            extra: ["--quirk", "startup-nofire:3600"] + ScaledTime.simulatorArguments(factor: 50)
        ) { port in
            try await sandbox.hdrshoot(
                command + ["--camera", "127.0.0.1:\(port)"],
                environment: ScaledTime.environment(factor: 50, shortestMargin: .milliseconds(200)))
        }
        #expect(result.exitCode == 75, "\(result.standardError)")
        #expect(fired.isEmpty, "\(fired)")
        #expect(
            result.standardOutput.contains(
                "Stopped at set 1, frame 1. 0 of 15 exposures saved. Run `hdrshoot resume` to shoot the remaining 15."),
            "\(result.standardOutput)")
        #expect(
            result.standardError
                == "error: the shutter of set 1, frame 1 was pressed 2 times and the camera showed no sign of firing, "
                + "and no image of it was in the camera; not pressing it again. Check the camera's screen and card, "
                + "then run `hdrshoot resume` (it downloads what the camera holds first)\n")
    }

    @Test(arguments: [
        // A body that lists 0xC206 and never sends it: from frame 7 each release shows nothing until a file is
        // fetched behind it (after the fetch-behind grace, on the time-scale hook a tenth of its 0.5 s).
        ["--quirk", "lists-captured-event-without-sending", "--time-scale", "10"], ["--quirk", "no-d215"],
        ["--quirk", "no-d215,no-events"],
        // A 2.00 body in S whose mode is a UINT16 (its notch steps apply after 20 ms, not 200: the steps are not
        // what this case is about, and 2.00 stepping has its own tests).
        ["--protocol", "2", "--mode", "S", "--quirk", "mode-u16", "--step-delay", "20"],
        // A 2.00 body with Long Exposure NR on: 1", 2" and 4" are each followed by a dark frame (on the time-scale
        // hook, so hdrshoot's wait for each dark frame is a tenth of it, as the body's is).
        ["--protocol", "2", "--quirk", "lenr", "--time-scale", "10"],
        // A body that holds 3 images: the fourth release fires nothing until one is fetched (its evidence window,
        // the processing margin, on the time-scale hook too, and 1 s: `environmentWithOneSecondMargins`).
        ["--buffer", "3", "--time-scale", "10"]
    ])
    func aBodyUnlikeTheReferenceShootsEveryFrameOnceWithEveryFileUnderItsFrame(body: [String]) async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command = ["run"] + ThreeByFive.flags + ["--confirm"] + sandbox.shootArguments
        let environment = body.contains("--time-scale") ? ScaledTime.environmentWithOneSecondMargins : [:]
        let (result, fired) = try await sandbox.withSimulator(extra: body) { port in
            try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"], environment: environment)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        // Every planned frame fired once, in order: nothing fired blind.
        #expect(fired == ThreeByFive.labels)
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.count == 15)
        for (index, frame) in frames.enumerated() {
            let files = frame["files"] as? [String] ?? []
            #expect(frame["state"] as? String == "done" && files.count == 1, "\(frame)")
            #expect(files.allSatisfy { $0.hasPrefix("set-0\(index / 5 + 1)/") }, "\(files)")
        }
    }

    @Test func aPlanBeyondAnUnlistedShutterRangeIsSubstitutedBeforeTheQuestionNotFailedAfterIt() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // The ILCE-6000's case: 0xD20D a range of 0..0xFFFFFFFF naming no speeds, a body that reaches 1/4000, a 3x5
        // plan that reaches 1/8000. Its own state folder, so the body's record is this test's alone. Each end is
        // found by two notch steps that do not move (a 1 s read-back each, `environmentWithOneSecondMargins`).
        let environment = ScaledTime.environmentWithOneSecondMargins.merging(
            ["XDG_STATE_HOME": sandbox.root.appendingPathComponent("state-home").path]) { $1 }
        let command =
            ["run", "--shadow", "1/8", "--highlight", "1/8000", "--frames", "5", "--confirm"] + sandbox.shootArguments
        let body = ["--protocol", "2", "--max-shutter", "1/4000", "--quirk", "shutter-range"]
        let (result, fired) = try await sandbox.withSimulator(extra: body + ScaledTime.simulatorArguments) { port in
            try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"], environment: environment)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        let output = result.standardOutput
        // Stepped toward the plan's extremes (1/8000 and 0.5"), not Sony's widest series: it stops at 1/4000 (its
        // end), and the plan made again from there ends a stop slower, at 1", which it reaches.
        let probe = try #require(
            output.range(of: "stepped the shutter to see: it reaches from 1\" to 1/4000"), "\(output)")
        // `--confirm` answers the question once the summary is said; the shoot starts after it.
        let shooting = try #require(output.range(of: "Shooting from set 1"), "\(output)")
        // Found before the summary, and the summary says the plan starts at 1/4000 instead of 1/8000.
        #expect(probe.upperBound < shooting.lowerBound)
        let summary = String(output[probe.upperBound..<shooting.lowerBound])
        #expect(summary.contains("the plan starts at 1/4000 instead of the highlight reading 1/8000"), "\(summary)")
        #expect(output.contains("Complete: 15 of 15 exposures saved"), "\(output)")
        #expect(!fired.contains("1/8000") && fired.count == 15, "\(fired)")
        #expect(!result.standardError.contains("would not move"))
        // The ends found are a typed record in the run's session log.
        let shutter = try RunLogs.learned(in: try #require(try RunLogs.all(sandbox).last)).filter {
            $0["limit"] as? String == "shutterRange"
        }
        #expect(shutter.count == 1, "\(shutter)")
        #expect(
            shutter.first?["slowest"] as? String == "1\"" && shutter.first?["fastest"] as? String == "1/4000"
                && shutter.first?["source"] as? String == "probed", "\(shutter)")
        // The body's record: a second shoot does not step to the ends again, and says where the range came from.
        let (again, firedAgain) = try await sandbox.withSimulator(extra: body + ScaledTime.simulatorArguments) { port in
            try await sandbox.hdrshoot(
                [
                    "run", "--shadow", "1/8", "--highlight", "1/8000", "--frames", "5", "--confirm", "--state-dir",
                    sandbox.stateDirectory, "--output", sandbox.root.appendingPathComponent("out2").path,
                    "--camera", "127.0.0.1:\(port)"
                ], environment: environment)
        }
        #expect(again.exitCode == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("it reaches from 1\" to 1/4000, as found on an earlier shoot"))
        #expect(firedAgain.count == 30 && !firedAgain.contains("1/8000"), "\(firedAgain)")
    }

    @Test func aBufferSizeLearnedInOneShootIsKeptForTheNextShootOfThatBody() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let stateHome = sandbox.root.appendingPathComponent("state-home")
        // The first shoot waits out one release the full body takes without firing (1 s on the hook here).
        let environment = ScaledTime.environmentWithOneSecondMargins.merging(["XDG_STATE_HOME": stateHome.path]) {
            $1
        }
        let body = ["--buffer", "3"] + ScaledTime.simulatorArguments
        func shoot(_ output: String) async throws -> (ProcessResult, [String]) {
            try await sandbox.withSimulator(extra: body) { port in
                try await sandbox.hdrshoot(
                    ["run"] + ThreeByFive.flags + [
                        "--confirm", "--state-dir", sandbox.stateDirectory, "--output",
                        sandbox.root.appendingPathComponent(output).path, "--camera", "127.0.0.1:\(port)"
                    ], environment: environment)
            }
        }
        let (first, _) = try await shoot("first")
        #expect(first.exitCode == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("it holds 3; from now on only the room each release needs"))
        let record = stateHome.appendingPathComponent("hdrshoot/bodies/buffer-00000000000000003282933004190000")
        #expect(try String(contentsOf: record, encoding: .utf8) == "capacity=3\n")
        // The next shoot of the body starts from it: no release is refused, every frame fires once.
        let (second, fired) = try await shoot("second")
        #expect(second.exitCode == 0, "\(second.standardError)")
        #expect(second.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        #expect(!second.standardOutput.contains("ignored a release"), "\(second.standardOutput)")
        #expect(!second.standardOutput.contains("took no release"))
        #expect(Array(fired.suffix(15)) == ThreeByFive.labels && fired.count == 30, "\(fired)")
    }

    @Test func aBodyThatRefusesDirectSetsIsSteppedAndSaysSoOnce() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command = ["run"] + ThreeByFive.flags + ["--confirm"] + sandbox.shootArguments
        // On the time-scale hook (`ScaledTime`): the body's notch steps and hdrshoot's waits for them, ten times faster.
        let (result, fired) = try await sandbox.withSimulator(
            extra: ["--quirk", "direct-set-refused"] + ScaledTime.simulatorArguments
        ) { port in
            try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"], environment: ScaledTime.environment)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.components(separatedBy: "notch by notch").count == 2)
        #expect(fired == ThreeByFive.labels)
    }

    @Test func aShortTransferIsKeptAndMarkedInTheManifest() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command = ["run", "--shadow", "1/250", "--highlight", "1/250", "--confirm"] + sandbox.shootArguments
        let (result, fired) = try await sandbox.withSimulator(extra: ["--quirk", "transfer-short:100"]) { port in
            try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"])
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("3900 bytes arrived where the camera announced 4000"))
        #expect(fired == ["1/250"])
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        let problems = try #require(frames.first?["problems"] as? [String])
        #expect(problems.count == 1 && problems[0].contains("3900 bytes arrived"), "\(problems)")
        let file = try #require((frames.first?["files"] as? [String])?.first)
        let size = try FileManager.default.attributesOfItem(atPath: sandbox.outputDirectory + "/" + file)[.size] as? Int
        #expect(size == 3900)
    }
}
