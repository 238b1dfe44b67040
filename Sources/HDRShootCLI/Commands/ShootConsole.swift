import CameraSimulator
import Exposure
import Foundation
import ImageLuminance
import Posix
import ShootKit
import Shooting
import SonyCamera

/// What `run` and `resume` share: their options, the confirmation, the shoot itself, and the end.
enum ShootConsole {
    /// Options both `run` and `resume` take (after the plan options for `run`).
    static let sharedOptions: [OptionSpec] =
        [
            .value(
                "camera", placeholder: "<host[:port]|http://host:port|simulator>",
                help:
                    "The camera's address, or 'simulator' for the built-in simulated camera (default: the last one used)."
            ),
            .flag(
                "api", help: "Use Sony's Camera Remote API (older bodies); with 'simulator', the simulated legacy body."
            ),
            .flag("confirm", help: "Shoot without asking (needed when not on a terminal)."),
            .flag("json", help: "Print progress as JSON lines."),
            .value(
                "state-dir", placeholder: "<dir>", help: "Where shoot journals are kept.",
                default: "$XDG_STATE_HOME/hdrshoot"),
            .value(
                "reconnect-timeout", placeholder: "<duration>",
                help: "How long to keep reconnecting after the camera drops (e.g. 90s, 5m).", default: "5m"),
            .flag("no-network-monitor", help: "Do not watch the Wi-Fi link (pause when it drops)."),
            .value(
                "buffer", placeholder: "<n>",
                help: "Most frames fired ahead of the downloads (images the camera holds), 1 to 999.",
                default: String(BracketRunner.Configuration.defaultBufferLimit)),
            .value(
                "transfer", placeholder: "<all|jpeg|none>",
                help: "What crosses the Wi-Fi: every file, only the JPEG (RAW stays on the card), or nothing.",
                default: "all"),
            .value(
                "check", placeholder: "<off|warn|extend>",
                help:
                    "Range check of the whole bracket once it is saved: off, warn, or extend (shoot the missing frames).",
                default: "warn"),
            .value(
                "scene", placeholder: "<name>",
                help: "With --camera simulator: the scene its images show (see 'hdrshoot simulate --help')."),
            SessionReplay.option
        ] + SSHConnection.options

    /// The parsed shared options.
    struct Options: Sendable {
        /// `--camera`, when given.
        var target: CameraTarget?
        /// `--confirm`.
        var confirm: Bool
        /// `--json`.
        var json: Bool
        /// The journal store of `--state-dir` (or the usual place).
        var store: JournalStore
        /// `--reconnect-timeout`.
        var reconnectTimeout: Duration
        /// Whether this process can ask and read keys (standard input and output are terminals).
        var interactive: Bool
        /// Whether standard output is a terminal (the live line).
        var liveOutput: Bool
        /// Not `--no-network-monitor`: pause while the host is off the camera's network (see `NetworkWatch`).
        var networkMonitor = true
        /// `--buffer`: the most frames fired ahead of the downloads.
        var bufferLimit = BracketRunner.Configuration.defaultBufferLimit
        /// `--transfer`.
        var transfer: TransferChoice = .all
        /// `--scene`: what the built-in simulator's images show.
        var scene: Scene.Name?
        /// `--check`: the range check after each set and for the bracket.
        var check: RangeCheckMode = .warn
        /// `--replay-session`: the log whose body the simulator becomes.
        var replay: SessionReplay?
        /// `--ssh-user`, `--ssh-password-file`, `--ssh-fingerprint` for a journaled camera behind SSH.
        var ssh = SSHConnection.Overrides()
        /// Whether the controller's confirm or decline answers the plan (`serve`'s page), not the terminal.
        var decidedByController = false
    }

    /// What `--transfer` asks to cross the Wi-Fi (the layer's type).
    typealias TransferChoice = ShootKit.TransferChoice

    /// Parses the shared options; `context` decides whether the process has a terminal.
    static func options(from arguments: ParsedArguments, context: CommandContext) throws -> Options {
        let target = try ChosenCamera.given(arguments, api: arguments.flag("api"))
        let timeout = try arguments.value("reconnect-timeout", default: Duration.seconds(300)) { text in
            guard let duration = parseDuration(text) else {
                throw UsageError("'\(text)' is not a duration; write it like 90s, 5m or 1h")
            }
            return duration
        }
        let buffer = try arguments.value("buffer", default: BracketRunner.Configuration.defaultBufferLimit) { text in
            guard let count = Int(text), (1...999).contains(count) else {
                throw UsageError("'\(text)' is not a buffer size; give a whole number of frames from 1 to 999")
            }
            return count
        }
        let transfer = try arguments.value("transfer", default: TransferChoice.all) { text in
            guard let choice = TransferChoice(rawValue: text) else {
                throw UsageError("'\(text)' is not a transfer choice; use all, jpeg or none")
            }
            return choice
        }
        let scene = try arguments.string("scene").map { text throws(UsageError) in
            guard let name = Scene.Name(rawValue: text.lowercased()) else {
                throw UsageError(
                    "'\(text)' is not a scene; use "
                        + Scene.Name.allCases.map(\.rawValue).joined(separator: ", "), command: arguments.command)
            }
            guard case .simulator? = target else {
                throw UsageError(
                    "--scene needs --camera simulator (a real camera shoots what it sees)", command: arguments.command)
            }
            return name
        }
        let check = try arguments.value("check", default: RangeCheckMode.warn) { text in
            guard let mode = RangeCheckMode(rawValue: text) else {
                throw UsageError("'\(text)' is not a range check; use off, warn or extend")
            }
            return mode
        }
        let directory = try JournalStore.resolveDirectory(option: arguments.string("state-dir"))
        // Only the real process streams can be a terminal; in-process runs (tests) never are.
        let real = context.output.reachesProcessStreams
        let replay = try SessionReplay.fromOption(arguments, output: context.output)
        var options = Options(
            target: target, confirm: arguments.flag("confirm"), json: arguments.flag("json"),
            store: JournalStore(directory: directory), reconnectTimeout: timeout,
            interactive: real && TerminalMode.isTerminal(.standardInput) && TerminalMode.isTerminal(.standardOutput),
            liveOutput: real && TerminalMode.isTerminal(.standardOutput),
            networkMonitor: !arguments.flag("no-network-monitor"),
            bufferLimit: buffer, transfer: transfer, scene: scene, check: check, replay: replay)
        options.ssh = SSHConnection.Overrides(arguments)
        options.decidedByController = context.decidedByController
        return options
    }

    /// `90s`, `5m`, `1h`, `300` (seconds) as a duration; nil when malformed or negative.
    static func parseDuration(_ text: String) -> Duration? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("min", 60), ("h", 3600)]
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        var scale = 1.0
        for (suffix, factor) in units.sorted(by: { $0.0.count > $1.0.count }) where body.hasSuffix(suffix) {
            body = body.dropLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(body), value.isFinite, value >= 0 else { return nil }
        return .milliseconds(Int64((value * scale * 1000).rounded()))
    }

    /// Where a progress sentence before the shoot goes ("Connecting to …"): standard output, or standard error
    /// with `--json` (standard output then holds only JSON lines).
    static func sayer(options: Options, output: any OutputStreams) -> @Sendable (String) -> Void {
        let json = options.json
        return { text in if json { output.writeError(text + "\n") } else { output.writeOut(text + "\n") } }
    }

    // MARK: - Asking

    /// Answers the controller's proposal from the terminal: yes with `--confirm`, else "Proceed? [y/N]" on a
    /// terminal; without a terminal refuses (exit 64). The answer is the controller's confirm or decline command
    /// (the controller decides); with nothing proposed (a series) a no refuses here. When the page answers
    /// (`serve`), nothing is asked on the terminal and the shoot waits in the proposed state.
    static func answer(
        _ proposal: ShootUpdate.Summary?, controller: ShootController, options: Options, output: any OutputStreams
    ) async throws {
        if options.decidedByController && !options.confirm && proposal != nil { return }
        let agreed = try await answer(options: options, output: output)
        guard proposal != nil else {
            guard agreed else { throw ShootPreparationError.declined }
            return
        }
        await controller.send(agreed ? .confirm : .decline)
    }

    /// The photographer's answer: yes with `--confirm`, else the answer to "Proceed? [y/N]" on a terminal.
    private static func answer(options: Options, output: any OutputStreams) async throws -> Bool {
        if options.confirm { return true }
        guard options.interactive else { throw ShootCommandError.needsConfirmation }
        let ask = options.json ? output.writeError : output.writeOut
        ask("Proceed? [y/N] ")
        let line = await LineInput.readLine()
        // Ctrl-D typed no newline: end the prompt's line so the answer to it starts on a line of its own.
        if line == nil { ask("\n") }
        let answer = line?.trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }

    // MARK: - Shooting

    /// Shoots `shoot` through `controller` (ShootKit's `prepare`, `shoot`, `conclude`) with the terminal as its
    /// client: progress rendered, keys and signals as commands; prints the end and returns the exit code.
    static func execute(
        _ shoot: PreparedBracket, controller: ShootController, options: Options, output: any OutputStreams
    ) async throws -> ExitCode {
        let network = await NetworkWatch.start(
            forJournalAddress: shoot.journal.camera.address, enabled: options.networkMonitor,
            messages: CLIMessages(), warn: { output.writeError($0 + "\n") })
        let warn: @Sendable (String) -> Void = { output.writeError($0 + "\n") }
        let reconnectTimeout = options.reconnectTimeout
        let settings = BracketSettings(
            transfer: options.transfer, check: options.check, bufferLimit: options.bufferLimit
        ) { outputDirectory, bufferLimit, downloads in
            TimeScale.current.runnerConfiguration(
                outputDirectory: outputDirectory, reconnectTimeout: reconnectTimeout, bufferLimit: bufferLimit,
                downloads: downloads, onScaledClock: false)
        }
        let style: ShootProgressView.Style = options.json ? .json : (options.liveOutput ? .live : .plain)
        let result = try await controller.shootToEnd(
            shoot, settings: settings, network: network, warn: warn,
            client: { execution, work in
                if let note = execution.transferNote { output.writeOut(note.sentence + "\n") }
                // The terminal's client around the work: the renderer, the keys and the signals.
                var session = ShootSession(
                    controller: controller, style: style, output: output, overhead: shoot.overhead,
                    noiseReduction: execution.noiseReduction, readsKeys: options.interactive)
                session.handlesSignals = !options.decidedByController
                return await session.run(work)
            })
        return report(result, outputDirectory: shoot.journal.outputDirectory, options: options, output: output)
    }

    /// Prints how the shoot ended and returns its exit code (`ErrorReport.exitCode(for:)`).
    static func report(
        _ result: ShootResult, outputDirectory: String, options: Options, output: any OutputStreams
    ) -> ExitCode {
        if options.json {
            output.writeOut(ShootUpdate.finished(.init(result, messages: CLIMessages())).jsonLine)
        }
        let exitCode = ErrorReport.exitCode(for: result)
        if let line = result.stopReason?.stopLine(reconnectTimeout: options.reconnectTimeout, frameInFlight: true) {
            output.writeError(line + "\n")
        }
        // A folder removed because nothing was fired into it is not shown.
        let folder =
            FileManager.default.fileExists(atPath: outputDirectory)
            ? "Images and manifest.json: \(outputDirectory)\n" : ""
        let end = ShootText.endLine(result) + "\n" + folder
        if options.json { output.writeError(end) } else { output.writeOut(end) }
        return exitCode
    }
}
