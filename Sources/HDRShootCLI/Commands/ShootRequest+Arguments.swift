import Foundation
import ShootKit

extension ShootRequest {
    /// The start a command line asks for, typed: the one place argv becomes a request, for every command that
    /// starts a shoot from its options. `resume`: `--id`, `--restart-set`, `--skip-missed`, `--confirm`. `run`: the
    /// readings (`--auto`: metered), `--frames`, `--ev`, `--output`, `--link-shared`, `--confirm`, and with
    /// `--every` a series. `--check` (and `--check extend`) stays with the shoot options: every shoot's, not a start.
    /// Every bad value or combination is a usage error naming its option, before anything starts.
    init(arguments: ParsedArguments, now: Date) throws(UsageError) {
        if arguments.command == ResumeCommand.spec.name {
            self = .resume(
                ResumeRequest(
                    id: arguments.string("id"), restartSet: arguments.flag("restart-set"),
                    skipMissed: arguments.flag("skip-missed"), confirm: arguments.flag("confirm")))
            return
        }
        let auto = arguments.flag("auto")
        if auto {
            if arguments.string("shadow") != nil || arguments.string("highlight") != nil {
                throw UsageError(
                    "--auto finds the readings itself; leave out --shadow and --highlight", command: arguments.command)
            }
            if arguments.string("every") != nil {
                throw UsageError("--auto meters one bracket; it does not go with --every", command: arguments.command)
            }
        }
        let series = try SeriesRun.request(from: arguments, now: now)
        let readings: BracketRequest.Readings
        if auto {
            readings = .metered
        } else {
            let given = try PlanCommand.givenReadings(from: arguments, scale: try PlanCommand.scale(from: arguments))
            readings = .given(shadow: given.shadow, highlight: given.highlight)
        }
        let bracket = BracketRequest(
            readings: readings, frames: try PlanCommand.frames(from: arguments),
            spacing: try PlanCommand.spacing(from: arguments), output: arguments.string("output"),
            linkShared: arguments.flag("link-shared"), confirm: arguments.flag("confirm"))
        guard let series else {
            self = .bracket(bracket)
            return
        }
        if arguments.string("remote") != nil {
            throw UsageError(
                "--remote serves a single bracket; it does not go with --every yet", command: arguments.command)
        }
        self = .series(bracket, schedule: series)
    }

    /// Starts the shoot this request asks for with the shoot options of `arguments` (the camera, the planner's
    /// order and `--longest`, `--check`, `--json`, ...): the one way `run`, `resume` and `serve` (a request from
    /// the page) begin a shoot. Returns the exit code.
    func start(arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        switch self {
        case .bracket(let bracket):
            // A bracket, or `--auto`'s (RunCommand.swift).
            try await RunCommand.start(bracket, arguments: arguments, context)
        case .series(let bracket, let schedule):
            // `--every`: the same bracket repeated on a schedule (SeriesRun.swift).
            try await SeriesRun.run(bracket, settings: schedule, arguments: arguments, context)
        case .resume(let resume):
            // A bracket or a series, as its journal says (ResumeCommand.swift).
            try await ResumeCommand.start(resume, arguments: arguments, context)
        }
    }

    /// `run` and `resume`: the command line's request, started.
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        try await ShootRequest(arguments: arguments, now: context.wallClock.now()).start(arguments: arguments, context)
    }
}
