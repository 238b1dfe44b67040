import Exposure
import Foundation
import ImageLuminance
import TestSupport
import Testing

/// The built `hdrshoot meter` and `run --auto` against `hdrshoot simulate --scene` (a child process each). The
/// metering shoots run on `ScaledTime` (the settles for the camera's sake, ten times shorter on both sides): what
/// is checked is where the probes land, not how long a body takes.
@Suite("Auto metering end to end: the built binary finds every simulated scene's true range", .realTime)
struct AutoMeterEndToEndTests {
    /// Steps of the third scale between two speeds.
    static func steps(_ a: String, _ b: ShutterSpeed) throws -> Int {
        let speeds = ShutterScale.third.allSpeeds
        let found = try ShutterScale.third.parseSpeed(a).speed
        return abs(try #require(speeds.firstIndex(of: found)) - speeds.firstIndex(of: b)!)
    }

    /// Within 1/3 EV of the true range, in 8 probes or fewer, each probe a file in probes/ (small JPEGs:
    /// the simulator's 0xD268 sends them at 1/16 of the image size, at least 4 KB; a rendered scene is larger).
    @Test(arguments: Scene.Name.allCases)
    func meterFindsTheTrueRangeWithinAThirdInEightProbesOrFewer(name: Scene.Name) async throws {
        let scene = Scene.named(name)
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator(
            extra: ["--scene", name.rawValue] + ScaledTime.simulatorArguments
        ) { port in
            try await sandbox.hdrshoot(
                ["meter", "--camera", "127.0.0.1:\(port)", "--json", "--output", sandbox.outputDirectory],
                environment: ScaledTime.environment)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        let object = try #require(jsonObject(result.standardOutput), "\(result.standardOutput)")
        let truth = scene.trueRange()
        let highlight = try #require(object["highlight"] as? String)
        let shadow = try #require(object["shadow"] as? String)
        #expect(try Self.steps(highlight, truth.highlight) <= 1, "\(name): \(highlight) vs \(truth.highlight.label)")
        #expect(try Self.steps(shadow, truth.shadow) <= 1, "\(name): \(shadow) vs \(truth.shadow.label)")
        let probes = try #require(object["probes"] as? [[String: Any]])
        #expect(probes.count <= 8)
        #expect(probes.count == fired.count, "every probe is a real exposure")
        #expect(object["smallJPEG"] as? Bool == true)
        #expect(object["metered"] is String, "0xD1B5 gave the start")
        for probe in probes {
            let file = try #require(probe["file"] as? String)
            #expect(file.hasPrefix("probes/"))
            #expect(FileManager.default.fileExists(atPath: sandbox.outputDirectory + "/" + file))
        }
    }

    /// `run --auto`: the plan comes from the found readings (the confirmation says them), the probes are listed
    /// apart in the manifest, and the bracket's range check holds.
    @Test func runAutoPlansFromTheFoundReadingsAndTheBracketHolds() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator(
            extra: ["--scene", "interior-window"] + ScaledTime.simulatorArguments
        ) { port in
            try await sandbox.hdrshoot(
                [
                    "run", "--auto", "--camera", "127.0.0.1:\(port)", "--frames", "5", "--ev", "2", "--confirm",
                    "--no-network-monitor", "--json"
                ] + sandbox.shootArguments, environment: ScaledTime.environment)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        let truth = Scene.named(.interiorWindow).trueRange()
        // People read the confirmation (and the metering) on standard error with --json.
        #expect(
            result.standardError.contains(
                "--auto: highlight \(truth.highlight.label), shadow \(truth.shadow.label) (meter "),
            "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").compactMap { jsonObject(String($0)) }
        let summary = try #require(lines.first { $0["event"] as? String == "summary" })
        let auto = try #require(summary["auto"] as? [String: Any])
        #expect(auto["highlight"] as? String == truth.highlight.label)
        #expect(auto["shadow"] as? String == truth.shadow.label)
        #expect((auto["probes"] as? Int ?? 99) <= 8)
        let bracket = try #require(lines.last { $0["event"] as? String == "rangeCheck" })
        #expect(bracket["holds"] as? Bool == true, "\(bracket)")
        let manifest = try sandbox.manifest()
        let probes = try #require(manifest["probes"] as? [[String: Any]])
        let frames = try #require(manifest["frames"] as? [[String: Any]])
        #expect(probes.count + frames.count == fired.count)
        let plan = try #require(manifest["plan"] as? [String: Any])
        #expect(plan["highlight"] as? String == truth.highlight.label)
        #expect(plan["shadow"] as? String == truth.shadow.label)
    }

    /// A body whose dial is on A cannot be probed at set speeds: exit 69, one line, no probe fired.
    @Test func meterOnABodyInAperturePriorityFiresNothing() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator(extra: ["--mode", "A", "--scene", "sunset"]) { port in
            try await sandbox.hdrshoot(["meter", "--camera", "127.0.0.1:\(port)", "--output", sandbox.outputDirectory])
        }
        #expect(result.exitCode == 69)
        #expect(
            result.errorLines == [
                "error: the camera cannot shoot now: the mode dial is on A; turn it to M (manual) or S (shutter priority)"
            ], "\(result.standardError)")
        #expect(fired.isEmpty)
    }

    /// Without `--camera`, `meter` reaches the remembered camera, the one `run` would shoot (here a body on A,
    /// refused before anything fires); with none remembered its line is as it was.
    @Test func meterWithoutCameraReachesTheRememberedOneAndWithNoneSaysHowToGiveOne() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let none = try await sandbox.hdrshoot(["meter", "--output", sandbox.outputDirectory])
        #expect(none.exitCode == 64)
        #expect(
            none.errorLines.first
                == "error: no camera given and none remembered; pass --camera HOST[:PORT], or --camera simulator",
            "\(none.standardError)")
        let (result, fired) = try await sandbox.withSimulator(extra: ["--mode", "A", "--scene", "sunset"]) { port in
            let remembered = sandbox.root.appendingPathComponent("config/hdrshoot/last-camera")
            try FileManager.default.createDirectory(
                at: remembered.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("127.0.0.1:\(port)\n".utf8).write(to: remembered)
            return try await sandbox.hdrshoot(["meter", "--output", sandbox.outputDirectory])
        }
        #expect(result.exitCode == 69, "\(result)")
        #expect(
            result.errorLines == [
                "error: the camera cannot shoot now: the mode dial is on A; turn it to M (manual) or S (shutter priority)"
            ], "\(result.standardError)")
        #expect(fired.isEmpty)
    }

    @Test func autoOnACameraRemoteAPIBodyIsRefusedBeforeAnythingFires() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let result = try await sandbox.hdrshoot(
            ["run", "--auto", "--camera", "simulator", "--api", "--confirm"] + sandbox.shootArguments)
        #expect(result.exitCode == 69)
        #expect(
            result.errorLines == [
                "error: the camera cannot shoot now: --auto and meter measure over PTP/IP; this body speaks the "
                    + "Camera Remote API, so give --shadow and --highlight"
            ], "\(result.standardError)")
        // Nothing was probed: no probes folder, no frames.
        #expect(!FileManager.default.fileExists(atPath: sandbox.outputDirectory + "/probes"))
    }

    @Test func autoWithTypedReadingsIsOneUsageLine() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let result = try await sandbox.hdrshoot(
            ["run", "--auto", "--shadow", "1/4", "--camera", "simulator"] + sandbox.shootArguments)
        #expect(result.exitCode == 64)
        #expect(
            result.errorLines.first.map(String.init)
                == "error: --auto finds the readings itself; leave out --shadow and --highlight")
        let missing = try await sandbox.hdrshoot(["run", "--camera", "simulator"] + sandbox.shootArguments)
        #expect(missing.exitCode == 64)
        #expect(missing.errorLines.first.map(String.init) == "error: missing required option '--shadow'")
    }
}
