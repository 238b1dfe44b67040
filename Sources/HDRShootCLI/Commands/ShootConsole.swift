import Exposure
import Foundation
import Shooting
import SonyCamera

/// What `run` and `resume` share: their options, the confirmation, the shoot itself, and the end.
enum ShootConsole {
    /// Options both `run` and `resume` take (after the plan options for `run`).
    static let sharedOptions: [OptionSpec] = [
        .value(
            "camera", placeholder: "<host[:port]|http://host:port|simulator>",
            help: "The camera's address, or 'simulator' for the built-in simulated camera (default: the last one used)."
        ),
        .flag(
            "api", help: "Use Sony's Camera Remote API (older bodies); with 'simulator', the simulated legacy body."),
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
            default: "all")
    ]

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
    }

    /// What `--transfer` asks to cross the Wi-Fi.
    enum TransferChoice: String, Sendable, CaseIterable {
        /// Every file the camera sends.
        case all
        /// Only the JPEG of each shot; the RAW stays on the card.
        case jpeg
        /// Nothing: the camera keeps every image on its card.
        case none
    }

    /// Parses the shared options; `context` decides whether the process has a terminal.
    static func options(from arguments: ParsedArguments, context: CommandContext) throws -> Options {
        let target = try arguments.string("camera").map { text throws(UsageError) in
            try CameraTarget(parsing: text, command: arguments.command, api: arguments.flag("api"))
        }
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
        let directory = try JournalStore.resolveDirectory(option: arguments.string("state-dir"))
        // Only the real process streams can be a terminal; in-process runs (tests) never are.
        let real = context.output is StandardStreams
        return Options(
            target: target, confirm: arguments.flag("confirm"), json: arguments.flag("json"),
            store: JournalStore(directory: directory), reconnectTimeout: timeout,
            interactive: real && TerminalMode.isTerminal(0) && TerminalMode.isTerminal(1),
            liveOutput: real && TerminalMode.isTerminal(1), networkMonitor: !arguments.flag("no-network-monitor"),
            bufferLimit: buffer, transfer: transfer)
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

    /// Prints `lines` (the summary) and asks "Proceed? [y/N]" on a terminal; with `--confirm` proceeds;
    /// without a terminal refuses (exit 64); with blockers refuses (exit 69).
    static func confirm(
        _ lines: [String], blockers: [String], options: Options, output: any OutputStreams
    ) async throws {
        // Blockers are the error line that follows (one line, all of them), not part of the summary.
        let text = lines.map { $0 + "\n" }.joined()
        // With --json the summary is already a JSON line; people read it on standard error.
        if options.json { output.writeError(text) } else { output.writeOut(text) }
        guard blockers.isEmpty else { throw ShootCommandError.blocked(blockers) }
        if options.confirm { return }
        guard options.interactive else { throw ShootCommandError.needsConfirmation }
        let ask = options.json ? output.writeError : output.writeOut
        ask("Proceed? [y/N] ")
        let line = await LineInput.readLine()
        // Ctrl-D typed no newline: end the prompt's line so the answer to it starts on a line of its own.
        if line == nil { ask("\n") }
        let answer = line?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else { throw ShootCommandError.declined }
    }

    // MARK: - Shooting

    /// Everything a shoot needs once the camera is connected and the photographer agreed.
    struct Shoot: Sendable {
        /// The connected camera.
        var camera: any CommandCamera
        /// The shoot's journal, already in the store (a new one for `run`, the loaded one for `resume`).
        var journal: ShootJournal
        /// Where the journal is saved.
        var store: JournalStore
        /// The first frame not saved.
        var start: ShootPosition
        /// `--restart-set`.
        var restartingSet: Bool
        /// Speeds the plan asked for where the camera lacked them, by frame (for the manifest).
        var planned: [ShootPosition: ShutterSpeed]
        /// Speeds the camera reported for frames saved by earlier runs (for the manifest).
        var actual: [ShootPosition: String]
        /// Seconds per frame for the first time-left estimate.
        var overhead: Double
        /// Whether the output folder was made for this run, so it is removed again if nothing is fired into it.
        var removesUnusedOutput = false
    }

    /// Runs `shoot` with progress and controls, keeps the manifest current, prints the end; returns the exit code.
    static func execute(_ shoot: Shoot, options: Options, output: any OutputStreams) async throws -> ExitCode {
        var shoot = shoot
        let network = await NetworkWatch.start(
            forJournalAddress: shoot.journal.camera.address, enabled: options.networkMonitor, output: output)
        if let ssid = network?.cameraSSID { shoot.journal.camera.ssid = ssid.description }
        let recorder = JournalRecorder(journal: shoot.journal, store: shoot.store)
        let outputDirectory = URL(fileURLWithPath: shoot.journal.outputDirectory, isDirectory: true)
        let downloads = try await shoot.camera.prepareTransfer(choice: options.transfer, output: output)
        let runner = BracketRunner(
            camera: shoot.camera, plan: shoot.journal.plan,
            configuration: .init(
                outputDirectory: outputDirectory, reconnect: .standard(timeout: options.reconnectTimeout),
                bufferLimit: min(options.bufferLimit, shoot.camera.bufferCapacity ?? options.bufferLimit),
                downloads: downloads),
            recorder: recorder)
        let style: ShootProgressView.Style = options.json ? .json : (options.liveOutput ? .live : .plain)
        // Long Exposure NR as the body reports it (0xD15B); a body that does not is assumed to have it on.
        let noiseReduction: TimeLeftEstimator.NoiseReduction =
            await shoot.camera.longExposureNR == false ? .none : .darkFrame(threshold: 1)
        let view = ShootProgressView(
            style: style, output: output, plan: shoot.journal.plan, overhead: shoot.overhead,
            noiseReduction: noiseReduction)
        let manifest = ManifestKeeper(
            directory: shoot.journal.outputDirectory, planned: shoot.planned, actual: shoot.actual)
        // `resume` of a shoot whose folder went away (nothing was fired into it) makes it again.
        try? FileManager.default.createDirectory(
            atPath: shoot.journal.outputDirectory, withIntermediateDirectories: true)
        await manifest.write(await recorder.journal, output: output)

        let journalNow = await recorder.journal
        let resuming = ResumeState(
            saved: Set(
                journalNow.plan.positions.filter { position in
                    if case .done = journalNow.frame(at: position).state { return position > shoot.start }
                    return false
                }),
            inCamera: journalNow.framesInCamera,
            mayHaveFired: journalNow.interruptedFrames)
        let session = ShootSession(
            runner: runner, view: view, readsKeys: options.interactive, start: shoot.start,
            restartingSet: shoot.restartingSet, resuming: resuming,
            frameSaved: { progress in
                await manifest.saved(progress)
                await manifest.write(await recorder.journal, output: output)
            })
        let result = await NetworkWatch.guarding(runner, with: network, view: view, output: output) {
            await session.run()
        }
        await shoot.camera.disconnect()
        let journal = await recorder.journal
        await manifest.write(journal, output: output)
        if shoot.removesUnusedOutput, journal.savedCount == 0, journal.interruptedFrames.isEmpty {
            // Ended before its first frame fired: the folder holds nothing but the manifest of nothing.
            OutputFolder.removeIfUnused(shoot.journal.outputDirectory)
        }
        return report(result, outputDirectory: shoot.journal.outputDirectory, options: options, output: output)
    }

    /// Prints how the shoot ended and returns its exit code (`ErrorReport.exitCode(for:)`).
    static func report(
        _ result: ShootResult, outputDirectory: String, options: Options, output: any OutputStreams
    ) -> ExitCode {
        if options.json { output.writeOut(ShootText.jsonLine(ShootProgressView.json(.finished(result)))) }
        let exitCode = ErrorReport.exitCode(for: result)
        if let reason = result.stopReason {
            switch reason {
            case .stopRequested:
                break
            case .cancelled:
                output.writeError("The frame in flight was abandoned; `hdrshoot resume` shoots it again.\n")
            case .failed(let error):
                output.writeError("error: \(HDRShoot.message(for: error))\n")
            case let .reconnectGaveUp(attempts, lastError):
                // The cause alone: the connect error's own "(last: …)" and advice would nest inside this line.
                let last = lastError.map { " (last: \(ConnectText.cause($0)))" } ?? ""
                output.writeError(
                    "error: lost the camera and could not reconnect within \(ShootText.duration(options.reconnectTimeout)) "
                        + "after \(PlanReport.counted(attempts, "attempt"))\(last); check that the camera is on and in "
                        + "'Ctrl w/ Smartphone'; `hdrshoot resume` will continue once the camera is back\n")
            case .recordingFailed(let error):
                output.writeError("error: \(HDRShoot.message(for: error))\n")
            }
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
