import Exposure
import Foundation
import ImageLuminance
import TestSupport
import Testing

@testable import HDRShootCLI

/// `hdrshoot check <folder>` on a shoot folder made of rendered scenes and a hand-written manifest.json.
@Suite("check command", .realTime)
struct CheckCommandTests {
    /// Writes two sets of the interior-with-window scene (1/1000 1/250 1/60 and 1/60 1/15 1/4: the shadows need
    /// 1.3") and a manifest naming them, as `run` writes it; returns the folder.
    static func shootFolder(extraFrames: [String] = []) throws -> TemporaryFolder {
        let folder = try TemporaryFolder(prefix: "hdrshoot-check")
        let renderer = SceneRenderer(width: 240, height: 160)
        let scene = Scene.named(.interiorWindow)
        let sets = [[(1, 1000), (1, 250), (1, 60)], [(1, 60), (1, 15), (1, 4)]]
        var frames: [String] = []
        for (setIndex, speeds) in sets.enumerated() {
            let setFolder = folder.url.appendingPathComponent("set-0\(setIndex + 1)")
            try FileManager.default.createDirectory(at: setFolder, withIntermediateDirectories: true)
            for (frameIndex, (numerator, denominator)) in speeds.enumerated() {
                let speed = ShutterSpeed(numerator: numerator, denominator: denominator)
                let file = "set-0\(setIndex + 1)/DSC0000\(3 * setIndex + frameIndex + 1).JPG"
                try Data(renderer.render(scene, exposure: speed)).write(to: folder.url.appendingPathComponent(file))
                frames.append(
                    """
                    {"set": \(setIndex + 1), "frame": \(frameIndex + 1), "plannedSpeed": "\(speed.label)",
                     "usedSpeed": "\(speed.label)", "state": "done", "files": ["\(file)"], "possiblyDuplicated": false}
                    """)
            }
        }
        frames += extraFrames
        let manifest = """
            {"shoot": "test", "camera": {"model": "ILCE-7M3", "address": "127.0.0.1"}, "status": "complete",
             "plan": {"shadow": "1/15", "highlight": "1/1000", "frames": 3, "spacing": "2", "scale": "third",
                      "order": "fast-first", "dedupe": false, "linkShared": false},
             "frames": [\(frames.joined(separator: ","))]}
            """
        try Data(manifest.utf8).write(to: folder.url.appendingPathComponent("manifest.json"))
        return folder
    }

    @Test func printsOneVerdictPerSetAndOneForTheBracket() async throws {
        let folder = try Self.shootFolder()
        defer { folder.remove() }
        let run = await runCLI(["check", folder.url.path])
        #expect(run.exitCode == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        // Each set alone: set 1 holds the window but not the room; set 2 neither.
        #expect(lines.first?.hasPrefix("set 1: shadows: ") == true, "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix("set 2: highlights: ") == true, "\(lines)")
        #expect(lines.dropLast().allSatisfy { !$0.contains("rerun") }, "only the bracket suggests new readings")
        // The whole bracket: the window holds at 1/1000; the room needs 1.3", the scene's true shadow speed.
        #expect(
            lines.last?.hasPrefix("bracket: shadows: ") == true && lines.last?.contains("still blocked at 1/4") == true,
            "\(lines)")
        #expect(lines.last?.contains("add 1.3\" (2.3 EV) or rerun with --shadow 0.3\"") == true, "\(lines)")
        #expect(run.standardError.isEmpty)
    }

    @Test func unreadableFramesAreNamedAndLeftOut() async throws {
        let folder = try Self.shootFolder(extraFrames: [
            """
            {"set": 2, "frame": 4, "plannedSpeed": "1/2", "usedSpeed": "1/2", "state": "done",
             "files": ["set-02/missing.JPG"], "possiblyDuplicated": false}
            """,
            """
            {"set": 2, "frame": 5, "plannedSpeed": "1", "usedSpeed": "1\\"", "state": "done",
             "files": ["set-02/cut.JPG"], "possiblyDuplicated": false}
            """
        ])
        defer { folder.remove() }
        let jpeg = SceneRenderer(width: 64, height: 48).render(
            Scene.named(.greyCard), exposure: .init(numerator: 1, denominator: 1))
        try Data(jpeg.prefix(jpeg.count - 20)).write(to: folder.url.appendingPathComponent("set-02/cut.JPG"))
        let run = await runCLI(["check", folder.url.path])
        #expect(run.exitCode == 0)
        let warnings = run.standardError.split(separator: "\n")
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.first?.hasPrefix("warning: set 2 frame 4: cannot read ") == true, "\(warnings)")
        #expect(warnings.last?.hasPrefix("warning: set 2 frame 5: ") == true, "\(warnings)")
        #expect(warnings.last?.contains("cut.JPG: the image is cut short: it ends at byte ") == true, "\(warnings)")
        #expect(run.standardOutput.contains("still blocked at 1/4"))
    }

    @Test func folderWithoutManifestIsAnError() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-check")
        defer { folder.remove() }
        let run = await runCLI(["check", folder.url.path])
        #expect(run.exitCode == 1)
        #expect(
            run.standardError
                == "error: no readable manifest.json in \(folder.url.path); pass a shoot's output folder\n")
    }

    @Test func missingFolderAndBadThresholdsAreUsageErrors() async {
        let missing = await runCLI(["check"])
        #expect(missing.exitCode == 64)
        #expect(missing.standardError.hasPrefix("error: missing <folder>\nRun 'hdrshoot check --help' for usage."))
        let bad = await runCLI(["check", "/tmp", "--max-clipped", "200"])
        #expect(bad.exitCode == 64)
        #expect(bad.standardError.hasPrefix("error: --max-clipped: '200' is not a percentage from 0 to 100"))
        let twice = await runCLI(["check", "/tmp", "/var"])
        #expect(twice.standardError.hasPrefix("error: unexpected argument '/var'"))
    }

    @Test func theBuiltBinaryChecksAFolder() async throws {
        let folder = try Self.shootFolder()
        defer { folder.remove() }
        let result = try await ProcessRunner.runHDRShoot(["check", folder.url.path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("add 1.3\" (2.3 EV) or rerun with --shadow 0.3\"\n"))
        let missing = try await ProcessRunner.runHDRShoot(["check", folder.url.appendingPathComponent("nothing").path])
        #expect(missing.exitCode == 1)
        #expect(
            missing.errorLines.count == 1 && missing.errorLines.first?.hasPrefix("error: no readable manifest") == true)
    }

    @Test func helpShowsTheArgument() async {
        let help = await runCLI(["check", "--help"])
        #expect(help.exitCode == 0)
        #expect(help.standardOutput.contains("USAGE: hdrshoot check <folder> [<options>]"))
        #expect(help.standardOutput.contains("<folder>") && help.standardOutput.contains("A shoot's output folder"))
    }
}
