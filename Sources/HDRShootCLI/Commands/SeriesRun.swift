import Exposure
import Foundation
import ShootKit
import Shooting
import SonyCamera

/// `hdrshoot run --every ...`: the same bracket repeated on a schedule (interval HDR), and its `resume`.
enum SeriesRun {
    /// The series options of `run`.
    static let options: [OptionSpec] = [
        .value(
            "every", placeholder: "<duration>",
            help: "Repeat the bracket: start a repetition every interval (e.g. 2m, 90s)."),
        .value("count", placeholder: "<n>", help: "With --every: shoot n repetitions."),
        .value("until", placeholder: "<HH:MM>", help: "With --every: start no repetition after this local time."),
        .flag("forever", help: "With --every: repeat until stopped."),
        .value(
            "shift", placeholder: "<EV>",
            help: "With --every: each repetition this many stops slower (e.g. 1/3; negative for dawn).")
    ]

    /// The series settings of `arguments`, or `nil` without `--every`; a series option without `--every`, or
    /// not exactly one of `--count`, `--until`, `--forever`, is a usage error.
    static func request(from arguments: ParsedArguments, now: Date) throws(UsageError) -> SeriesRequest? {
        let ends =
            ["count", "until"].filter { arguments.string($0) != nil } + (arguments.flag("forever") ? ["forever"] : [])
        guard arguments.string("every") != nil else {
            if let stray = (ends + (arguments.string("shift") != nil ? ["shift"] : [])).first {
                throw UsageError(
                    "--\(stray) needs --every (the interval between repetitions)", command: arguments.command)
            }
            return nil
        }
        let every = try arguments.value("every", default: Duration.zero) { text in
            guard let duration = ShootConsole.parseDuration(text), duration >= .seconds(1) else {
                throw UsageError("'\(text)' is not an interval; write it like 2m, 90s or 1h (at least 1s)")
            }
            return duration
        }
        guard ends.count == 1 else {
            throw UsageError(
                ends.isEmpty
                    ? "--every needs an end: --count <n>, --until <HH:MM> or --forever"
                    : "give only one of --count, --until and --forever", command: arguments.command)
        }
        let end: SeriesRecord.End
        if arguments.flag("forever") {
            end = .forever
        } else if arguments.string("count") != nil {
            end = .count(
                try arguments.value("count", default: 1) { text in
                    guard let count = Int(text), count >= 1 else {
                        throw UsageError("'\(text)' is not a repetition count; use 1 or more")
                    }
                    return count
                })
        } else {
            end = .until(
                try arguments.value("until", default: now) { text in
                    guard let date = untilDate(text, after: now) else {
                        throw UsageError("'\(text)' is not a time of day; write it like 19:45 (24-hour, local time)")
                    }
                    return date
                })
        }
        let shift: EVAmount? = try arguments.value("shift", default: nil) { text in
            guard let value = evValue(text), abs(value) <= 10 else {
                throw UsageError("'\(text)' is not an EV amount; write it like 1/3, 0.5 or -1 (at most 10 stops)")
            }
            return EVAmount(sixths: Int((value * 6).rounded()))
        }
        return SeriesRequest(every: every, end: end, shift: shift)
    }

    /// `1/3`, `-2/3`, `0.5`, `1`, `1ev` as a number of stops.
    static func evValue(_ text: String) -> Double? {
        var body = text.trimmingCharacters(in: .whitespaces).lowercased()
        if body.hasSuffix("ev") { body.removeLast(2) }
        let parts = body.split(separator: "/", omittingEmptySubsequences: false)
        guard let numerator = parts.first.flatMap({ Double($0) }), numerator.isFinite else { return nil }
        guard parts.count == 2 else { return parts.count == 1 ? numerator : nil }
        guard let denominator = Double(parts[1]), denominator > 0 else { return nil }
        return numerator / denominator
    }

    /// The next local time `HH:MM[:SS]` after `now` (today, or tomorrow when it has passed).
    static func untilDate(_ text: String, after now: Date) -> Date? {
        let parts = text.split(separator: ":").map { Int($0) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
        let (hour, minute, second) = (parts[0]!, parts[1]!, parts.count == 3 ? parts[2]! : 0)
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        let calendar = Calendar.current
        guard let today = calendar.date(bySettingHour: hour, minute: minute, second: second, of: now) else {
            return nil
        }
        return today > now ? today : calendar.date(byAdding: .day, value: 1, to: today)
    }

    // MARK: - run

    /// Plans, connects, confirms and shoots a new series: `bracket` repeated on `settings`, with the plan and
    /// shoot options of `arguments`.
    static func run(
        _ bracket: BracketRequest, settings: SeriesRequest, arguments: ParsedArguments, _ context: CommandContext
    ) async throws -> ExitCode {
        let planOptions = try PlanCommand.options(from: arguments, bracket: bracket)
        let report = try PlanCommand.makeReport(planOptions, command: arguments.command)
        var options = try ShootConsole.options(from: arguments, context: context)
        if bracket.confirm { options.confirm = true }
        if options.check == .extend {
            // A series keeps its bracket the same for every repetition; its images are not range-checked yet.
            throw UsageError(
                "--check extend does not go with --every (a series shoots the same bracket each time)",
                command: arguments.command)
        }
        let environment = ProcessInfo.processInfo.environment
        let timeScale = try TimeScale(environment: environment)
        let addressStore = CameraAddressStore(environment: environment)
        let target = try ShootPreparation.target(options: options, remembered: addressStore, arguments: arguments)
        let root = RunCommand.absolutePath(
            bracket.output ?? RunCommand.defaultOutputName(at: context.wallClock.now()))
        // `--longest` (when given) caps a shifted plan; the scale's longest speed otherwise.
        let longest = arguments.string("longest") != nil ? planOptions.longest.speed : nil
        let stages = NewSeries(
            start: NewSeriesStart(
                bracket, schedule: settings, planner: planOptions.planner, longest: longest, root: root,
                overhead: planOptions.overhead, warnings: report.warnings, wallClock: context.wallClock,
                store: options.store, makeFolder: OutputFolder.create),
            timeScale: timeScale, wallClock: context.wallClock)
        // A series says nothing before its summary (no "Connecting to …").
        let preparation = ShootPreparation(
            options: options, output: context.output, environment: environment, say: nil, addressStore: addressStore)
        return try await preparation.prepare(stages, on: target)
    }

    /// A new series' stages: ShootKit's `NewSeriesStart` (the first repetition's plan matched to the camera, then
    /// the output root and the journal, whose schedule counts from the yes) and its summary lines.
    struct NewSeries: SeriesStages {
        /// The layer's start.
        let start: NewSeriesStart
        /// `HDRSHOOT_TIME_SCALE` (the test hook): how much faster the schedule runs.
        let timeScale: TimeScale
        /// The time of day the schedule starts from.
        let wallClock: WallClock

        /// The schedule, the fit, battery and card, the camera and the folders.
        func lines(_ matched: NewSeriesStart.Matched, check: CameraCheck) -> [String] {
            SeriesPlans.summaryLines(
                record: matched.record, plans: matched.plans, check: check, overhead: start.overhead)
        }
    }

    // MARK: - resume

    /// Continues the series of `journal` (locked by the caller): the controller decides where it resumes (the
    /// interrupted repetition first, then the schedule; a start time that passed is asked about on a terminal,
    /// shot late, or skipped with `--skip-missed`); the terminal prints the question and answers it.
    static func resume(
        _ journal: ShootJournal, request: ResumeRequest, options: ShootConsole.Options, target: CameraTarget,
        context: CommandContext
    ) async throws -> ExitCode {
        guard journal.series != nil else { preconditionFailure("resume of a series journal") }
        let output = context.output
        let timeScale = try TimeScale(environment: ProcessInfo.processInfo.environment)
        // The series' owner from here on: it asks the missed-start question, and the preparation goes on with it.
        let controller = ShootController(messages: CLIMessages())
        let resumed = try await controller.resumeSeries(
            journal, clocks: timeScale.seriesClocks(wallClock: context.wallClock), request: request,
            followsCamera: options.target != nil, store: options.store,
            mayAsk: options.interactive && !options.confirm
        ) { question in
            // The terminal answers the controller's question: n shoots late, s skips, anything else stops.
            output.writeOut(question.text)
            let typed = await LineInput.readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
            let command: ShootCommand =
                switch typed {
                case "n": .answer(SeriesResumption.shootLate)
                case "s": .answer(SeriesResumption.skipMissed)
                default: .stop
                }
            await controller.send(command)
        }
        let start: ResumedSeriesStart
        switch resumed {
        case .nothingLeft(let why):
            output.writeOut(why.nothingLeftSentence + "\n")
            return .success
        case .start(let resumedStart):
            start = resumedStart
        }
        let stages = ResumedSeries(
            start: start, notes: start.resumption.notes, timeScale: timeScale,
            wallClock: context.wallClock)
        let preparation = ShootPreparation(
            options: options, output: output, environment: ProcessInfo.processInfo.environment, say: nil,
            resuming: true, controller: controller)
        return try await preparation.prepare(stages, on: target)
    }

    /// A resumed series' stages: ShootKit's `ResumedSeriesStart` (the schedule from the resume point checked
    /// against the camera, the journal following the camera used) and its summary lines.
    struct ResumedSeries: SeriesStages {
        /// The layer's start.
        let start: ResumedSeriesStart
        /// Notes after the first summary line (an interrupted repetition, missed start times).
        let notes: [String]
        /// `HDRSHOOT_TIME_SCALE` (the test hook): how much faster the schedule runs.
        let timeScale: TimeScale
        /// The time of day the schedule starts from.
        let wallClock: WallClock

        /// The repetitions done, the notes, and the schedule's summary from the resume point.
        func lines(_ plans: [SeriesJournalRecorder.Prepared], check: CameraCheck) -> [String] {
            let journal = start.resumption.journal
            guard let record = journal.series else { preconditionFailure("a series journal") }
            var lines = [
                "Series \(journal.id): \(record.repetitions.filter { $0.state == .done }.count) repetition(s) done."
            ]
            lines += notes
            lines += SeriesPlans.summaryLines(
                record: record, plans: plans, check: check, overhead: BracketPlan.defaultOverheadPerFrame,
                from: start.resumption.start)
            return lines
        }
    }
}

/// A series' stages' terminal client: `SeriesSession` shoots the repetitions on the schedule.
protocol SeriesStages: ShootStages where Start.Recorded == SeriesLaunch {
    /// `HDRSHOOT_TIME_SCALE` (the test hook): how much faster the schedule runs.
    var timeScale: TimeScale { get }
    /// The time of day the schedule starts from.
    var wallClock: WallClock { get }
}

extension SeriesStages {
    /// Shoots the series through the controller with the terminal as its client; returns the exit code.
    func execute(_ launch: SeriesLaunch, in preparation: ShootPreparation) async throws -> ExitCode {
        await SeriesSession(launch, timeScale: timeScale, wallClock: wallClock).execute(
            controller: preparation.controller, options: preparation.options, output: preparation.output)
    }
}
