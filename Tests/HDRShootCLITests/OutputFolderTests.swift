import Foundation
import Glibc
import ShootKit
import TestSupport
import Testing

@testable import HDRShootCLI
@testable import Shooting

/// One shoot per output folder, manifests never mixed or downgraded, and set folders ready to merge.
@Suite("output folders and manifests (built binary)", .realTime)
struct OutputFolderTests {
    /// Every file under `directory`, relative, sorted.
    static func listing(_ directory: String) -> [String] {
        (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func aSecondRunIntoAFinishedShootsFolderIsRefusedAndLeavesItAsItWas() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command = ["run"] + ThreeByFive.flags + ["--confirm"] + sandbox.shootArguments
        let ((first, before, second), fired) = try await sandbox.withSimulator { port in
            let first = try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"])
            let before = try Data(
                contentsOf: URL(fileURLWithPath: sandbox.outputDirectory).appendingPathComponent("manifest.json"))
            return (first, before, try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"]))
        }
        #expect(first.exitCode == 0, "\(first.standardError)")
        let id = try #require(try sandbox.manifest()["shoot"] as? String)
        #expect(second.exitCode == 64)
        #expect(
            second.errorLines == [
                "error: the folder \(sandbox.outputDirectory) already holds the finished shoot \(id); pass --output with a new folder",
                "Run 'hdrshoot run --help' for usage."
            ])
        // Refused before the camera: nothing fired, no copies beside the first shoot's files, manifest untouched.
        #expect(fired == ThreeByFive.labels)
        #expect(Self.listing(sandbox.outputDirectory).filter { $0.hasSuffix(".JPG") }.count == 15)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: sandbox.outputDirectory).appendingPathComponent("manifest.json"))
                == before)
    }

    @Test func aRunIntoAnUnfinishedShootsFolderPointsToResumeOfThatShoot() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command = ["run"] + ThreeByFive.flags + ["--confirm"] + sandbox.shootArguments
        let (stopped, _) = try await sandbox.withSimulator(faults: ["mode-at-frame:3:A"]) { port in
            try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"])
        }
        #expect(stopped.exitCode == 75)
        let id = try #require(try sandbox.manifest()["shoot"] as? String)
        let again = try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:1"])
        #expect(again.exitCode == 64)
        #expect(
            again.errorLines.first.map(String.init)
                == "error: the folder \(sandbox.outputDirectory) already holds the unfinished shoot \(id); "
                + "pass --output with a new folder, or continue that shoot with `hdrshoot resume --id \(id)`")
        #expect(try sandbox.manifest()["status"] as? String == "stopped")
    }

    @Test func aFinishedManifestIsNeverRewrittenAndAnotherShootsNeverReplaced() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(atPath: sandbox.outputDirectory, withIntermediateDirectories: true)
        var journal = ShootJournal(
            id: "20261122-000000-abcd", plan: RunCommandTests.threeByFive,
            camera: CameraIdentity(model: "ILCE-7M3", address: "simulator"),
            outputDirectory: sandbox.outputDirectory)
        journal.status = .complete
        let finished = ShootManifest(journal: journal, planned: [:], actual: [:])
        #expect(try await finished.write(to: sandbox.outputDirectory) == .written)
        let url = URL(fileURLWithPath: sandbox.outputDirectory).appendingPathComponent("manifest.json")
        let bytes = try Data(contentsOf: url)
        // A late write of the same shoot that still says inProgress (a run killed at its very end).
        journal.status = .inProgress
        #expect(
            try await ShootManifest(journal: journal, planned: [:], actual: [:]).write(to: sandbox.outputDirectory)
                == .keptFinished)
        // Another shoot aimed at the same folder.
        var other = journal
        other.id = "20261123-000000-beef"
        #expect(
            try await ShootManifest(journal: other, planned: [:], actual: [:]).write(to: sandbox.outputDirectory)
                == .keptAnotherShoot(id: "20261122-000000-abcd"))
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func withDedupeEachSetListsEveryFileOfItsBracketAndLinkSharedPutsItInBothFolders() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator { port in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + [
                    "--dedupe", "--link-shared", "--confirm", "--camera", "127.0.0.1:\(port)"
                ]
                    + sandbox.shootArguments)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(fired.count == 13)
        let manifest = try sandbox.manifest()
        let plan = try #require(manifest["plan"] as? [String: Any])
        #expect(plan["shadow"] as? String == "1\"" && plan["highlight"] as? String == "1/1000")
        #expect(plan["frames"] as? Int == 5 && plan["spacing"] as? String == "1" && plan["scale"] as? String == "third")
        #expect(
            plan["order"] as? String == "fast-first" && plan["dedupe"] as? Bool == true
                && plan["linkShared"] as? Bool == true)
        let sets = try #require(manifest["sets"] as? [[String: Any]])
        #expect(sets.count == 3)
        let files = sets.map { $0["files"] as? [String] ?? [] }
        #expect(files.map(\.count) == [5, 5, 5])
        #expect(sets.allSatisfy { $0["complete"] as? Bool == true })
        // Set 2 starts on set 1's last frame, now also in set-02 as a hard link of the same file.
        let shared = try #require(files[0].last)
        let name = try #require(shared.split(separator: "/").last)
        #expect(files[1].first == "set-02/\(name)")
        #expect(
            files.enumerated().allSatisfy { index, list in
                list.allSatisfy { $0.hasPrefix(String(format: "set-%02d/", index + 1)) }
            })
        var original = stat()
        var link = stat()
        #expect(stat(sandbox.outputDirectory + "/" + shared, &original) == 0)
        #expect(stat(sandbox.outputDirectory + "/set-02/\(name)", &link) == 0)
        #expect(original.st_ino == link.st_ino && original.st_nlink == 2)
    }

    @Test func withDedupeAloneASetListsTheSharedFrameInItsNeighboursFolder() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, _) = try await sandbox.withSimulator { port in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + [
                    "--dedupe", "--order", "slow-first", "--confirm", "--camera", "127.0.0.1:\(port)"
                ]
                    + sandbox.shootArguments)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        let manifest = try sandbox.manifest()
        #expect((manifest["plan"] as? [String: Any])?["order"] as? String == "slow-first")
        let files = try #require((manifest["sets"] as? [[String: Any]])?.map { $0["files"] as? [String] ?? [] })
        // Slow first: set 1 (4" .. 1/4) ends on set 2's first frame, which stays in set-02 only.
        #expect(files.map(\.count) == [5, 5, 5])
        #expect(files[0].last == files[1].first)
        #expect(files[0].last?.hasPrefix("set-02/") == true)
        // Its four images, and the bracket's one merge.sh, which takes the shared frame from set-02 once.
        #expect(Self.listing(sandbox.outputDirectory + "/set-01").filter { $0.hasSuffix(".JPG") }.count == 4)
        let script = try String(contentsOfFile: sandbox.outputDirectory + "/merge.sh", encoding: .utf8)
        #expect(script.components(separatedBy: ShellQuote.single(files[0].last ?? "")).count == 2)
    }

    @Test func linkSharedWithoutDedupeIsAUsageError() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let result = try await sandbox.hdrshoot(
            ["run"] + ThreeByFive.flags + ["--link-shared", "--camera", "simulator", "--confirm"]
                + sandbox.shootArguments)
        #expect(result.exitCode == 64)
        #expect(
            result.errorLines.first
                == "error: --link-shared needs --dedupe (without it every set shoots its own copy of the frame it shares)"
        )
    }
}
