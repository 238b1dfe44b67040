import CameraSimulator
import Exposure
import Foundation
import ImageLuminance
import ShootKit
import Shooting

extension AutoMetering {
    /// The layer's metering with this process's environment and terminal: `say` hears each connect step and the
    /// metering's lines (how the camera is reached is not said here, as before the move).
    static func measure(
        with camera: ChosenCamera, environment: [String: String], scene: Scene.Name?, folder: String,
        say: @escaping @Sendable (String) -> Void
    ) async throws -> Outcome {
        try await measure(
            with: camera.target, reach: camera.reach(environment: environment),
            scene: scene, folder: folder, note: { _ in }, progress: { say(ConnectText.line($0)) }, say: say)
    }
}

extension AutoMetering.Outcome {
    /// The line that shows the readings found.
    var line: String {
        let meter = metered.map { "meter \($0.label); " } ?? "no body meter; "
        return "--auto: highlight \(result.highlight.label), shadow \(result.shadow.label) (\(meter)"
            + "\(PlanReport.counted(result.probes.count, "probe"))"
            + (result.converged ? "" : ", not pinned to a third at both ends") + ")"
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
            .flag("json", help: "Print the result as one JSON object."),
            SessionReplay.option
        ] + SSHConnection.options,
        run: run
    )

    @Sendable private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode
    {
        let target = try ChosenCamera.given(arguments)
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
        // The camera `run` would shoot, reached as it reaches it (`ChosenCamera`).
        let chosen = try ChosenCamera.choose(
            given: target, or: .remembered(CameraAddressStore(environment: environment)), arguments: arguments,
            replay: try SessionReplay.fromOption(arguments, output: context.output),
            noCamera: UsageError(
                "no camera given and none remembered; pass --camera HOST[:PORT], or --camera simulator",
                command: arguments.command))
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
    var probes: [ProbeRecord]
    /// Whether the probes crossed the link as small JPEGs.
    var smallJPEG: Bool
    /// The output folder.
    var output: String
    /// The speed the body's own meter suggested, when it read one.
    var metered: String?
}
