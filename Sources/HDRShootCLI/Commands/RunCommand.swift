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
        run: ShootRequest.run
    )

    /// Shoots `request` (a bracket, or `--auto`'s) with the shoot options of `arguments` (the camera, the planner's
    /// order and `--longest`, `--check`, `--json`, ...): what `ShootRequest.start` does with a `.bracket`, from
    /// `run`'s options or the page's form. The order (metering before the plan, the output folder refused before
    /// the camera) is the controller's (`ShootController.start`); this says its lines.
    static func start(
        _ request: BracketRequest, arguments: ParsedArguments, _ context: CommandContext
    ) async throws -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let addressStore = CameraAddressStore(environment: environment)
        let controller = context.shootController ?? ShootController(messages: CLIMessages())
        let outputDirectory = absolutePath(request.output ?? defaultOutputName(at: context.wallClock.now()))
        // `--auto` reaches the camera before anything is planned: which camera, and the shoot options, first.
        let metering =
            request.readings == .metered
            ? try meteringCamera(arguments, context: context, remembered: addressStore) : nil
        return try await controller.start(
            request, into: outputDirectory,
            meter: { folder in
                guard let metering else { throw ShootPreparation.noCamera(command: arguments.command) }
                // The metering's own connection (MeterCommand.swift), closed after; probes in `folder/probes`.
                let say = ShootConsole.sayer(options: metering.options, output: context.output)
                let outcome = try await AutoMetering.measure(
                    with: metering.camera, environment: environment, scene: metering.options.scene, folder: folder,
                    say: say)
                say(outcome.line)
                return outcome
            },
            plan: { outcome in
                try plan(
                    request, metering: outcome, outputDirectory: outputDirectory, arguments: arguments,
                    context: context, addressStore: addressStore, controller: controller)
            },
            prepare: { planned in
                // What will be shot is known before the camera answers: say it, then say whom we are waiting for.
                planned.preparation.say?(planned.stages.planLine)
                return try await planned.preparation.prepare(planned.stages, on: planned.target, remote: arguments)
            })
    }

    /// A new bracket planned from its readings (given, or `--auto`'s) and its preparation on the terminal.
    private struct Planned {
        /// The layer's start and the summary's lines.
        var stages: NewBracket
        /// The terminal's side of the start.
        var preparation: ShootPreparation
        /// The camera it is shot on.
        var target: CameraTarget
    }

    /// Plans `request` from `arguments` (the readings `metering` found with `--auto`) and makes its stages and
    /// the terminal's preparation; every refusal of the options is a usage error naming its option.
    private static func plan(
        _ request: BracketRequest, metering: AutoMetering.Outcome?, outputDirectory: String,
        arguments: ParsedArguments, context: CommandContext, addressStore: CameraAddressStore,
        controller: ShootController
    ) throws -> Planned {
        let planOptions = try PlanCommand.options(from: arguments, readings: metering?.readings, bracket: request)
        let report = try PlanCommand.makeReport(planOptions, command: arguments.command)
        var options = try ShootConsole.options(from: arguments, context: context)
        if request.confirm { options.confirm = true }
        if request.linkShared && !planOptions.planner.dedupe {
            throw UsageError(
                "--link-shared needs --dedupe (without it every set shoots its own copy of the frame it shares)",
                command: arguments.command)
        }
        let target = try ShootPreparation.target(options: options, remembered: addressStore, arguments: arguments)
        let stages = NewBracket(
            start: NewBracketStart(
                planner: planOptions.planner, shadow: planOptions.shadow.speed,
                highlight: planOptions.highlight.speed, longest: planOptions.longest.speed,
                overhead: planOptions.overhead, notes: report.notes, metering: metering,
                outputDirectory: outputDirectory, linkShared: request.linkShared, store: options.store,
                makeFolder: OutputFolder.create),
            planLine: ShootText.summary(report.plan, overhead: planOptions.overhead))
        let preparation = ShootPreparation(
            options: options, output: context.output, environment: ProcessInfo.processInfo.environment,
            say: ShootConsole.sayer(options: options, output: context.output), addressStore: addressStore,
            controller: controller)
        return Planned(stages: stages, preparation: preparation, target: target)
    }

    /// `--auto`'s camera, the one the shoot will use (`ChosenCamera`: `--camera`, else the remembered one, the
    /// SSH options applied, the replayed body), and the shoot options it is metered with.
    private static func meteringCamera(
        _ arguments: ParsedArguments, context: CommandContext, remembered store: CameraAddressStore
    ) throws -> (camera: ChosenCamera, options: ShootConsole.Options) {
        let options = try ShootConsole.options(from: arguments, context: context)
        let camera = try ChosenCamera.choose(
            given: options.target, or: .remembered(store), arguments: arguments, replay: options.replay,
            noCamera: ShootPreparation.noCamera(command: arguments.command))
        return (camera, options)
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
