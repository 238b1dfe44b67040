import CameraSimulator
import Exposure
import Foundation
import Glibc
import ImageLuminance
import TestSupport
import Testing

/// The built `hdrshoot` shooting `hdrshoot simulate --scene` (a child process each): the range check's verdict
/// on every scene, for a bracket that covers it and for ones a stop short at either end.
@Suite("Range check end to end: the built binary against every simulated scene", .realTime)
struct RangeCheckEndToEndTests {
    /// What a bracket is meant to show.
    enum Case: String, CaseIterable, Sendable {
        case covers
        case highlightsShort
        case shadowsShort
    }

    /// The readings for `kind` on `scene`: the true range (see `Scene.trueRange`), or one stop (3 thirds) past
    /// it at one end, the other end covered; whole stops apart, so that a plan 1 EV apart ends on both readings.
    static func readings(_ scene: Scene, _ kind: Case) -> (highlight: ShutterSpeed, shadow: ShutterSpeed) {
        let speeds = ShutterScale.third.allSpeeds
        let range = scene.trueRange()
        func index(_ speed: ShutterSpeed) -> Int { speeds.firstIndex(of: speed)! }
        // A flat scene holds at speeds longer than it opens at: the covering bracket runs between the two.
        let low = min(index(range.highlight), index(range.shadow))
        let high = max(index(range.highlight), index(range.shadow))
        /// A shorter highlight reading (which holds the highlights as well) so the span is whole stops.
        func wholeStops(_ highlight: Int, _ shadow: Int) -> (ShutterSpeed, ShutterSpeed) {
            let span = max(3, ((shadow - highlight + 2) / 3) * 3)
            return (speeds[shadow - span], speeds[shadow])
        }
        switch kind {
        case .covers:
            return wholeStops(low, high)
        case .highlightsShort:
            // Here the shadow reading moves instead (longer opens the shadows as well).
            let highlight = index(range.highlight) + 3
            let shadow = max(high, highlight + 1)
            return (speeds[highlight], speeds[highlight + max(3, ((shadow - highlight + 2) / 3) * 3)])
        case .shadowsShort:
            let shadow = index(range.shadow) - 3
            return wholeStops(min(low, shadow - 1), shadow)
        }
    }

    /// Frames 1 EV apart from `highlight` to `shadow` (whole stops apart).
    static func frames(_ highlight: ShutterSpeed, _ shadow: ShutterSpeed) -> Int {
        let speeds = ShutterScale.third.allSpeeds
        return (speeds.firstIndex(of: shadow)! - speeds.firstIndex(of: highlight)!) / 3 + 1
    }

    @Test(arguments: Scene.Name.allCases, Case.allCases)
    func theBracketVerdictFlagsTheEndThatIsShortAndPassesACoveringBracket(name: Scene.Name, kind: Case) async throws {
        let scene = Scene.named(name)
        let (highlight, shadow) = Self.readings(scene, kind)
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator(extra: ["--scene", name.rawValue]) { port in
            try await sandbox.hdrshoot(
                [
                    "run", "--camera", "127.0.0.1:\(port)", "--shadow", shadow.label, "--highlight", highlight.label,
                    "--frames", String(Self.frames(highlight, shadow)), "--ev", "1", "--confirm", "--json",
                    "--no-network-monitor"
                ] + sandbox.shootArguments)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        let checks = result.standardOutput.split(separator: "\n").compactMap { jsonObject(String($0)) }
            .filter { $0["event"] as? String == "rangeCheck" }
        let bracket = try #require(checks.last { $0["scope"] as? String == "bracket" }, "\(result.standardOutput)")
        let line = try #require(bracket["line"] as? String)
        let highlights = try #require(bracket["highlights"] as? [String: Any])
        let shadows = try #require(bracket["shadows"] as? [String: Any])
        switch kind {
        case .covers:
            #expect(bracket["holds"] as? Bool == true, "\(name) \(highlight.label)...\(shadow.label): \(line)")
            #expect(line.hasPrefix("range ok: highlights hold at \(highlight.label)"))
        case .highlightsShort:
            #expect(highlights["missingEV"] != nil, "\(name): \(line)")
            #expect(shadows["missingEV"] == nil, "\(name): \(line)")
            #expect(line.hasPrefix("highlights: "), "\(line)")
            #expect(line.contains("still clipped at \(highlight.label); add "), "\(line)")
            #expect(line.contains("or rerun with --highlight "), "\(line)")
        case .shadowsShort:
            #expect(shadows["missingEV"] != nil, "\(name): \(line)")
            #expect(highlights["missingEV"] == nil, "\(name): \(line)")
            #expect(line.hasPrefix("shadows: "), "\(line)")
            #expect(line.contains("still blocked at \(shadow.label)"), "\(line)")
        }
        // The manifest holds the verdict and a 64-bin histogram of every frame.
        let manifest = try sandbox.manifest()
        let records = try #require(manifest["rangeChecks"] as? [[String: Any]])
        #expect(records.last?["line"] as? String == line)
        let frames = try #require(manifest["frames"] as? [[String: Any]])
        #expect(frames.count == fired.count)
        for frame in frames {
            let luminance = try #require(frame["luminance"] as? [String: Any])
            let histogram = try #require(luminance["histogram"] as? [Int])
            #expect(histogram.count == 64)
            #expect(histogram.reduce(0, +) > 0)
        }
    }
}

@Suite("Range check options end to end: --check extend and off, --scene, simulate --help", .realTime)
struct RangeCheckOptionsEndToEndTests {
    /// A bracket a stop short at both ends on the sunset: extend shoots the missing frames as journaled sets
    /// until the bracket's verdict holds, and the manifest lists them.
    @Test func extendShootsTheMissingFramesUntilTheBracketHolds() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator(extra: ["--scene", "sunset"]) { port in
            try await sandbox.hdrshoot(
                [
                    "run", "--camera", "127.0.0.1:\(port)", "--shadow", "1/40", "--highlight", "1/640", "--frames",
                    "5", "--ev", "1", "--check", "extend", "--confirm", "--json", "--no-network-monitor"
                ] + sandbox.shootArguments)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        let checks = result.standardOutput.split(separator: "\n").compactMap { jsonObject(String($0)) }
            .filter { $0["event"] as? String == "rangeCheck" && $0["scope"] as? String == "bracket" }
        #expect(checks.count >= 2, "the first verdict, then one per extension")
        #expect(checks.first?["holds"] as? Bool == false)
        #expect(checks.last?["holds"] as? Bool == true, "\(checks.last?["line"] ?? "")")
        // Every extra frame was fired and journaled: the manifest lists each fired frame once, all done.
        let manifest = try sandbox.manifest()
        let frames = try #require(manifest["frames"] as? [[String: Any]])
        #expect(frames.count == fired.count)
        #expect(frames.count > 5)
        #expect(frames.allSatisfy { $0["state"] as? String == "done" })
        #expect(manifest["status"] as? String == "complete")
        #expect(fired.contains("1/2500") || fired.contains("1/3200") || fired.contains("1/4000"), "\(fired)")
        #expect(fired.contains("1/20"), "\(fired)")
        let status = try await sandbox.hdrshoot(["status", "--state-dir", sandbox.stateDirectory])
        #expect(!status.standardOutput.contains("in progress"))
    }

    /// A 3 x 5 plan killed after set 2's first frame is saved: `resume` measures the frames saved before, says
    /// the bracket's verdict only, and the manifest holds a histogram for all 15 frames and each set's verdict
    /// as data.
    ///
    /// The simulator's data phase is throttled (about 0.1 s per image) so that the ten downloads still to come
    /// after set 1's verdict outlast the kill; the releases, which carry no image, stay fast.
    @Test func resumeChecksTheFramesOfTheEarlierRunToo() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // The first run on a throttled link (50 kB/s), so the kill surely comes while it downloads; the resume on a
        // link made fast again.
        let (resumed, fired) = try await sandbox.withSimulatorInProcess({
            $0.scene = .interiorWindow
            $0.bandwidth = 50_000
        }) { simulator in
            let port = simulator.port
            let arguments =
                ["run"] + ThreeByFive.flags + [
                    "--camera", "127.0.0.1:\(port)", "--confirm", "--json", "--no-network-monitor"
                ] + sandbox.shootArguments
            try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(), arguments: arguments, environment: sandbox.environment
            ) { run in
                _ = try await run.waitForLine(timeout: .seconds(120)) { line in
                    guard let object = jsonObject(line) else { return false }
                    return object["phase"] as? String == "saved" && object["set"] as? Int == 2
                }
                run.send(SIGKILL)
                _ = await run.waitForExit()
            }
            await simulator.setBandwidth(nil)
            return try await sandbox.hdrshoot([
                "resume", "--confirm", "--json", "--no-network-monitor", "--state-dir", sandbox.stateDirectory
            ])
        }
        #expect(resumed.exitCode == 0, "\(resumed.standardError)")
        #expect(fired.count >= 15)
        let checks = resumed.standardOutput.split(separator: "\n").compactMap { jsonObject(String($0)) }
            .filter { $0["event"] as? String == "rangeCheck" }
        #expect(checks.count == 1, "\(resumed.standardOutput)")
        let bracket = try #require(checks.last { $0["scope"] as? String == "bracket" })
        #expect(bracket["holds"] as? Bool == true, "\(bracket)")
        let manifest = try sandbox.manifest()
        let frames = try #require(manifest["frames"] as? [[String: Any]])
        #expect(frames.count == 15)
        #expect(frames.allSatisfy { ($0["luminance"] as? [String: Any])?["histogram"] is [Int] })
        let kept = try #require(manifest["rangeChecks"] as? [[String: Any]])
        #expect(kept.last?["scope"] as? String == "bracket")
        #expect(Set(kept.compactMap { $0["set"] as? Int }) == [1, 2, 3], "\(kept)")
    }

    /// The verdicts `run` says while shooting are the ones `hdrshoot check` gives on the folder afterwards.
    @Test func theShootsVerdictsAreTheOnesCheckGivesAfterwards() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, _) = try await sandbox.withSimulator(extra: ["--scene", "interior-window"]) { port in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm", "--no-network-monitor"]
                    + sandbox.shootArguments)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        let said = result.standardOutput.split(separator: "\n").filter { $0.contains(" range: ") }.map {
            $0.replacingOccurrences(of: " range: ", with: ": ")
        }
        let check = try await sandbox.hdrshoot(["check", sandbox.outputDirectory])
        #expect(check.exitCode == 0)
        // The shoot says the bracket's verdict only; check says each set's too, and the same bracket line.
        #expect(said.count == 1, "\(result.standardOutput)")
        let checked = check.standardOutput.split(separator: "\n").map(String.init)
        #expect(said == [checked.last ?? ""], "\(checked)")
    }

    @Test func offReadsNoImage() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, _) = try await sandbox.withSimulator(extra: ["--scene", "sunset"]) { port in
            try await sandbox.hdrshoot(
                [
                    "run", "--camera", "127.0.0.1:\(port)", "--shadow", "1/40", "--highlight", "1/640", "--check",
                    "off",
                    "--confirm", "--json", "--no-network-monitor"
                ] + sandbox.shootArguments)
        }
        #expect(result.exitCode == 0)
        #expect(!result.standardOutput.contains("rangeCheck"))
        let manifest = try sandbox.manifest()
        #expect(manifest["rangeChecks"] == nil)
        let frames = try #require(manifest["frames"] as? [[String: Any]])
        #expect(frames.allSatisfy { $0["luminance"] == nil })
    }

    @Test(arguments: [
        (
            ["run", "--shadow", "1", "--highlight", "1/1000", "--camera", "simulator", "--check", "maybe"],
            "error: --check: 'maybe' is not a range check; use off, warn or extend"
        ),
        (
            ["run", "--shadow", "1", "--highlight", "1/1000", "--camera", "127.0.0.1", "--scene", "sunset"],
            "error: --scene needs --camera simulator (a real camera shoots what it sees)"
        ),
        (
            ["run", "--shadow", "1", "--highlight", "1/1000", "--camera", "simulator", "--scene", "beach"],
            "error: 'beach' is not a scene; use interior-window, sunset, night-street, grey-card"
        ),
        (
            [
                "run", "--shadow", "1", "--highlight", "1/1000", "--camera", "simulator", "--check", "extend",
                "--every",
                "2m", "--count", "2"
            ],
            "error: --check extend does not go with --every (a series shoots the same bracket each time)"
        ),
        (
            ["simulate", "--scene", "beach"],
            "error: 'beach' is not valid for --scene; expected interior-window, sunset, night-street, grey-card"
        )
    ])
    func badRangeOptionsAreOneUsageLine(arguments: [String], message: String) async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let state = arguments[0] == "run" ? ["--state-dir", sandbox.stateDirectory] : []
        let result = try await sandbox.hdrshoot(arguments + state)
        #expect(result.exitCode == 64)
        #expect(result.errorLines.first.map(String.init) == message, "\(result.standardError)")
    }

    /// `simulate --help` prints each scene's true range as the readings that cover it.
    @Test func simulateHelpPrintsEveryScenesTrueRange() async throws {
        let result = try await ProcessRunner.run(
            try ProcessRunner.hdrshootBinary(), arguments: ["simulate", "--help"], timeout: .seconds(30))
        #expect(result.exitCode == 0)
        for scene in Scene.all {
            let range = scene.trueRange()
            #expect(
                result.standardOutput.contains(
                    "--highlight \(range.highlight.label) --shadow \(range.shadow.label)  \(scene.summary)"),
                "\(scene.name)")
        }
    }
}
