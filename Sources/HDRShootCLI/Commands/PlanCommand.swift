import Exposure
import ShootKit

/// `hdrshoot plan`: turns a shadow and a highlight meter reading into bracket sets.
enum PlanCommand {
    /// The command's declaration: options, help, and `run`.
    static let spec = CommandSpec(
        name: "plan",
        abstract: "Plan HDR bracket sets from two meter readings.",
        discussion: """
            Meter the darkest shadow and the brightest highlight you want detail in (same aperture and ISO) and
            give both readings as shutter speeds: 1/250, 0.5, 0.5", 2s; past 30" with a unit: 40", 80s, 1', 2'30",
            2m30s (a bare 250 is refused: write 1/250 or 250"). Speeds between stops snap to the nearest stop of
            the scale, with a warning. Frames past 30" are bulb frames (marked in the table), planned only when
            the shadow reading is past 30" and never past --longest.
            """,
        options: [
            .value(
                "shadow", placeholder: "<speed>", help: "Reading for the darkest shadow (e.g. 1/4).", required: true),
            .value(
                "highlight", placeholder: "<speed>", help: "Reading for the brightest highlight (e.g. 1/1000).",
                required: true),
            .value("frames", placeholder: "<n>", help: "Frames per set, 2 to 15.", default: "5"),
            .value(
                "ev", placeholder: "<stops>", help: "EV between frames: 0.3 to 3 in thirds, or 1.5, 2.5.",
                default: "1"),
            .value("scale", placeholder: "<third|half>", help: "Shutter-speed scale.", default: "third"),
            .value("order", placeholder: "<fast-first|slow-first>", help: "Shooting order.", default: "fast-first"),
            .value(
                "longest", placeholder: "<speed>", help: "Longest exposure to plan (bulb past 30\", up to 30').",
                default: "4'"),
            .flag("dedupe", help: "Shoot the frame two consecutive sets share only once."),
            .flag("no-dedupe", help: "Shoot it in both sets (overrides 'dedupe = yes' in the config file)."),
            .value(
                "overhead", placeholder: "<seconds>", help: "Per-frame overhead for the time estimate.",
                default: "\(BracketPlan.defaultOverheadPerFrame)"),
            .flag("json", help: "Print the plan as one JSON object.")
        ],
        run: run
    )

    /// The options of one `plan` invocation, converted and validated.
    struct Options: Sendable {
        /// The shadow reading, resolved to a stop.
        var shadow: ParsedSpeed
        /// The highlight reading, resolved to a stop.
        var highlight: ParsedSpeed
        /// The planner configured from `--frames`, `--ev`, `--scale`, `--dedupe`, `--order`.
        var planner: BracketPlanner
        /// `--longest`, resolved to a stop (snapped ones are noted like the readings).
        var longest: ParsedSpeed
        /// `--overhead` in seconds.
        var overhead: Double
        /// `--json`.
        var json: Bool
    }

    /// Converts parsed arguments into planner inputs; every bad value is a usage error naming its option.
    /// `readings` (what `run --auto` found) take the place of `--shadow` and `--highlight`; a `bracket` request's
    /// given readings, frames and spacing take the place of theirs.
    static func options(
        from arguments: ParsedArguments, readings: (highlight: ShutterSpeed, shadow: ShutterSpeed)? = nil,
        bracket: BracketRequest? = nil
    ) throws(UsageError) -> Options {
        let scale = try scale(from: arguments)
        let shadow: ParsedSpeed
        let highlight: ParsedSpeed
        if let readings {
            // Found speeds are stops of the camera's scale; parsed as typed labels so a half-scale plan snaps
            // them the way it snaps a typed reading.
            shadow = try arguments.parse("shadow", readings.shadow.label) { try scale.parseSpeed($0) }
            highlight = try arguments.parse("highlight", readings.highlight.label) { try scale.parseSpeed($0) }
        } else if case .given(let given, let other)? = bracket?.readings {
            (shadow, highlight) = (given, other)
        } else {
            (shadow, highlight) = try givenReadings(from: arguments, scale: scale)
        }
        let frames: Int
        if let given = bracket?.frames { frames = given } else { frames = try Self.frames(from: arguments) }
        let spacing: EVAmount
        if let given = bracket?.spacing { spacing = given } else { spacing = try Self.spacing(from: arguments) }
        let order = try arguments.value("order", default: BracketOrder.fastFirst) { text in
            guard let order = BracketOrder(rawValue: text) else {
                throw UsageError("'\(text)' is not an order; use fast-first or slow-first")
            }
            return order
        }
        let defaultLongest = ParsedSpeed(
            speed: BracketPlanner.defaultLongest, typed: BracketPlanner.defaultLongest.label, wasSnapped: false)
        let longest = try arguments.value("longest", default: defaultLongest) { try scale.parseSpeed($0) }
        let overhead = try arguments.value("overhead", default: BracketPlan.defaultOverheadPerFrame) { text in
            let body = text.hasSuffix("s") ? String(text.dropLast()) : text
            guard let seconds = Double(body), seconds.isFinite, seconds >= 0, seconds <= 60 else {
                throw UsageError("'\(text)' is not an overhead; use seconds from 0 to 60 (e.g. 0.25)")
            }
            return seconds
        }
        if arguments.flag("dedupe") && arguments.flag("no-dedupe") {
            throw UsageError("--dedupe and --no-dedupe contradict each other; give one", command: arguments.command)
        }
        let planner: BracketPlanner
        do {
            planner = try BracketPlanner(
                frames: frames, spacing: spacing, scale: scale, dedupe: arguments.flag("dedupe"), order: order,
                longest: longest.speed)
        } catch {
            throw UsageError(error.cliMessage, command: arguments.command)
        }
        return Options(
            shadow: shadow, highlight: highlight, planner: planner, longest: longest, overhead: overhead,
            json: arguments.flag("json"))
    }

    /// `--scale` (third when not given).
    static func scale(from arguments: ParsedArguments) throws(UsageError) -> ShutterScale {
        try arguments.value("scale", default: ShutterScale.third) { text in
            guard let scale = ShutterScale(rawValue: text) else {
                throw UsageError("'\(text)' is not a scale; use third or half")
            }
            return scale
        }
    }

    /// `--shadow` and `--highlight` (both required) as stops of `scale`.
    static func givenReadings(
        from arguments: ParsedArguments, scale: ShutterScale
    ) throws(UsageError) -> (shadow: ParsedSpeed, highlight: ParsedSpeed) {
        let shadow = try arguments.required("shadow") { try scale.parseSpeed($0) }
        let highlight = try arguments.required("highlight") { try scale.parseSpeed($0) }
        return (shadow, highlight)
    }

    /// `--frames` (5 when not given).
    static func frames(from arguments: ParsedArguments) throws(UsageError) -> Int {
        try arguments.value("frames", default: 5) { text in
            let range = BracketPlanner.frameRange
            guard let frames = Int(text), range.contains(frames) else {
                throw UsageError("'\(text)' is not a frame count; use \(range.lowerBound) to \(range.upperBound)")
            }
            return frames
        }
    }

    /// `--ev` (1 stop when not given).
    static func spacing(from arguments: ParsedArguments) throws(UsageError) -> EVAmount {
        try arguments.value("ev", default: EVAmount(stops: 1)) { try EVAmount.spacing(parsing: $0) }
    }

    /// Plans and prints: a table and a summary line, or one JSON object with `--json`.
    @Sendable static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        let options = try options(from: arguments)
        let report = try makeReport(options, command: arguments.command)
        context.output.writeOut(options.json ? try report.json() : report.text())
        return .success
    }

    /// Plans `options` into a report, turning planner errors (all caused by the readings) into usage errors.
    static func makeReport(_ options: Options, command: String) throws(UsageError) -> PlanReport {
        let planner = options.planner
        let plan: BracketPlan
        do {
            plan = try planner.plan(shadow: options.shadow.speed, highlight: options.highlight.speed)
        } catch {
            throw UsageError(error.cliMessage, command: command)
        }
        var notes: [String] = []
        let typed = [("shadow", options.shadow), ("highlight", options.highlight), ("longest", options.longest)]
        for (name, parsed) in typed where parsed.wasSnapped {
            notes.append(
                "--\(name) \(parsed.typed) is not a \(planner.scale.displayName) speed; using \(parsed.speed.label)")
        }
        let range =
            planner.scale.distance(from: options.highlight.speed, to: options.shadow.speed)
            ?? EVAmount(sixths: 0)
        return PlanReport(plan: plan, range: range, overhead: options.overhead, notes: notes)
    }
}
