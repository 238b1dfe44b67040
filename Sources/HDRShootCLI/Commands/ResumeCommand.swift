import Exposure
import Foundation
import ShootKit
import Shooting
import SonyCamera

/// `hdrshoot resume`: continues the latest unfinished shoot from its journal.
enum ResumeCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "resume",
        abstract: "Continue the last stopped or interrupted shoot.",
        discussion: """
            Reads the latest unfinished journal in the state directory, reconnects to the same camera (or to
            --camera), checks its mode and speeds again, shows what remains (frames that were in flight when
            hdrshoot stopped are shot again and may be on the card twice) and asks like 'hdrshoot run'.
            With --restart-set the interrupted set is shot again from its first frame. Exit status as for run.
            """,
        options: ShootConsole.sharedOptions + [
            .value(
                "id", placeholder: "<id>",
                help: "The shoot to continue (see 'hdrshoot status'; default: the latest unfinished one)."),
            .flag("restart-set", help: "Shoot the interrupted set again from its first frame."),
            .flag("skip-missed", help: "Series: skip repetitions whose start time passed, keeping the clock times."),
            RemoteServing.remoteOption, RemoteServing.tokenFileOption
        ],
        run: ShootRequest.run
    )

    /// Continues the shoot `request` names (a bracket or a series) with the shoot options of `arguments` (the
    /// camera, `--check`, `--json`, ...): what `ShootRequest.start` does with a `.resume`, from `resume`'s options or
    /// the page's Resume.
    static func start(
        _ request: ResumeRequest, arguments: ParsedArguments, _ context: CommandContext
    ) async throws -> ExitCode {
        var options = try ShootConsole.options(from: arguments, context: context)
        if request.confirm { options.confirm = true }
        // The layer finds the shoot and claims it for this process (held until the shoot ends).
        let lookup = try await ResumeLookup.find(request, in: options.store)
        defer { withExtendedLifetime(lookup.lock) {} }
        let journal = lookup.journal
        var notes: [String] = []
        if lookup.olderUnfinished > 0 {
            let others = lookup.olderUnfinished
            notes.append(
                "note: \(others) older unfinished shoot\(others == 1 ? "" : "s") too; `hdrshoot status` lists them, "
                    + "`hdrshoot resume --id ID` picks one")
        }
        let target = try ShootPreparation.target(options: options, journal: journal, arguments: arguments)
        // The layer decides what the shoot comes to; the terminal renders it.
        let start: ResumedBracketStart
        switch lookup.choice(request, followsCamera: options.target != nil, store: options.store) {
        case .series(let series):
            return try await SeriesRun.resume(
                series, request: request, options: options, target: target, context: context)
        case .allSaved(_, let exposures):
            context.output.writeOut(ResumeChoice.allSavedSentence(exposures: exposures) + "\n")
            return .success
        case .bracket(let bracket):
            start = bracket
        }
        let output = context.output
        let stages = ResumedBracket(start: start, notes: notes)
        let preparation = ShootPreparation(
            options: options, output: output, environment: ProcessInfo.processInfo.environment,
            say: ShootConsole.sayer(options: options, output: output), resuming: true,
            controller: context.shootController ?? ShootController(messages: CLIMessages()))
        return try await preparation.prepare(stages, on: target, remote: arguments)
    }

    /// `resume`'s stages: ShootKit's `ResumedBracketStart` (what remains checked against the camera, the journal
    /// following the camera used) and its summary lines.
    struct ResumedBracket: ShootStages {
        /// The layer's start.
        let start: ResumedBracketStart
        /// Notes after the summary (older unfinished shoots).
        let notes: [String]

        /// What remains, what may be on the card twice, the camera, the notes.
        func lines(_ matched: Void, check: CameraCheck) -> [String] {
            summaryLines(
                journal: start.journal, start: start.start, restartingSet: start.restartingSet, check: check) + notes
        }
    }

    /// What remains, the frames that may be on the card twice, the camera, and the estimate.
    static func summaryLines(
        journal: ShootJournal, start: ShootPosition, restartingSet: Bool, check: CameraCheck
    ) -> [String] {
        let plan = journal.plan
        let inCamera = restartingSet ? [] : journal.framesInCamera.filter { $0 >= start }
        let remaining = plan.positions.filter { position in
            guard position >= start, !inCamera.contains(position) else { return false }
            if case .done = journal.frame(at: position).state, !restartingSet { return false }
            return true
        }
        let waiting =
            inCamera.isEmpty ? "" : "\(inCamera.count) fired and waiting in the camera to be downloaded first; "
        var lines = [
            "Shoot \(journal.id): \(journal.savedCount) of \(plan.totalExposures) exposures saved; \(waiting)"
                + "\(remaining.count) to shoot\(remaining.first.map { " from \($0)" } ?? "")"
                + "\(restartingSet ? " (restarting the set)" : "")."
        ]
        let remainingPlan = BracketPlan(sets: [remaining.compactMap { plan.speed(at: $0) }])
        let longest = remainingPlan.longestExposure?.label ?? "-"
        let estimate = PlanReport.duration(
            remainingPlan.estimatedSeconds(overheadPerFrame: BracketPlan.defaultOverheadPerFrame))
        lines.append("Longest exposure: \(longest). Estimated time: ~\(estimate).")
        if let line = LongExposureText.noiseReductionLine(
            remainingPlan, overhead: BracketPlan.defaultOverheadPerFrame, longExposureNR: nil)
        {
            lines.append(line)
        }
        for position in journal.interruptedFrames {
            let speed = plan.speed(at: position)?.label ?? "?"
            lines.append(
                "\(position) (\(speed)) was in flight when hdrshoot stopped: its image is looked for in the camera "
                    + "first, and it is shot again only if none is there (possibly duplicated on the card)"
            )
        }
        lines += ShootText.substitutionLines(journal.substitutions)
        let previous = journal.camera
        if let serial = check.identity.serialNumber, let before = previous.serialNumber, serial != before {
            lines.append("warning: this is not the camera the shoot started on (\(previous.model), serial \(before))")
        }
        lines.append("Camera: \(check.identity.model) at \(check.identity.address)")
        lines.append("Images: \(journal.outputDirectory)")
        return lines
    }
}
