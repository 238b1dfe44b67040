import Foundation
import TestSupport
import Testing

/// The built binary against `hdrshoot simulate` with quirks of real bodies: each shoot completes with
/// every planned frame fired exactly once.
@Suite(.realTime(timeLimit: .seconds(180)), .serialized)
struct EndToEndFieldTests {
    @Test func aBodyThatDropsTheLinkAfterThreeSilentSecondsShootsAFourSecondWaitInOneRelease() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // 4 s of processing after the release: a client that stays silent meanwhile loses the link (and, reconnecting,
        // could fire the frame again and again); the keepalive keeps it. A one-image body (busy-while-buffered)
        // answers the early-release check's second press busy while it processes.
        let command = ["run", "--shadow", "1/250", "--highlight", "1/250", "--confirm"] + sandbox.shootArguments
        let (result, fired) = try await sandbox.withSimulator(
            processingMilliseconds: 4000, extra: ["--quirk", "idle-drop:3", "--quirk", "busy-while-buffered"]
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
        let quirks = "no-events,startup-nofire:3,d215-lag,busy-at-start:2"
        // Three times faster on both sides (`ScaledTime`): the body ignores releases for its first second, hdrshoot
        // releases about 0.5 s in (after two busy answers) and waits its processing margin (3.3 s) for a sign
        // before it presses again; a tenfold scale would leave under 0.2 s between the release and the window's end.
        let (result, fired) = try await sandbox.withSimulator(
            extra: ["--quirk", quirks] + ScaledTime.simulatorArguments(factor: 3)
        ) { port in
            try await sandbox.hdrshoot(
                command + ["--camera", "127.0.0.1:\(port)"], environment: ScaledTime.environment(factor: 3))
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        #expect(result.standardOutput.contains("ignored the first shutter release"))
        #expect(fired == ThreeByFive.labels)
    }

    @Test(arguments: [
        ["--quirk", "lists-captured-event-without-sending"], ["--quirk", "no-d215"], ["--quirk", "no-d215,no-events"],
        ["--protocol", "2", "--mode", "S", "--quirk", "mode-u16"]
    ])
    func aBodyUnlikeTheReferenceShootsEveryFrameOnceWithEveryFileUnderItsFrame(body: [String]) async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command = ["run"] + ThreeByFive.flags + ["--confirm"] + sandbox.shootArguments
        let (result, fired) = try await sandbox.withSimulator(extra: body) { port in
            try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"])
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
