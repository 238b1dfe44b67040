import Exposure
import Foundation
import ShootKit
import Shooting
import SonyCamera

/// `hdrshoot run`: plans from two readings, checks the camera, asks, and shoots every frame with a journal.
enum RunCommand {
    /// The command's declaration: the plan options of `hdrshoot plan` (its `--json` aside) plus the shoot's.
    static let spec = CommandSpec(
        name: "run",
        abstract: "Plan and shoot the bracket sets on the camera.",
        discussion: """
            Plans like 'hdrshoot plan', connects to the camera, matches the plan to the speeds it offers, shows
            what will be shot and asks before firing (--confirm skips the question; it is required when not on a
            terminal). While shooting: space or p pauses and continues, q or Ctrl-C stops after the current frame
            (Ctrl-C twice abandons it). Images go to one folder per set with a manifest.json; a journal in the
            state directory lets 'hdrshoot resume' continue a stopped shoot. Exit status: 0 complete, 64 usage,
            69 camera unavailable, 75 stopped but resumable, 1 other failure. With --every and one of --count,
            --until or --forever the bracket is repeated on a schedule (interval HDR), one folder per repetition.
            """,
        options: readingOptions + ShootConsole.sharedOptions + [
            .value(
                "output", placeholder: "<dir>", help: "Folder for the images (a new one, or one without a shoot).",
                default: "./hdrshoot-<date>-<time>"),
            .flag("link-shared", help: "With --dedupe: hard-link each shared frame into both sets' folders."),
            .flag(
                "auto",
                help: "Find --shadow and --highlight with probe frames first (as 'hdrshoot meter'; probes in probes/)."),
            RemoteServing.remoteOption, RemoteServing.tokenFileOption
        ] + SeriesRun.options,
        run: run
    )

    @Sendable private static func run(
        _ arguments: ParsedArguments, _ context: CommandContext
    ) async throws -> ExitCode {
        try await ShootRequest.run(arguments, context)
    }

    /// Shoots `request` (a bracket, or `--auto`'s) with the shoot options of `arguments` (the camera, the planner's
    /// order and `--longest`, `--check`, `--json`, ...): what `ShootRequest.start` does with a `.bracket`, from
    /// `run`'s options or the page's form.
    static func start(
        _ request: BracketRequest, arguments: ParsedArguments, _ context: CommandContext
    ) async throws -> ExitCode {
        // `--auto`: the readings come from probe frames (MeterCommand.swift); the plan takes them beside the
        // request.
        let metering = request.readings == .metered ? try await autoMeter(request, arguments, context) : nil
        let planOptions = try PlanCommand.options(
            from: arguments, readings: metering?.outcome.readings, bracket: request)
        let report = try PlanCommand.makeReport(planOptions, command: arguments.command)
        var options = try ShootConsole.options(from: arguments, context: context)
        if request.confirm { options.confirm = true }
        if request.linkShared && !planOptions.planner.dedupe {
            throw UsageError(
                "--link-shared needs --dedupe (without it every set shoots its own copy of the frame it shares)",
                command: arguments.command)
        }
        let environment = ProcessInfo.processInfo.environment
        let addressStore = CameraAddressStore(environment: environment)
        let target = try ShootPreparation.target(
            given: options.target, remembered: addressStore, command: arguments.command)
        let outputDirectory =
            metering?.outputDirectory
            ?? absolutePath(request.output ?? defaultOutputName(at: context.wallClock.now()))
        // Before the camera: a folder holding another shoot would mix two shoots' files and manifests.
        if let occupant = await ShootManifest.occupant(of: outputDirectory) {
            throw ShootCommandError.outputHoldsAnotherShoot(path: outputDirectory, occupant: occupant)
        }
        let output = context.output
        // What will be shot is known before the camera answers: say it, then say whom we are waiting for.
        let say = ShootConsole.sayer(options: options, output: output)
        let planLine = ShootText.summary(report.plan, overhead: planOptions.overhead)
        say(planLine)
        let stages = NewBracket(
            start: NewBracketStart(
                planner: planOptions.planner, shadow: planOptions.shadow.speed,
                highlight: planOptions.highlight.speed, longest: planOptions.longest.speed,
                overhead: planOptions.overhead, notes: report.notes, metering: metering?.outcome,
                outputDirectory: outputDirectory, linkShared: request.linkShared, store: options.store,
                makeFolder: OutputFolder.create),
            planLine: planLine)
        let preparation = ShootPreparation(
            options: options, output: output, environment: environment, say: say, addressStore: addressStore,
            controller: context.shootController ?? ShootController(messages: CLIMessages()))
        return try await preparation.prepare(stages, on: target, remote: arguments)
    }

    /// `run`'s stages: ShootKit's `NewBracketStart` (a fresh plan matched to the camera's speeds, a new output
    /// folder and journal) and its summary lines.
    struct NewBracket: ShootStages {
        /// The layer's start.
        let start: NewBracketStart
        /// The plan's counts line, already said before connecting (not said twice).
        let planLine: String

        /// `--auto`'s line, the counts (unless said already), Long Exposure NR, substitutions, warnings, camera,
        /// folder.
        func lines(_ matched: NewBracketStart.Matched, check: CameraCheck) -> [String] {
            var lines = summaryLines(
                plan: matched.plan, substitutions: matched.matched.substitutions, check: check,
                output: start.outputDirectory, overhead: start.overhead, longExposureNR: check.longExposureNR)
            if lines.first == planLine { lines.removeFirst() }
            if let metering = start.metering { lines.insert(metering.line, at: 0) }
            return lines
        }
    }

    /// The plan options of `hdrshoot plan` but `--json`; the readings are optional to the parser (`--auto` finds
    /// them), and planning asks for them when they are missing without it.
    private static var readingOptions: [OptionSpec] {
        PlanCommand.spec.options.filter { $0.name != "json" }.map { option in
            guard option.isRequired else { return option }
            return OptionSpec(
                name: option.name, kind: option.kind, help: option.help + " Not with --auto.",
                defaultDescription: option.defaultDescription, isRequired: false, isRepeatable: option.isRepeatable,
                isHidden: option.isHidden)
        }
    }

    /// `--auto`: meters on the camera (its own connection, closed after) with probes in the output folder's
    /// `probes/`; returns what it found and the folder it chose (the shoot's too).
    private static func autoMeter(
        _ request: BracketRequest, _ arguments: ParsedArguments, _ context: CommandContext
    ) async throws -> (outcome: AutoMetering.Outcome, outputDirectory: String) {
        let options = try ShootConsole.options(from: arguments, context: context)
        let environment = ProcessInfo.processInfo.environment
        guard let target = options.target ?? CameraAddressStore(environment: environment).load().map({ .address($0) })
        else { throw ShootPreparation.noCamera(command: arguments.command) }
        let outputDirectory = absolutePath(request.output ?? defaultOutputName(at: context.wallClock.now()))
        if let occupant = await ShootManifest.occupant(of: outputDirectory) {
            throw ShootCommandError.outputHoldsAnotherShoot(path: outputDirectory, occupant: occupant)
        }
        let say = ShootConsole.sayer(options: options, output: context.output)
        let outcome = try await AutoMetering.measure(
            with: target, environment: environment, scene: options.scene, folder: outputDirectory, say: say)
        say(outcome.line)
        return (outcome, outputDirectory)
    }

    /// The confirmation summary: the counts line, the Long Exposure NR line, substitutions, warnings, camera,
    /// output folder. `longExposureNR` is the body's setting (0xD15B) when known; nil assumes it on.
    static func summaryLines(
        plan: BracketPlan, substitutions: [SpeedSubstitution], check: CameraCheck, output: String, overhead: Double,
        longExposureNR: Bool? = nil
    ) -> [String] {
        var lines = [ShootText.summary(plan, overhead: overhead)]
        if let line = LongExposureText.noiseReductionLine(plan, overhead: overhead, longExposureNR: longExposureNR) {
            lines.append(line)
        }
        lines += ShootText.substitutionLines(substitutions)
        lines += plan.warnings.map { "warning: \($0)" }
        lines.append("Camera: \(check.identity.model) at \(check.identity.address)")
        lines.append("Images: \(output)")
        return lines
    }

    /// `hdrshoot-20261122-071502` in local time.
    static func defaultOutputName(at date: Date) -> String {
        let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let text = String(value ?? 0)
            return text.count < 2 ? "0" + text : text
        }
        return
            "hdrshoot-\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))"
    }

    /// `path` made absolute against the current directory, so the journal can find it from anywhere.
    static func absolutePath(_ path: String) -> String {
        let url =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}
