import CameraSimulator
import Dispatch
import Foundation
import ImageLuminance
import LegacyCameraSimulator
import Posix
import Synchronization

/// `hdrshoot simulate`: runs a simulated Sony camera on PTP/IP until SIGINT or SIGTERM.
enum SimulateCommand {
    /// Options that take a value, in help order; each value is read by `SimulatorConfiguration.set(_:to:)` (or
    /// the legacy body's), except `replay-session` and `time-scale`, which are this command's.
    private static let valueOptions: [(name: String, placeholder: String, help: String, default: String?)] = [
        ("host", "<address>", "Address to listen on.", "127.0.0.1"),
        ("port", "<n>", "TCP port; 0 picks a free one and prints it.", "15740"),
        ("protocol", "<2|3>", "Sony protocol 2.00 (shutter by notch steps) or 3.00.", "3"),
        ("max-shutter", "<1/4000|1/8000>", "Fastest shutter speed of the body.", "1/8000"),
        ("mode", "<M|A|S|P>", "Exposure mode dial at start.", "M"),
        ("image-size", "<bytes>", "Size of each generated JPEG or ARW.", "200000"),
        ("card-shots", "<n>", "Shots left on the memory card (0xD249); a full card fires nothing.", "9999"),
        ("battery", "<percent>", "Battery level the body reports (0xD218).", "100"),
        ("rtt", "<ms>", "Added round-trip delay per request.", nil),
        ("bandwidth", "<bytes-per-s>", "Data-phase throughput limit.", nil),
        ("step-delay", "<ms>", "Delay before a 2.00 shutter notch step applies.", "200"),
        ("exposure-cap", "<seconds>", "Hold every exposure at most this long.", nil),
        ("processing-ms", "<ms>", "Image processing time after each exposure (behind the shutter).", "300"),
        (
            "buffer", "<n>",
            "Captures the body holds (waiting + processing); a release beyond that fires nothing.", "20"
        ),
        ("format", "<jpeg|raw+jpeg|raw>", "Files per capture; raw+jpeg gives a JPEG, then an ARW.", "jpeg"),
        (
            "save-to", "<host|camera|both>",
            "Still image save destination (0xD222); camera leaves nothing to fetch.", "host"
        ),
        ("capture-log", "<file>", "Append one JSON line per fired frame.", nil),
        ("op-log", "<file>", "Append one JSON line per operation handled.", nil),
        ("replay-device-info", "<file>", "Serve a recorded GetDeviceInfo data phase.", nil),
        ("replay-ext-device-info", "<file>", "Serve a recorded SDIO_GetExtDeviceInfo data phase.", nil),
        ("replay-props", "<file>", "Serve a recorded SDIO_GetAllExtDevicePropInfo data phase.", nil),
        ("replay-session", "<log>", "Become the body a session log recorded (see 'hdrshoot log').", nil),
        (
            "fault", "<spec[,spec...]>",
            "A scripted fault (repeatable), e.g. busy:0x9205:2 or drop-at-op:12 (see below).", nil
        ),
        ("focus", "<MF|AF-S|AF-C|AF-A|DMF>", "Focus mode (0x500A) at start.", "MF"),
        (
            "quirk", "<name[:arg][,...]>",
            "A field behaviour of real bodies (repeatable), e.g. idle-drop:10 (listed above).", nil
        ),
        (
            "scene", "<name>",
            "Every image shows this scene at its exposure, and 0xD1B5 meters it (scenes and ranges above).", nil
        ),
        ("iso", "<AUTO|100|...>", "With --api: the ISO setting (BULB is refused with Auto ISO).", nil),
        (
            "ssdp-port", "<n>",
            "Answer unicast SSDP searches on this UDP port (DigitalImaging; with --api, ScalarWebAPI) with the "
                + "description's address.", nil
        ),
        (
            "description-port", "<n>",
            "Serve the UPnP descriptions (dd.xml, DigitalImagingDesc.xml) on this TCP port; 0 picks a free one.", nil
        ),
        (
            "time-scale", "<n>",
            "A test hook: the body's time runs n times faster (exposures, processing, a BULB hold as measured); "
                + "pair with HDRSHOOT_TIME_SCALE=n.", nil
        )
    ]

    /// The options this command reads itself rather than the simulated body's configuration.
    private static let commandOptions: Set<String> = ["replay-session", "time-scale"]

    /// The options a simulated legacy body (`--api`) takes; the others are PTP/IP's only.
    private static let apiOptions: Set<String> = [
        "host", "port", "mode", "image-size", "exposure-cap", "processing-ms", "rtt", "capture-log", "quirk", "fault",
        "iso", "ssdp-port", "time-scale"
    ]

    /// The command's declaration.
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Run a simulated Sony camera (PTP/IP) to try hdrshoot without one.",
        discussion: """
            Listens on 127.0.0.1:15740 by default and behaves like a Sony Alpha in "Ctrl w/ Smartphone" mode:
            one client at a time, real exposure times, a generated JPEG (or ARW) per frame. The shutter is free
            again once an exposure ends: images process behind it and wait in a buffer of --buffer captures,
            fetched oldest first as object 0xFFFFC001. Point hdrshoot (or gphoto2 --port ptpip:127.0.0.1) at it.
            Stops on Ctrl-C and prints what was shot.

            Faults: busy:OPCODE:N (DeviceBusy to the next N calls of an operation), busy-capture:N,
            drop-at-frame:N, drop-at-op:N (close both connections), hang-at-op:N (stop answering),
            hang-at-speed-set:N (stop answering at the first shutter speed set after frame N fired),
            refuse-connections:N (Init Fail), refuse-pairing (Init Fail reason 1: not allowed to pair),
            never-idle (the image buffer never empties), mode-at-frame:N:M|A|S|P (the mode dial turns before
            frame N).

            The photographer's hands: with --pairing or --hold-session-after-drop the simulator reads one word a
            line on standard input: ok or refuse answers the pairing screen ("Allow pairing with the device?",
            shown as a line "pairing: 'NAME' asks to pair"), power-cycle turns the body off and on.
            """ + "\n\n" + quirkTable + "\n\n" + """
                With --api it is an older body speaking Sony's Camera Remote API (JSON-RPC over HTTP, "Smart Remote
                Control") instead, on port 8080 by default: the device description at /dd.xml, the API at
                /sony/camera, postviews with EXIF. It needs startRecMode, applies shutter sets late, answers a second
                getEvent long poll with 40402, offers no shutter speeds outside M and S, and refuses BULB with Auto
                ISO. It takes --host, --port, --mode, --iso, --image-size, --exposure-cap, --processing-ms, --rtt,
                --capture-log, --fault drop-at-frame:N and these quirks:
                  no-rec-mode             no startRecMode needed (like the A7 III family's built-in API)
                  set-delay:MS            a shutter speed set applies MS later (default 150)
                  set-fails:N             every N-th shutter speed set fails with [1, "Any"]
                  drop-at-shot:N          the N-th actTakePicture takes the picture, then closes the connection
                  save-at-shot:N:MS       the N-th picture saves for MS instead of --processing-ms (a test hook)
                """ + "\n\n" + sceneTable,
        options: valueOptions.map {
            .value(
                $0.name, placeholder: $0.placeholder, help: $0.help, default: $0.default,
                repeatable: $0.name == "fault" || $0.name == "quirk")
        } + [
            .flag("api", help: "Simulate an older body speaking Sony's Camera Remote API (see below)."),
            .flag(
                "pairing",
                help: "The body needs pairing: a new computer's Init Command waits until 'ok' (or 'refuse') is "
                    + "typed on standard input."),
            .flag(
                "ssh-support",
                help: "The description says X_SSH_Support Enable (Access Authentication on): clients must come "
                    + "through SSH (put an sshd in front of the simulator)."),
            .flag(
                "hold-session-after-drop",
                help: "A session dropped without CloseSession makes the body close every new connection at once "
                    + "until 'power-cycle' is typed on standard input.")
        ],
        run: run
    )

    private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        let clock = try timeScale(arguments).clock
        if arguments.flag("api") { return try await runRemoteAPI(arguments, context) }
        for option in ["iso"] where !arguments.strings(option).isEmpty {
            throw UsageError("--\(option) is an option of the simulated legacy body; add --api", command: spec.name)
        }
        var configuration = SimulatorConfiguration()
        do {
            for option in valueOptions where !commandOptions.contains(option.name) {
                for value in arguments.strings(option.name) { try configuration.set(option.name, to: value) }
            }
        } catch {
            throw UsageError(error.cliMessage, command: spec.name)
        }
        configuration.needsPairing = arguments.flag("pairing")
        configuration.holdsSessionAfterDrop = arguments.flag("hold-session-after-drop")
        configuration.sshSupport = arguments.flag("ssh-support")
        // `--replay-session LOG`: the body a session log recorded (its data phases are read at the start).
        var letReplayGo: @Sendable () -> Void = {}
        defer { letReplayGo() }
        if let log = arguments.string("replay-session") {
            let replay = try SessionReplay.load(log)
            letReplayGo = try replay.apply(
                to: &configuration, keepRoundTrip: arguments.string("rtt") != nil,
                keepProcessing: arguments.string("processing-ms") != nil)
            context.output.writeError(replay.summary)
        }
        let simulator = try CameraSimulator(configuration: configuration, clock: clock)
        let display = simulator.host.contains(":") ? "[\(simulator.host)]" : simulator.host
        context.output.writeOut(
            "simulated \(configurationSummary(configuration)) listening on \(display):\(simulator.port)\n")
        let description =
            configuration.servesDescription
            ? try SimulatorDescriptionService(configuration: configuration, clock: clock) : nil
        if let description {
            let ssdp = description.ssdpPort.map { ", SSDP answers on UDP port \($0)" } ?? ""
            context.output.writeOut("description at \(description.location)\(ssdp)\n")
        }
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await simulator.run()
                return true
            }
            if let description {
                group.addTask {
                    await description.run()
                    return true
                }
            }
            group.addTask {
                await TerminationSignal.wait()
                return true
            }
            if configuration.needsPairing || configuration.holdsSessionAfterDrop {
                group.addTask {
                    await SimulatorControl.run(simulator, output: context.output)
                    return false
                }
            }
            // The signal ends it (run only ends when cancelled; the control's input may end long before).
            while let stops = await group.next(), !stops {}
            group.cancelAll()
        }
        let captures = await simulator.captures
        var summary =
            "simulator stopped: \(captures.count) frame(s) fired, \(await simulator.answeredOperationCount) operation(s) answered\n"
        for capture in captures {
            let held = String(format: "%.3f", capture.exposureSeconds)
            summary += "  frame \(capture.frame): \(capture.label) (held \(held) s)\n"
        }
        context.output.writeOut(summary)
        return .success
    }

    /// The `--scene` names with each scene's true range: the longest speed that holds its highlights and the
    /// shortest that opens its shadows (1/3-stop scale; see `Scene.trueRange`).
    /// The quirks, from their one definition (`SimulatorQuirk.catalog`), as an aligned two-column list wrapped
    /// to the width of the rest of the help.
    static var quirkTable: String {
        let width = 30
        var lines = ["Quirks (--quirk; behaviours real bodies are reported to have):"]
        for entry in SimulatorQuirk.catalog {
            var line = "  " + entry.spelling
            line += String(repeating: " ", count: max(1, width - line.count))
            if line.count > width {
                lines.append(line.trimmingTrailingSpaces)
                line = String(repeating: " ", count: width)
            }
            for word in entry.behaviour.split(separator: " ") {
                if line.count + word.count + 1 > 110, line.count > width {
                    lines.append(line.trimmingTrailingSpaces)
                    line = String(repeating: " ", count: width)
                }
                line += (line.count == width ? "" : " ") + word
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    static var sceneTable: String {
        var text = "Scenes (--scene): each image is the scene at its exposure, 0xD1B5 meters it; true range:"
        for scene in Scene.all {
            let range = scene.trueRange()
            let name = scene.name.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
            text += "\n  \(name)--highlight \(range.highlight.label) --shadow \(range.shadow.label)  \(scene.summary)"
        }
        return text
    }

    /// `simulate --api`: the simulated legacy body (Camera Remote API) until SIGINT or SIGTERM.
    private static func runRemoteAPI(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        var configuration = LegacySimulatorConfiguration()
        configuration.port = 8080
        // `--replay-session` is PTP/IP's: it meets the refusal below.
        for option in valueOptions where option.name != "time-scale" {
            let values = arguments.strings(option.name)
            guard !values.isEmpty else { continue }
            guard apiOptions.contains(option.name) else {
                throw UsageError(
                    "--\(option.name) is an option of the PTP/IP simulator; the Camera Remote API body (--api) takes "
                        + apiOptions.sorted().map { "--\($0)" }.joined(separator: ", "), command: spec.name)
            }
            do {
                for value in values { try configuration.set(option.name, to: value) }
            } catch {
                throw UsageError(error.cliMessage, command: spec.name)
            }
        }
        let simulator: LegacyCameraSimulator
        do {
            simulator = try LegacyCameraSimulator(configuration: configuration, clock: try timeScale(arguments).clock)
        } catch let error as SimulatorError {
            throw error
        } catch {
            throw SimulatorError.cannotListen(host: configuration.host, port: configuration.port, reason: "\(error)")
        }
        let base = "http://\(simulator.address.description)"
        context.output.writeOut(
            "simulated Sony camera (Camera Remote API) listening on \(base) (API \(base)/sony/camera, description "
                + "\(simulator.descriptionURL))\n")
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await simulator.run() }
            group.addTask { await TerminationSignal.wait() }
            _ = await group.next()
            simulator.close()
            group.cancelAll()
        }
        await simulator.flushLogs()
        let captures = await simulator.captures
        var summary =
            "simulator stopped: \(captures.count) frame(s) fired, \(await simulator.calls.count) call(s) answered\n"
        for capture in captures {
            summary +=
                "  frame \(capture.frame): \(capture.label) (held \(String(format: "%.3f", capture.exposureSeconds)) s)\n"
        }
        context.output.writeOut(summary)
        return .success
    }

    /// `--time-scale n`: the simulator's clock runs n times faster (real time without it).
    private static func timeScale(_ arguments: ParsedArguments) throws(UsageError) -> TimeScale {
        try arguments.value("time-scale", default: .real) { text in
            guard let factor = TimeScale.parse(text) else {
                throw UsageError("'\(text)' is not a time scale; write a whole number from 1 to \(TimeScale.maximum)")
            }
            return TimeScale(factor: factor)
        }
    }

    private static func configurationSummary(_ configuration: SimulatorConfiguration) -> String {
        let version = configuration.protocolVersion >= 300 ? "3.00" : "2.00"
        return "Sony camera (protocol \(version))"
    }
}

/// Waits for SIGINT or SIGTERM (once), with the default actions turned off so the process can shut down cleanly.
enum TerminationSignal {
    /// Returns when SIGINT or SIGTERM arrives, or when the calling task is cancelled.
    static func wait() async {
        for await _ in SignalEvents.stream([.interrupt, .terminate]) { return }
    }
}

extension SimulatorError: CLIReportable {
    /// The simulator's own one-line sentence.
    package var cliMessage: String { description }

    /// 64 for a wrong option or an address that is not this machine's; 69 when the port cannot be listened on
    /// (taken); 1 for a replay or log file that cannot be used.
    package var exitCode: ExitCode {
        switch self {
        case .unknownOption, .missingValue, .invalidValue, .invalidFault, .invalidQuirk, .addressNotLocal: .usage
        case .cannotListen: .unavailable
        case .unreadableReplay, .unwritableLog: .failure
        }
    }
}

extension String {
    /// The text without the spaces at its end.
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
