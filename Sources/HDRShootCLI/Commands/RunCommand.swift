import Exposure
import Foundation
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
        options: PlanCommand.spec.options.filter { $0.name != "json" } + ShootConsole.sharedOptions + [
            .value("output", placeholder: "<dir>", help: "Folder for the images.", default: "./hdrshoot-<date>-<time>"),
        ] + SeriesRun.options,
        run: run
    )

    @Sendable private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        // `--every`: the same bracket repeated on a schedule (SeriesRun.swift).
        if let series = try SeriesRun.settings(from: arguments) { return try await SeriesRun.run(arguments, context, settings: series) }
        let planOptions = try PlanCommand.options(from: arguments)
        let report = try PlanCommand.makeReport(planOptions, command: arguments.command)
        let options = try ShootConsole.options(from: arguments, context: context)
        let environment = ProcessInfo.processInfo.environment
        let addressStore = CameraAddressStore(environment: environment)
        let target: CameraTarget
        if let given = options.target {
            target = given
        } else if let remembered = addressStore.load() {
            target = .address(remembered)
        } else {
            throw UsageError(
                "no camera given and none remembered; pass --camera HOST[:PORT], or --camera simulator to try hdrshoot "
                    + "without a camera", command: arguments.command)
        }
        let outputDirectory = absolutePath(arguments.string("output") ?? defaultOutputName(at: Date()))
        let output = context.output

        return try await target.withCamera(environment: environment) { camera, address in
            do {
                let check = try await CameraCheck.connect(camera, address: address)
                if case .address(let remembered) = target { await addressStore.save(remembered) }
                let matched: MatchedPlan
                do {
                    matched = try SpeedMatcher.match(report.plan, offered: check.offered)
                } catch {
                    throw ShootCommandError.blocked([HDRShoot.message(for: error)])
                }
                let plan = BracketPlan(sets: matched.sets, warnings: report.warnings + matched.warnings)
                var substitutions: [ShootJournal.Substitution] = []
                for substitution in matched.substitutions {
                    let pair = ShootJournal.Substitution(planned: substitution.planned, used: substitution.used)
                    if !substitutions.contains(pair) { substitutions.append(pair) }
                }
                let summary = summaryLines(plan: plan, substitutions: substitutions, check: check, output: outputDirectory, overhead: planOptions.overhead)
                if options.json {
                    output.writeOut(ShootText.jsonLine(summaryJSON(plan: plan, substitutions: substitutions, check: check, output: outputDirectory, overhead: planOptions.overhead)))
                }
                try await ShootConsole.confirm(summary, blockers: check.blockers, options: options, output: output)

                do {
                    try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
                } catch {
                    throw ShootCommandError.outputUnavailable(path: outputDirectory, reason: error.localizedDescription)
                }
                let journal = ShootJournal(plan: plan, camera: check.identity, substitutions: substitutions, outputDirectory: outputDirectory)
                // Held while this process shoots, so `hdrshoot resume` elsewhere cannot take the same shoot.
                let lock = try await options.store.lock(id: journal.id)
                defer { withExtendedLifetime(lock) {} }
                try await options.store.create(journal)
                var planned: [ShootPosition: ShutterSpeed] = [:]
                for substitution in matched.substitutions {
                    planned[ShootPosition(set: substitution.setIndex + 1, frame: substitution.frameIndex + 1)] = substitution.planned
                }
                let shoot = ShootConsole.Shoot(
                    camera: camera, journal: journal, store: options.store, start: .start, restartingSet: false,
                    planned: planned, actual: [:], overhead: planOptions.overhead)
                return try await ShootConsole.execute(shoot, options: options, output: output)
            } catch {
                await camera.disconnect()
                throw error
            }
        }
    }

    /// The confirmation summary: the counts line, camera, substitutions, warnings, output folder.
    static func summaryLines(
        plan: BracketPlan, substitutions: [ShootJournal.Substitution], check: CameraCheck, output: String, overhead: Double
    ) -> [String] {
        var lines = [ShootText.summary(plan, overhead: overhead)]
        lines += ShootText.substitutionLines(substitutions)
        lines += plan.warnings.map { "warning: \($0)" }
        lines.append("Camera: \(check.identity.model) at \(check.identity.address)")
        lines.append("Images: \(output)")
        return lines
    }

    /// The summary as the first JSON line of `--json`.
    static func summaryJSON(
        plan: BracketPlan, substitutions: [ShootJournal.Substitution], check: CameraCheck, output: String, overhead: Double
    ) -> [String: Any] {
        [
            "event": "summary",
            "sets": plan.sets.count,
            "exposures": plan.totalExposures,
            "longestExposureSeconds": plan.longestExposure?.seconds ?? 0,
            "estimatedSeconds": PlanReport.rounded(plan.estimatedSeconds(overheadPerFrame: overhead), places: 2),
            "speeds": plan.sets.map { $0.map(\.label) },
            "substitutions": substitutions.map { ["planned": $0.planned.label, "used": $0.used.label] },
            "warnings": plan.warnings,
            "blockers": check.blockers,
            "camera": ["model": check.identity.model, "address": check.identity.address, "serialNumber": check.identity.serialNumber ?? ""],
            "output": output,
        ]
    }

    /// `hdrshoot-20261122-071502` in local time.
    static func defaultOutputName(at date: Date) -> String {
        let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let text = String(value ?? 0); return text.count < 2 ? "0" + text : text }
        return "hdrshoot-\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))"
    }

    /// `path` made absolute against the current directory, so the journal can find it from anywhere.
    static func absolutePath(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}
