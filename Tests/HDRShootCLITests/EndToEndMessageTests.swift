import Foundation
import Glibc
import TestSupport
import Testing

/// Messages a photographer meets (a file in the output path, a speed Sony writes differently, another machine's
/// address, no shoot yet, a run that never fired), each as the built binary prints it.
@Suite("Messages a photographer meets (built binary)", .realTime, .serialized)
struct EndToEndMessageTests {
    @Test func anOutputPathThroughAFileSaysWhichPartIsAFile() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let file = sandbox.root.appendingPathComponent("notes.txt").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let result = try await sandbox.hdrshoot([
            "run", "--shadow", "1/250", "--highlight", "1/1000", "--frames", "3", "--camera", "simulator", "--confirm",
            "--state-dir", sandbox.stateDirectory, "--output", file + "/out"
        ])
        #expect(result.exitCode == 1)
        #expect(
            result.standardError
                == "error: cannot create the output folder \(file)/out: '\(file)' is a file, not a folder\n")
    }

    @Test func aWholeNumberPastThirtySecondsSuggestsTheFastSpeedSonyScreensShow() async throws {
        let result = try await ShootSandbox().hdrshoot(["plan", "--shadow", "1", "--highlight", "250"])
        #expect(result.exitCode == 64)
        let expected =
            "error: --highlight: '250' is longer than 30\", the longest timed speed; "
            + "write 250\" for a bulb exposure of 250 seconds or 1/250 for a fast speed"
        #expect(result.errorLines.first.map(String.init) == expected)
        // Written in seconds, it means seconds: a bulb exposure (snapped to the nearest stop), no fast-speed guess.
        let seconds = try await ShootSandbox().hdrshoot(["plan", "--shadow", "250s", "--highlight", "1/1000"])
        #expect(seconds.exitCode == 0)
        #expect(seconds.standardOutput.contains("warning: --shadow 250s is not a 1/3-stop speed; using 4'"))
        #expect(!seconds.standardOutput.contains("1/250 for a fast speed"))
    }

    @Test func aSimulatorOnAnAddressOfAnotherMachineSaysSoWithoutSendingAnything() async throws {
        // Binding to an address this machine does not have fails at once (EADDRNOTAVAIL); no packet leaves.
        let result = try await ShootSandbox().hdrshoot(["simulate", "--host", "10.1.2.3", "--port", "0"])
        #expect(result.exitCode == 64)
        #expect(
            result.errorLines.first
                == "error: cannot listen on 10.1.2.3: that address is not on this machine; use 127.0.0.1 (this machine only) or one of its own addresses"
        )
    }

    @Test func statusJSONWithoutAnyShootIsAnObjectSayingNone() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let result = try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory])
        #expect(result.exitCode == 0)
        let object = try #require(jsonObject(result.standardOutput))
        #expect(object["state"] as? String == "none")
    }

    @Test func aRunStoppedBeforeItsFirstFrameLeavesNoFolderAndResumeMakesItAgain() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Every speed change answers "busy": the first frame stops before its shutter could fire. On the time-scale
        // hook (`ScaledTime`) the pauses before each retry are a tenth; their number stays.
        let (stopped, _) = try await sandbox.withSimulator(
            faults: ["busy:0x9205:100"], extra: ScaledTime.simulatorArguments
        ) { port in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"] + sandbox.shootArguments,
                environment: ScaledTime.environment)
        }
        #expect(stopped.exitCode == 75, "\(stopped.standardError)")
        #expect(stopped.standardOutput.contains("0 of 15 exposures saved"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.outputDirectory))
        #expect(!stopped.standardOutput.contains("Images and manifest.json"))
        let (resumed, fired) = try await sandbox.withSimulator { port in
            try await sandbox.hdrshoot([
                "resume", "--confirm", "--camera", "127.0.0.1:\(port)", "--state-dir", sandbox.stateDirectory
            ])
        }
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(resumed.standardError.isEmpty, "\(resumed.standardError)")
        #expect(fired.count == 15)
        #expect(try (sandbox.manifest()["frames"] as? [[String: Any]])?.count == 15)
    }

    @Test func aRunWhoseJournalCannotBeKeptLeavesNoFolder() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let file = sandbox.root.appendingPathComponent("state-is-a-file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let result = try await sandbox.hdrshoot([
            "run", "--shadow", "1/250", "--highlight", "1/1000", "--frames", "3", "--camera", "simulator", "--confirm",
            "--state-dir", file + "/state", "--output", sandbox.outputDirectory
        ])
        #expect(result.exitCode != 0)
        #expect(result.errorLines.count == 1, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.outputDirectory))
    }
}
