import Foundation
import TestSupport
import Testing

@testable import HDRShootCLI
@testable import ShootKit
@testable import Shooting

/// The bracket as the unit: the `merge.sh` written beside a finished shoot's manifest and `hdrshoot merge`, with
/// the real align_image_stack and enfuse (Debian: hugin-tools, enfuse) and ImageMagick to look at the result. The
/// shoots run on `ScaledTime` (the built-in simulator and a series' schedule ten times faster): the merge is what
/// counts. The real-scene test is in MergeSceneTests.swift.
@Suite("merge.sh and hdrshoot merge (built binary, enfuse, align_image_stack)", .realTime)
struct MergeTests {
    static let toolsInstalled = ["/usr/bin/enfuse", "/usr/bin/align_image_stack", "/usr/bin/convert"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    static func bracket(_ set: Int, _ files: [String], complete: Bool = true) -> ShootManifest.SetBracket {
        ShootManifest.SetBracket(set: set, folder: ShootManifest.folder(ofSet: set), files: files, complete: complete)
    }

    /// A saved frame of the manifest.
    static func frame(
        _ set: Int, _ frame: Int, _ speed: String, _ files: [String], state: String = "done"
    )
        -> ShootManifest.Frame
    {
        ShootManifest.Frame(
            set: set, frame: frame, plannedSpeed: speed, usedSpeed: speed, state: state, files: files,
            possiblyDuplicated: false)
    }

    /// A complete shoot's manifest with these sets and frames (decoded, as `merge` reads it).
    static func manifest(
        _ sets: [ShootManifest.SetBracket], frames: [ShootManifest.Frame] = []
    ) throws
        -> ShootManifest
    {
        let setsJSON = String(decoding: try JSONEncoder().encode(sets), as: UTF8.self)
        let framesJSON = String(decoding: try JSONEncoder().encode(frames), as: UTF8.self)
        let json = """
            {"shoot": "s1", "camera": {"model": "ILCE-7M3", "address": "simulator"}, "status": "complete",
             "sets": \(setsJSON), "frames": \(framesJSON)}
            """
        return try JSONDecoder().decode(ShootManifest.self, from: Data(json.utf8))
    }

    @Test func aSetMergesFromTheJpegOfEachPairAndNeedsConversionWhenOnlyRawIsThere() throws {
        let paired = try #require(
            MergeStack(Self.bracket(1, ["set-01/DSC1.ARW", "set-01/DSC1.JPG", "set-01/DSC2.ARW", "set-01/DSC2.JPG"])))
        #expect(paired.images == ["set-01/DSC1.JPG", "set-01/DSC2.JPG"])
        #expect(paired.output(format: "tif") == "set-01/merged.tif")
        #expect(!paired.needsConversion)
        let raw = try #require(MergeStack(Self.bracket(2, ["set-02/DSC3.ARW", "set-02/DSC4.ARW"])))
        #expect(raw.needsConversion)
        #expect(raw.rawOnly == ["set-02/DSC3.ARW", "set-02/DSC4.ARW"])
        #expect(MergeStack(Self.bracket(3, ["set-03/DSC5.JPG"], complete: false)) == nil)
        #expect(
            MergeCommand.line(raw, .needsConversion(files: raw.rawOnly)).contains("convert them to TIFF or JPEG first"))
        #expect(MergeScript.text(for: raw, shoot: "x").contains("has RAW files without a JPEG"))
    }

    /// The whole bracket: every frame of every set, each exposure once (the speed two sets both shot is used
    /// once), shortest first, the JPEG of a pair, an extension set included; a frame's earlier and unmatched
    /// files never.
    @Test func theBracketMergesEveryDistinctExposureOnceShortestFirst() throws {
        var shared = Self.frame(2, 1, "1/60", ["set-02/DSC4.JPG"])
        shared.earlierFiles = ["earlier/DSC3.JPG"]
        shared.unmatchedFiles = ["unmatched/DSC9.JPG"]
        let frames = [
            Self.frame(1, 1, "1/1000", ["set-01/DSC1.ARW", "set-01/DSC1.JPG"]),
            Self.frame(1, 2, "1/250", ["set-01/DSC2.JPG"]),
            Self.frame(1, 3, "1/60", ["set-01/DSC3.JPG"]),
            shared,
            Self.frame(2, 2, "1/15", ["set-02/DSC5.JPG"]),
            Self.frame(3, 1, "1/2000", ["set-03/DSC6.JPG"]) // --check extend's extension set
        ]
        let manifest = try Self.manifest([], frames: frames)
        let stack = try MergeStack.bracket(of: manifest).get()
        #expect(
            stack.images == [
                "set-03/DSC6.JPG", "set-01/DSC1.JPG", "set-01/DSC2.JPG", "set-01/DSC3.JPG", "set-02/DSC5.JPG"
            ])
        #expect(stack.range == MergeStack.Span(shortest: "1/2000", longest: "1/15"))
        #expect(stack.output(format: "tif") == "merged.tif")
        #expect(stack.label == "bracket")
        let script = MergeScript.text(for: stack, shoot: "s1")
        #expect(script.contains("out='merged.'\"${FORMAT:-tif}\""))
        #expect(
            script.contains("whole bracket") && !script.contains("unmatched/DSC9") && !script.contains("earlier/DSC3"))

        var stopped = frames
        stopped[4].state = "inCamera"
        stopped[4].files = []
        let unfinished = try Self.manifest([], frames: stopped)
        #expect(throws: MergeStack.Unfinished.framesMissing(saved: 5, total: 6)) {
            try MergeStack.bracket(of: unfinished).get()
        }
        #expect(
            MergeCommand.line(
                stack, .merged(file: "merged.tif", frames: 5, alignment: .fellBack(reason: "too few control points")))
                == "bracket: merged 5 frames (1/2000 to 1/15) into merged.tif; not aligned: too few control points; merged as shot"
        )
    }

    /// The script hands exactly the manifest's files, quoted, to the tools: stand-ins on PATH record them. When
    /// the stand-in align_image_stack finds too few control points, the frames are fused as shot with the note,
    /// unless ALIGN=1 asks for alignment.
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
        var first = Self.frame(1, 1, "1/1000", [files[0]])
        first.earlierFiles = ["earlier/DSC8.JPG"]
        first.unmatchedFiles = ["unmatched/DSC9-15s.JPG"]
        let manifest = try Self.manifest(
            [Self.bracket(1, [files[0]]), Self.bracket(2, Array(files[1...]))],
            frames: [first, Self.frame(2, 1, "1/250", [files[1]]), Self.frame(2, 2, "1/60", [files[2]])])
        #expect(MergeScript.write(for: manifest, in: root.path) == nil)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("set-01/merge.sh").path))
        let tools = folder.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let recorder = """
            #!/bin/sh
            printf '%s\\n' "$(basename "$0")" "$@" >> "$RECORD"
            if [ "$(basename "$0")" = align_image_stack ]; then
                if [ -n "${FAIL_ALIGN:-}" ]; then echo "Not enough control points found" >&2; exit 1; fi
                prefix="$2"; shift 2; i=0
                for f in "$@"; do : > "$(printf '%s%04d.tif' "$prefix" "$i")"; i=$((i + 1)); done
            fi
            if [ "$(basename "$0")" = enfuse ]; then : > "$2"; fi

            """
        for name in ["enfuse", "align_image_stack"] {
            let url = tools.appendingPathComponent(name)
            try Data(recorder.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        let record = folder.url.appendingPathComponent("record").path
        func recorded() throws -> [String] {
            defer { try? FileManager.default.removeItem(atPath: record) }
            return try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = tools.path + ":/usr/bin:/bin"
        environment["RECORD"] = record
        environment["ALIGN"] = "0"
        let script = root.appendingPathComponent("merge.sh").path
        let unaligned = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: [script], environment: environment, currentDirectory: folder.url
        )
        #expect(unaligned.exitCode == 0, "\(unaligned.standardError)")
        #expect(try recorded() == ["enfuse", "-o", "merged.tif"] + files)

        environment["ALIGN"] = nil
        let aligned = try await ProcessRunner.run(URL(fileURLWithPath: script), environment: environment)
        #expect(aligned.exitCode == 0, "\(aligned.standardError)")
        let lines = try recorded()
        #expect(Array(lines.prefix(2)) == ["align_image_stack", "-a"])
        #expect(Array(lines.dropFirst(3).prefix(3)) == files)
        #expect(Array(lines.dropFirst(6).prefix(3)) == ["enfuse", "-o", "merged.tif"])
        #expect(lines.dropFirst(9).allSatisfy { $0.hasPrefix(lines[2]) } && lines.count == 12, "\(lines)")

        environment["FAIL_ALIGN"] = "1"
        let fellBack = try await ProcessRunner.run(URL(fileURLWithPath: script), environment: environment)
        #expect(fellBack.exitCode == 0, "\(fellBack.standardError)")
        #expect(fellBack.standardError == "not aligned: too few control points; merged as shot\n")
        #expect(Array(try recorded().dropFirst(6)) == ["enfuse", "-o", "merged.tif"] + files)

        environment["ALIGN"] = "1"
        let required = try await ProcessRunner.run(URL(fileURLWithPath: script), environment: environment)
        #expect(required.exitCode == 1)
        #expect(required.standardError.contains("error: align_image_stack could not align the frames"))
        #expect(!(try recorded()).contains("enfuse"))
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

    /// A real bracket shot against the simulator, into a folder whose name has spaces and quotes, then merged
    /// whole: one merged.tif beside the manifest, from the five distinct exposures of its two sets.
    @Test(.enabled(if: toolsInstalled, "enfuse, hugin-tools or imagemagick is not installed (see .ci/run)"))
    func aShotBracketMergesWholeWithTheRealToolsAndFallsBackWhenItCannotAlign() async throws {
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
        #expect(manifest.fired == 5 && manifest.saved == 5 && manifest.inCamera == 0)
        // The frame the two sets share is shot once, into set 1, and the one merge.sh takes it once.
        let shared = try #require(sets[1].files.first)
        #expect(shared.hasPrefix("set-01/"))
        let script = try String(contentsOfFile: output + "/merge.sh", encoding: .utf8)
        #expect(script.components(separatedBy: ShellQuote.single(shared)).count == 2)
        #expect(!FileManager.default.fileExists(atPath: output + "/set-01/merge.sh"))

        // The simulator's images without a scene are flat grey: align_image_stack finds nothing to align on, so
        // the frames are merged as shot, unless --align makes alignment mandatory.
        let merged = try await sandbox.hdrshoot(["merge", output])
        #expect(merged.exitCode == 0, "\(merged.standardError)")
        #expect(
            merged.standardOutput
                == "bracket: merged 5 frames (1/1000 to 1/4) into merged.tif; not aligned: too few control points; "
                + "merged as shot\n")
        #expect(try await Self.identify(output + "/merged.tif", "%m") == "TIFF")
        let required = try await sandbox.hdrshoot(["merge", output, "--align"])
        #expect(required.exitCode == 1)
        #expect(
            required.standardOutput.contains(
                "bracket: align_image_stack could not align the frames: too few control points; not merged"))
        #expect(
            required.errorLines
                == [
                    "error: 1 of 1 merges failed (bracket); without --align, frames that cannot be aligned are "
                        + "merged as shot"
                ])

        // --per-set keeps the old merge of each set on its own.
        let perSet = try await sandbox.hdrshoot(["merge", output, "--per-set", "--no-align", "--jobs", "2"])
        #expect(perSet.exitCode == 0, "\(perSet.standardError)")
        #expect(perSet.standardOutput.contains("set 1: merged 3 frames into set-01/merged.tif\n"))
        #expect(perSet.standardOutput.contains("set 2: merged 3 frames into set-02/merged.tif\n"))
        #expect(try await Self.identify(output + "/set-02/merged.tif", "%m") == "TIFF")

        // The script does what the command does.
        var environment = sandbox.environment
        environment["FORMAT"] = "jpg"
        let ran = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: [output + "/merge.sh"], environment: environment)
        #expect(ran.exitCode == 0, "\(ran.standardError)")
        #expect(ran.standardError.contains("not aligned: too few control points; merged as shot"))
        #expect(try await Self.identify(output + "/merged.jpg", "%m") == "JPEG")
    }

    /// A series folder (its manifest lists repetitions) merges every repetition's bracket, each line prefixed.
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
        let merged = try await sandbox.hdrshoot(["merge", output, "--no-align"])
        #expect(merged.exitCode == 0, "\(merged.standardError)")
        #expect(
            merged.standardOutput == """
                rep-001 bracket: merged 5 frames (1/1000 to 1/60) into merged.tif
                rep-002 bracket: merged 5 frames (1/1000 to 1/60) into merged.tif

                """)
        for repetition in ["rep-001", "rep-002"] {
            #expect(try await Self.identify(output + "/\(repetition)/merged.tif", "%m") == "TIFF")
            #expect(FileManager.default.fileExists(atPath: output + "/\(repetition)/merge.sh"))
        }
        let oneSet = try await sandbox.hdrshoot(["merge", output, "--no-align", "--set", "1"])
        #expect(oneSet.exitCode == 0, "\(oneSet.standardError)")
        #expect(oneSet.standardOutput.hasPrefix("rep-001 set 1: merged 3 frames into set-01/merged.tif\n"))
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
}
