import Foundation
import TestSupport
import Testing

@testable import HDRShootCLI
@testable import Shooting

/// Merge-ready sets: the `merge.sh` written beside each finished set and `hdrshoot merge`, with the real
/// align_image_stack and enfuse (Debian: hugin-tools, enfuse) and ImageMagick to look at the result. The shoots
/// run on `ScaledTime` (the built-in simulator and a series' schedule ten times faster): the merge is what counts.
@Suite("merge.sh and hdrshoot merge (built binary, enfuse, align_image_stack)", .realTime)
struct MergeTests {
    static let toolsInstalled = ["/usr/bin/enfuse", "/usr/bin/align_image_stack", "/usr/bin/convert"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    static func bracket(_ set: Int, _ files: [String], complete: Bool = true) -> ShootManifest.SetBracket {
        ShootManifest.SetBracket(set: set, folder: ShootManifest.folder(ofSet: set), files: files, complete: complete)
    }

    /// A complete shoot's manifest with these sets (decoded, as `merge` reads it).
    static func manifest(_ sets: [ShootManifest.SetBracket]) throws -> ShootManifest {
        let setsJSON = String(decoding: try JSONEncoder().encode(sets), as: UTF8.self)
        let json = """
            {"shoot": "s1", "camera": {"model": "ILCE-7M3", "address": "simulator"}, "status": "complete",
             "sets": \(setsJSON), "frames": []}
            """
        return try JSONDecoder().decode(ShootManifest.self, from: Data(json.utf8))
    }

    @Test func aSetMergesFromTheJpegOfEachPairAndNeedsConversionWhenOnlyRawIsThere() throws {
        let paired = try #require(
            MergeSet(Self.bracket(1, ["set-01/DSC1.ARW", "set-01/DSC1.JPG", "set-01/DSC2.ARW", "set-01/DSC2.JPG"])))
        #expect(paired.images == ["set-01/DSC1.JPG", "set-01/DSC2.JPG"])
        #expect(!paired.needsConversion)
        let raw = try #require(MergeSet(Self.bracket(2, ["set-02/DSC3.ARW", "set-02/DSC4.ARW"])))
        #expect(raw.needsConversion)
        #expect(raw.rawOnly == ["set-02/DSC3.ARW", "set-02/DSC4.ARW"])
        #expect(MergeSet(Self.bracket(3, ["set-03/DSC5.JPG"], complete: false)) == nil)
        #expect(
            MergeCommand.line(raw, .needsConversion(files: raw.rawOnly)).contains("convert them to TIFF or JPEG first"))
        #expect(MergeScript.text(for: raw, shoot: "x").contains("has RAW files without a JPEG"))
    }

    /// The script hands exactly the manifest's files, quoted, to the tools: stand-ins on PATH record them.
    @Test func theScriptPassesExactlyTheListedFilesWithSpacesAndQuotesIntact() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.url.appendingPathComponent("Kitchen \"north\" it's $HOME `x`")
        let files = ["set-01/DSC 1.JPG", "set-02/it's \"2\".JPG", "set-02/$(touch pwned).JPG"]
        for file in files + ["unmatched/DSC9-15s.JPG", "earlier/DSC8.JPG"] {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("jpeg".utf8).write(to: url)
        }
        let manifest = try Self.manifest([Self.bracket(2, files)])
        #expect(MergeScript.write(for: manifest, in: root.path) == nil)
        let tools = folder.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let recorder = """
            #!/bin/sh
            printf '%s\\n' "$(basename "$0")" "$@" >> "$RECORD"
            if [ "$(basename "$0")" = align_image_stack ]; then : > "${2}0000.tif"; : > "${2}0001.tif"; fi
            if [ "$(basename "$0")" = enfuse ]; then : > "$2"; fi

            """
        for name in ["enfuse", "align_image_stack"] {
            let url = tools.appendingPathComponent(name)
            try Data(recorder.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        let record = folder.url.appendingPathComponent("record").path
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = tools.path + ":/usr/bin:/bin"
        environment["RECORD"] = record
        environment["ALIGN"] = "0"
        let script = root.appendingPathComponent("set-02/merge.sh").path
        let unaligned = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: [script], environment: environment, currentDirectory: folder.url
        )
        #expect(unaligned.exitCode == 0, "\(unaligned.standardError)")
        environment["ALIGN"] = nil
        let aligned = try await ProcessRunner.run(URL(fileURLWithPath: script), environment: environment)
        #expect(aligned.exitCode == 0, "\(aligned.standardError)")
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(6)) == ["enfuse", "-o", "set-02/merged.tif"] + files)
        #expect(Array(lines.dropFirst(6).prefix(3)) == ["align_image_stack", "-a", lines[8]])
        #expect(Array(lines.dropFirst(9).prefix(3)) == files)
        #expect(lines.dropFirst(12).first == "enfuse")
        #expect(!lines.contains { $0.contains("unmatched") || $0.contains("earlier") })
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("pwned").path))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("pwned").path))
    }

    @Test func missingToolsNameTheDebianPackagesExit69() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manifest = try Self.manifest([Self.bracket(1, ["set-01/a.JPG", "set-01/b.JPG"])])
        _ = try await manifest.write(to: folder.url.path)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = folder.url.path
        let binary = try ProcessRunner.hdrshootBinary()
        let both = try await ProcessRunner.run(binary, arguments: ["merge", folder.url.path], environment: environment)
        #expect(both.exitCode == 69)
        #expect(
            both.standardError
                == "error: align_image_stack and enfuse are not installed; install with: sudo apt install hugin-tools enfuse\n"
        )
        let fuseOnly = try await ProcessRunner.run(
            binary, arguments: ["merge", folder.url.path, "--no-align"], environment: environment)
        #expect(fuseOnly.exitCode == 69)
        #expect(fuseOnly.standardError == "error: enfuse is not installed; install with: sudo apt install enfuse\n")
    }

    /// A real bracket shot against the simulator, into a folder whose name has spaces and quotes, then merged.
    @Test(.enabled(if: toolsInstalled, "enfuse, hugin-tools or imagemagick is not installed (see .ci/run)"))
    func aShotBracketMergesWithTheRealToolsAndTheMergeHasLessClippingThanItsEnds() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let output = sandbox.root.appendingPathComponent("Living room \"east\" it's").path
        let shot = try await sandbox.hdrshoot(
            [
                "run", "--shadow", "1/8", "--highlight", "1/1000", "--frames", "3", "--ev", "2", "--dedupe",
                "--camera", "simulator", "--confirm", "--output", output, "--state-dir", sandbox.stateDirectory
            ], environment: ScaledTime.environment)
        #expect(shot.exitCode == 0, "\(shot.standardError)")
        let manifest = try #require(ShootManifest.readNow(from: output))
        let sets = try #require(manifest.sets)
        #expect(sets.count == 2)
        // The frame the two sets share is shot once, into set 1, and listed in set 2's script.
        let shared = try #require(sets[1].files.first)
        #expect(shared.hasPrefix("set-01/"))
        let script = try String(contentsOfFile: output + "/set-02/merge.sh", encoding: .utf8)
        #expect(script.contains(ShellQuote.single(shared)))

        // The simulator's images are 8x8 flat grey: align_image_stack finds nothing to align on.
        let aligned = try await sandbox.hdrshoot(["merge", output])
        #expect(aligned.exitCode == 1)
        #expect(
            aligned.standardOutput.contains(
                "set 1: align_image_stack could not align the frames: too few control points"))
        #expect(aligned.standardError.contains("'hdrshoot merge --no-align' merges"))
        let merged = try await sandbox.hdrshoot(["merge", output, "--no-align", "--jobs", "2"])
        #expect(merged.exitCode == 0, "\(merged.standardError)")
        #expect(merged.standardOutput.contains("set 1: merged 3 frames into set-01/merged.tif\n"))
        #expect(merged.standardOutput.contains("set 2: merged 3 frames into set-02/merged.tif\n"))
        #expect(try await Self.identify(output + "/set-02/merged.tif", "%m %w×%h") == "TIFF 8×8")

        // The script does what the command does.
        var environment = sandbox.environment
        environment["ALIGN"] = "0"
        environment["FORMAT"] = "jpg"
        let ran = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: [output + "/set-01/merge.sh"], environment: environment)
        #expect(ran.exitCode == 0, "\(ran.standardError)")
        #expect(try await Self.identify(output + "/set-01/merged.jpg", "%m") == "JPEG")

        // Give set 1 a scene worth merging (same file names): an 8-stop gradient with texture, shot at three
        // exposures 3.3 stops apart, so the darkest frame clips shadows and the brightest clips highlights.
        let frames = sets[0].files.map { output + "/" + $0 }
        let scene = sandbox.root.appendingPathComponent("scene.png").path
        try await Self.magick(["-size", "128x96", "-seed", "7", "plasma:gray30-gray70", "-colorspace", "Gray", scene])
        for (file, gain) in zip(frames, ["10", "1", "0.1"]) {
            try await Self.magick([scene, "-fx", "min(1,u*exp(7*(i/w-0.8))*\(gain))", "-quality", "95", file])
        }
        let scene1 = try await sandbox.hdrshoot(["merge", output, "--set", "1", "--no-align"])
        #expect(scene1.exitCode == 0, "\(scene1.standardError)")
        let result = output + "/set-01/merged.tif"
        let (brightest, darkest) = (frames[0], frames[2])
        let clipped = try await (
            merged: Self.clipped(result, in: sandbox.root), brightest: Self.clipped(brightest, in: sandbox.root),
            darkest: Self.clipped(darkest, in: sandbox.root)
        )
        #expect(clipped.brightest.high > 0.2 && clipped.darkest.low > 0.2, "\(clipped)")
        #expect(clipped.merged.high < clipped.brightest.high, "\(clipped)")
        #expect(clipped.merged.low < clipped.darkest.low, "\(clipped)")
        for frame in frames {
            #expect(try await Self.identify(frame, "%#") != Self.identify(result, "%#"))
            let difference = try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/compare"), arguments: ["-metric", "AE", result, frame, "null:"])
            #expect((Double(difference.standardError.split(separator: " ").first ?? "") ?? 0) > 1000, "\(difference)")
        }
    }

    /// A series folder (its manifest lists repetitions) merges every repetition's sets, each line prefixed.
    @Test(.enabled(if: toolsInstalled, "enfuse, hugin-tools or imagemagick is not installed (see .ci/run)"))
    func aSeriesMergesEveryRepetition() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let output = sandbox.root.appendingPathComponent("dusk series").path
        let shot = try await sandbox.hdrshoot(
            [
                "run", "--shadow", "1/125", "--highlight", "1/1000", "--frames", "3", "--every", "2s", "--count", "2",
                "--camera", "simulator", "--confirm", "--output", output, "--state-dir", sandbox.stateDirectory
            ], environment: ScaledTime.environment)
        #expect(shot.exitCode == 0, "\(shot.standardError)")
        let merged = try await sandbox.hdrshoot(["merge", output, "--no-align", "--set", "1"])
        #expect(merged.exitCode == 0, "\(merged.standardError)")
        #expect(
            merged.standardOutput == """
                rep-001 set 1: merged 3 frames into set-01/merged.tif
                rep-002 set 1: merged 3 frames into set-01/merged.tif

                """)
        for repetition in ["rep-001", "rep-002"] {
            #expect(try await Self.identify(output + "/\(repetition)/set-01/merged.tif", "%m") == "TIFF")
        }
        let nothing = try await sandbox.hdrshoot(["merge", sandbox.root.path])
        #expect(nothing.exitCode == 64)
        #expect(
            nothing.errorLines.first
                == "error: \(sandbox.root.path) holds no shoot's manifest.json; give the output folder of an hdrshoot shoot or series"
        )
    }

    /// `identify -format FORMAT file`.
    static func identify(_ file: String, _ format: String) async throws -> String {
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/identify"), arguments: ["-format", format, file])
        #expect(result.exitCode == 0, "\(result.standardError)")
        return result.standardOutput
    }

    /// Runs ImageMagick's `convert`.
    static func magick(_ arguments: [String]) async throws {
        let result = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/convert"), arguments: arguments)
        #expect(result.exitCode == 0, "\(result.standardError)")
    }

    /// The fractions of `file`'s pixels clipped to white and to black (a mask made by convert, read by identify).
    static func clipped(_ file: String, in folder: URL) async throws -> (high: Double, low: Double) {
        var fractions: [Double] = []
        for (name, test) in [("high", "u>=0.998"), ("low", "u<=0.002")] {
            let mask = folder.appendingPathComponent("mask-\(name).png").path
            try await magick([file, "-colorspace", "Gray", "-fx", test, mask])
            fractions.append(Double(try await identify(mask, "%[fx:mean]")) ?? -1)
        }
        return (fractions[0], fractions[1])
    }
}
