import Exposure
import Foundation
import ImageLuminance
import Posix
import ShootKit
import TestSupport
import Testing

@testable import HDRShootCLI

/// The bracket as the unit, on a real scene: the README's shoot (3 sets of 5 from 1/1000 to 4") against the
/// simulator's rendered scenes, merged whole with the real align_image_stack and enfuse, and the result measured
/// with hdrshoot's own luminance reader (`LumaReader`, `FrameLuminance`: Magic Lantern's levels 235 and 50).
@Suite("hdrshoot merge on the simulator's rendered scenes (real enfuse, align_image_stack)", .realTime)
struct MergeSceneTests {
    static let toolsInstalled = ["/usr/bin/enfuse", "/usr/bin/align_image_stack"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// What the luminance reader says about one image.
    struct Measure: CustomStringConvertible {
        var clipped: Double
        var blocked: Double
        var description: String {
            String(format: "clipped %.2f %%, blocked %.2f %%", clipped * 100, blocked * 100)
        }
    }

    /// Measures the JPEG at `path` with the range check's own reader and levels.
    static func measure(_ path: String) throws -> Measure {
        let image = try LumaReader.read(try FileSystem.readAll(path))
        let frame = FrameLuminance(speed: ShutterSpeed(numerator: 1, denominator: 1), image: image)
        return Measure(clipped: frame.clippedFraction, blocked: frame.blockedFraction)
    }

    /// The built-in body's time and hdrshoot's waits for it, 100 times faster: the bracket's 7.75 s of exposures
    /// take 78 ms (0.78 s at the usual 10) and what is merged is the same; the margins a body gets to process an
    /// image stay 2 s of real time, and nothing here is a time (the images show the scene at each exposure).
    static let shootTime = ScaledTime.environment(factor: 100)

    /// Shoots the README's bracket of `scene` into a fresh folder and merges it whole as JPEG.
    static func shootAndMerge(
        _ scene: String, in sandbox: ShootSandbox
    ) async throws -> (
        merge: ProcessResult, output: String, manifest: ShootManifest
    ) {
        let shot = try await sandbox.hdrshoot(
            [
                "run", "--shadow", "1/4", "--highlight", "1/1000", "--frames", "5", "--camera", "simulator",
                "--scene", scene, "--confirm"
            ] + sandbox.shootArguments, environment: Self.shootTime)
        #expect(shot.exitCode == 0, "\(shot.standardError)")
        let manifest = try #require(ShootManifest.readNow(from: sandbox.outputDirectory))
        let merge = try await sandbox.hdrshoot(["merge", sandbox.outputDirectory, "--format", "jpg"])
        return (merge, sandbox.outputDirectory, manifest)
    }

    /// The shortest and the longest frame's JPEG of the bracket.
    static func ends(of manifest: ShootManifest, in output: String) throws -> (darkest: String, brightest: String) {
        let frames = manifest.frames.sorted { MergeStack.seconds($0.usedSpeed) < MergeStack.seconds($1.usedSpeed) }
        let darkest = try #require(frames.first?.files.first { $0.hasSuffix(".JPG") })
        let brightest = try #require(frames.last?.files.first { $0.hasSuffix(".JPG") })
        return (output + "/" + darkest, output + "/" + brightest)
    }

    /// Each scene with a range: the one merged image clips less than the brightest frame and blocks less than
    /// the darkest. (align_image_stack 2022.0 of Debian 12 matches the frames of all three whole brackets,
    /// the interior's included; a flat scene it cannot match is the next test.)
    @Test(
        .enabled(if: toolsInstalled, "enfuse or hugin-tools is not installed (see .ci/run)"),
        arguments: ["sunset", "night-street", "interior-window"])
    func theWholeBracketMergesIntoOneImageThatHoldsBothEnds(scene: String) async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (merge, output, manifest) = try await Self.shootAndMerge(scene, in: sandbox)
        #expect(merge.exitCode == 0, "\(merge.standardError)")
        #expect(manifest.sets?.count == 3)
        #expect(manifest.frames.count == 15)
        // 15 frames, 13 distinct exposures: neighbouring sets both shoot the speed they share.
        let distinct = Set(manifest.frames.map(\.usedSpeed)).count
        #expect(distinct == 13)
        #expect(merge.standardOutput.hasPrefix("bracket: merged 13 frames (1/1000 to 4\")"), "\(merge)")
        #expect(merge.standardOutput.hasSuffix(" into merged.jpg\n") || merge.standardOutput.hasSuffix("as shot\n"))
        let (darkest, brightest) = try Self.ends(of: manifest, in: output)
        let merged = try Self.measure(output + "/merged.jpg")
        let (dark, bright) = (try Self.measure(darkest), try Self.measure(brightest))
        print(
            "merge \(scene): \(merge.standardOutput.dropLast()); merged \(merged); brightest frame \(bright); "
                + "darkest frame \(dark)")
        #expect(bright.clipped > 0.01 && dark.blocked > 0.1, "the ends of the bracket: \(bright), \(dark)")
        #expect(merged.clipped < bright.clipped, "merged \(merged), brightest \(bright)")
        #expect(merged.blocked < dark.blocked, "merged \(merged), darkest \(dark)")
    }

    /// A scene without detail (the grey card): align_image_stack finds too few control points, and the
    /// bracket is merged as shot with the note; `--align` refuses instead.
    @Test(.enabled(if: toolsInstalled, "enfuse or hugin-tools is not installed (see .ci/run)"))
    func framesThatCannotBeMatchedMergeAsShotWithTheNote() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (merge, output, _) = try await Self.shootAndMerge("grey-card", in: sandbox)
        #expect(merge.exitCode == 0, "\(merge.standardError)")
        #expect(
            merge.standardOutput
                == "bracket: merged 13 frames (1/1000 to 4\") into merged.jpg; not aligned: too few control points; "
                + "merged as shot\n")
        #expect(FileSystem.exists(output + "/merged.jpg"))
        let required = try await sandbox.hdrshoot(["merge", output, "--align"])
        #expect(required.exitCode == 1)
        #expect(required.errorLines.first?.hasPrefix("error: 1 of 1 merges failed (bracket)") == true)
    }
}
