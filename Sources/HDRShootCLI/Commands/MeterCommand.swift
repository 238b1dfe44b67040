import Exposure
import Foundation
import ImageLuminance
import ShootKit
import Shooting

/// `--auto` metering on a connected camera: the body's meter as a start, then probe frames searched by
/// `AutoMeter`, each saved in a `probes/` folder (they are real exposures on the card too).
enum AutoMetering {
    /// What the metering found.
    struct Outcome: Sendable {
        /// The speed the body's meter called correct (0xD1B5 against the set speed), nil when it reports none.
        var metered: ShutterSpeed?
        /// The search: readings and probes.
        var result: AutoMeter.Result
        /// The probe files, in the order shot (absolute paths).
        var files: [String]
        /// Whether the probes were small JPEGs (0xD268).
        var smallJPEG: Bool

        /// The probes as the manifest and the JSON output list them (files relative to `root` when inside it).
        func records(relativeTo root: String) -> [ProbeRecord] {
            let prefix = root.hasSuffix("/") ? root : root + "/"
            return result.probes.enumerated().map { index, probe in
                let file = index < files.count ? files[index] : ""
                return ProbeRecord(
                    speed: probe.speed.label,
                    file: file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file,
                    holdsHighlights: probe.holdsHighlights, opensShadows: probe.opensShadows)
            }
        }

        /// The readings to plan from: the found ones, or for a flat scene (every speed from the shadow reading to
        /// the highlight reading holds both ends) one speed in the middle of that span, for both.
        var readings: (highlight: ShutterSpeed, shadow: ShutterSpeed) {
            let (highlight, shadow) = (result.highlight, result.shadow)
            guard highlight > shadow else { return (highlight, shadow) }
            let seconds = (highlight.seconds * shadow.seconds).squareRoot()
            let middle = ShutterScale.third.allSpeeds.min {
                abs(log2($0.seconds / seconds)) < abs(log2($1.seconds / seconds))
            }!
            return (middle, middle)
        }

        /// The line that shows the readings found.
        var line: String {
            let meter = metered.map { "meter \($0.label); " } ?? "no body meter; "
            return "--auto: highlight \(result.highlight.label), shadow \(result.shadow.label) (\(meter)"
                + "\(PlanReport.counted(result.probes.count, "probe"))"
                + (result.converged ? "" : ", not pinned to a third at both ends") + ")"
        }
    }

    /// One probe frame in the manifest (the layer's type).
    typealias ProbeRecord = ShootKit.ProbeRecord

    /// Connects to `target`'s camera, meters the scene with probes in `folder/probes` and disconnects: what
    /// `hdrshoot meter` and `run --auto` share. A Camera Remote API body is refused (its probes cannot be made
    /// small, and it reports no meter), before anything fires.
    static func measure(
        with target: CameraTarget, environment: [String: String], scene: Scene.Name?, folder: String,
        say: @escaping @Sendable (String) -> Void
    ) async throws -> Outcome {
        try await target.withCamera(environment: environment, scene: scene) { camera, address in
            do {
                guard camera.remoteProtocol.meters else {
                    throw ShootPreparationError.blocked([.meteringUnavailable])
                }
                let check = try await CameraCheck.connect(camera, address: address) { step in
                    say(ConnectText.line(step))
                }
                let probes = URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent("probes")
                let outcome = try await measure(camera, check: check, probes: probes, say: say)
                await camera.disconnect()
                return outcome
            } catch {
                await camera.disconnect()
                throw error
            }
        }
    }

    /// Meters with probes saved into `probes` (created when missing); the camera is connected and was checked.
    /// The small-JPEG transfer (0xD268, p. 491) is on for the probes where the body has it, and put back after.
    static func measure(
        _ camera: any CommandCamera, check: CameraCheck, probes: URL, say: @Sendable (String) -> Void
    ) async throws -> Outcome {
        guard check.capabilities.metering else {
            throw ShootPreparationError.blocked([.meteringUnavailable])
        }
        guard check.blockers.isEmpty else { throw ShootPreparationError.blocked(check.blockers) }
        var metered: ShutterSpeed?
        let meter = AutoMeter(speeds: check.offered)
        var start = check.offered[check.offered.count / 2]
        if case .timed(let current) = try await camera.currentShutterSpeed() {
            start = current
            if let level = await camera.meteredManualLevel() {
                // The meter says how much brighter than correct the set speed is (EV × 1000, p. 398).
                let seconds = current.seconds / pow(2, Double(level) / 1000)
                metered = check.offered.min { abs(log2($0.seconds / seconds)) < abs(log2($1.seconds / seconds)) }
                start = metered ?? current
            }
        }
        let small = try await camera.setSmallJPEGTransfer(true)
        var files: [String] = []
        let destination = CaptureDestination(directory: probes)
        let result: AutoMeter.Result
        do {
            result = try await meter.search(from: start) { speed in
                guard let setting = CameraShutterSpeed.resolve(speed, in: check.settings) else {
                    throw ShootPreparationError.blocked([.speedNotOffered(speed: speed.label, position: nil)])
                }
                try await camera.setShutterSpeed(setting)
                _ = try await camera.release(exposure: speed) {}
                // The release's files: a file left over from an earlier probe (an ARW arriving after its JPEG) is
                // passed over by its EXIF exposure; the first readable file of this exposure is read.
                var saved: [SavedImage] = []
                var mine: [SavedImage] = []
                while mine.isEmpty, saved.count < 4,
                    let image = try await camera.nextImage(
                        to: destination, waitingAtMost: .seconds(30) + .seconds(speed.seconds * 2))
                {
                    saved.append(image)
                    if image.exposure.map({ $0 == speed }) ?? true { mine.append(image) }
                }
                // Files that came with it (the ARW of a RAW+JPEG body without small JPEGs) are saved too.
                while saved.count < 4, let image = try await camera.nextImage(to: destination, waitingAtMost: .zero) {
                    saved.append(image)
                    if image.exposure.map({ $0 == speed }) ?? true { mine.append(image) }
                }
                guard let first = mine.first else {
                    throw ShootPreparationError.blocked([
                        .camera("the probe at \(speed.label) sent no image of its exposure")
                    ])
                }
                files.append(first.path)
                say("probe \(files.count): \(speed.label) \(first.fileName)")
                for image in mine {
                    if let data = FileManager.default.contents(atPath: image.path),
                        let luma = try? LumaReader.read([UInt8](data))
                    {
                        return luma
                    }
                }
                throw ShootPreparationError.blocked([
                    .camera("the probe at \(speed.label) is no JPEG or ARW with a preview")
                ])
            }
        } catch {
            if small { _ = try? await camera.setSmallJPEGTransfer(false) }
            throw error
        }
        if small { _ = try await camera.setSmallJPEGTransfer(false) }
        return Outcome(metered: metered, result: result, files: files, smallJPEG: small)
    }
}

/// `hdrshoot meter`: finds the highlight and shadow readings with probe frames, shoots no bracket.
enum MeterCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "meter",
        abstract: "Find the highlight and shadow readings with a few probe frames (what run --auto does first).",
        discussion: """
            Starts from the body's own meter (0xD1B5 Metered Manual Level, in M) and shoots at most 8 probe frames
            (small JPEGs where the body can send them), searching the shutter scale for the longest speed whose
            frame holds the highlights (at most 0.02 % above level 235) and the shortest whose frame opens the
            shadows (at most 10 % below level 50). Prints the readings to give to 'hdrshoot plan' or 'run'. The
            probes are real exposures on the card; their files go to the probes folder of --output.
            """,
        options: [
            .value(
                "camera", placeholder: "<host[:port]|simulator>",
                help: "The camera's address, or 'simulator' (default: the last one used)."),
            .value(
                "scene", placeholder: "<name>",
                help: "With --camera simulator: the scene its images show (see 'hdrshoot simulate --help')."),
            .value(
                "output", placeholder: "<dir>", help: "Folder for the probes (in its probes folder).",
                default: "./hdrshoot-meter-<date>-<time>"),
            .flag("json", help: "Print the result as one JSON object.")
        ],
        run: run
    )

    @Sendable private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode
    {
        let target = try arguments.string("camera").map { text throws(UsageError) in
            try CameraTarget(parsing: text, command: arguments.command)
        }
        let scene = try arguments.string("scene").map { text throws(UsageError) in
            guard let name = Scene.Name(rawValue: text.lowercased()) else {
                throw UsageError(
                    "'\(text)' is not a scene; use " + Scene.Name.allCases.map(\.rawValue).joined(separator: ", "),
                    command: arguments.command)
            }
            guard case .simulator? = target else {
                throw UsageError(
                    "--scene needs --camera simulator (a real camera shoots what it sees)", command: arguments.command)
            }
            return name
        }
        let environment = ProcessInfo.processInfo.environment
        let store = CameraAddressStore(environment: environment)
        guard let chosen = target ?? store.load().map({ CameraTarget.address($0) }) else {
            throw UsageError(
                "no camera given and none remembered; pass --camera HOST[:PORT], or --camera simulator",
                command: arguments.command)
        }
        let json = arguments.flag("json")
        let output = context.output
        let folder = RunCommand.absolutePath(
            arguments.string("output")
                ?? RunCommand.defaultOutputName(at: context.wallClock.now()).replacingOccurrences(
                    of: "hdrshoot-", with: "hdrshoot-meter-"))
        let say: @Sendable (String) -> Void = { text in
            if json { output.writeError(text + "\n") } else { output.writeOut(text + "\n") }
        }
        let outcome = try await AutoMetering.measure(
            with: chosen, environment: environment, scene: scene, folder: folder, say: say)
        if json {
            output.writeOut(
                ShootText.jsonLine(
                    MeterReport(
                        highlight: outcome.result.highlight.label, shadow: outcome.result.shadow.label,
                        converged: outcome.result.converged, probes: outcome.records(relativeTo: folder),
                        smallJPEG: outcome.smallJPEG, output: folder, metered: outcome.metered?.label)))
        } else {
            output.writeOut(outcome.line + "\n")
            output.writeOut(
                "Readings: --highlight \(outcome.result.highlight.label) --shadow \(outcome.result.shadow.label)\n")
            output.writeOut("Probes: \(folder)/probes\n")
        }
        return .success
    }
}

/// `hdrshoot meter --json`: one object, `event` `meter`; `metered` is there only when the body's meter read.
struct MeterReport: Encodable {
    var event = "meter"
    /// The highlight reading's label.
    var highlight: String
    /// The shadow reading's label.
    var shadow: String
    /// Whether the search converged.
    var converged: Bool
    /// The probes, in the order fired.
    var probes: [AutoMetering.ProbeRecord]
    /// Whether the probes crossed the link as small JPEGs.
    var smallJPEG: Bool
    /// The output folder.
    var output: String
    /// The speed the body's own meter suggested, when it read one.
    var metered: String?
}
