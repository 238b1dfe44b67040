import Exposure
import Foundation
import Posix
import ShootKit
import Shooting
import Synchronization

/// Shows a running series: a line per repetition start, the usual frame progress (one `ShootProgressView` per
/// repetition), and, between repetitions, the repetition to come and the time to its start (redrawn every
/// second on a terminal). Keeps both manifests current: the repetition's and the series' (`manifest.json` in
/// the series folder, listing the repetitions with their start times).
final class SeriesDisplay: Sendable {
    private let style: ShootProgressView.Style
    private let wallClock: WallClock
    private let output: any OutputStreams
    private let record: SeriesRecord
    private let overhead: Double
    private let state = Mutex(State())

    private struct State {
        var view: ShootProgressView?
        var manifest: ManifestKeeper?
        var waiting: (start: RepetitionSchedule.Start, at: Date)?
        var waitLine = false
    }

    /// A display of the series `record`; `wallClock` says when a repetition starts.
    init(
        style: ShootProgressView.Style, output: any OutputStreams, record: SeriesRecord, overhead: Double,
        wallClock: WallClock
    ) {
        self.wallClock = wallClock
        self.style = style
        self.output = output
        self.record = record
        self.overhead = overhead
    }

    private var total: String { record.schedule.nominalCount.map { " of \($0)" } ?? "" }

    /// Shows one series event; `journal` reads the series journal as it stands (for the manifests).
    func show(_ event: SeriesEvent, journal: @Sendable () async -> ShootJournal) async {
        switch event {
        case let .waiting(start, remaining):
            let at = wallClock.now().addingTimeInterval(ShootText.seconds(remaining))
            state.withLock { $0.waiting = (start, at) }
            switch style {
            case .json:
                let update = ShootUpdate.Waiting(
                    repetition: start.number, startsAt: Self.iso(at),
                    inSeconds: PlanReport.rounded(ShootText.seconds(remaining), places: 1))
                output.writeOut(ShootUpdate.waiting(update).jsonLine)
            case .plain:
                output.writeOut(
                    "Repetition \(start.number)\(total) starts at \(SeriesPlans.clockTime(at)) "
                        + "(in \(ShootText.duration(remaining))); the camera stays connected\n")
            case .live:
                tick()
            }
        case .skipped(let numbers):
            note("Skipped repetition(s) \(numbers.map(String.init).joined(separator: ", ")): their start times passed")
        case let .repetitionStarted(start, plan):
            clearWaitLine()
            let count = record.schedule.nominalCount.map { "/\($0)" } ?? ""
            let view = ShootProgressView(
                style: style, output: output, plan: plan, overhead: overhead, repetition: "Rep \(start.number)\(count)")
            let folder = record.rootDirectory + "/" + SeriesRepetition.folderName(start.number)
            let keeper = ManifestKeeper(directory: folder, planned: [:], actual: [:])
            state.withLock {
                $0.waiting = nil
                $0.view = view
                $0.manifest = keeper
            }
            if style == .json {
                var update = ShootUpdate.RepetitionStarted(
                    repetition: start.number, exposures: plan.totalExposures,
                    timing: SeriesJournalRecorder.name(start.timing))
                if case .late(let by) = start.timing { update.lateSeconds = ShootText.seconds(by) }
                if case .afterOverrun(let by) = start.timing { update.overrunSeconds = ShootText.seconds(by) }
                output.writeOut(ShootUpdate.repetitionStarted(update).jsonLine)
            } else {
                note(startLine(start))
            }
            await writeManifests(await journal())
        case let .shoot(_, shootEvent):
            let (view, keeper) = state.withLock { ($0.view, $0.manifest) }
            view?.show(shootEvent)
            if case .progress(let progress) = shootEvent, progress.phase == .saved, let keeper {
                await keeper.saved(progress)
                await keeper.write(await journal(), messages: CLIMessages()) { output.writeError("warning: \($0)\n") }
            }
        case let .repetitionFinished(number, result):
            let view = state.withLock { $0.view }
            view?.close()
            await writeManifests(await journal())
            state.withLock {
                $0.view = nil
                $0.manifest = nil
            }
            if style == .json {
                output.writeOut(
                    ShootUpdate.repetitionFinished(
                        ShootUpdate.RepetitionFinished(
                            repetition: number, complete: result.isComplete, saved: result.saved,
                            fired: result.fired, inCamera: result.inCamera)
                    ).jsonLine)
            } else if result.isComplete {
                note("Repetition \(number)\(total) complete: \(result.saved) exposures saved")
            }
        case .paused(let reason):
            note(ShootText.pauseText(reason, resumed: false))
        case .resumed(let reason):
            note(ShootText.pauseText(reason, resumed: true))
        case .finished:
            clearWaitLine()
        }
    }

    /// `Repetition 3 of 20: started 19:04:05, on time`.
    private func startLine(_ start: RepetitionSchedule.Start) -> String {
        let why =
            switch start.timing {
            case .onTime: "on time"
            case .afterOverrun(let by): "at once: the previous repetition ran \(ShootText.duration(by)) past this start"
            case .late(let by): "\(ShootText.duration(by)) late (held by a pause, or hdrshoot was away)"
            }
        return "Repetition \(start.number)\(total): started \(SeriesPlans.clockTime(wallClock.now())), \(why)"
    }

    /// A message: a line (above the live line), or a JSON `note` object.
    func note(_ text: String) {
        let view = state.withLock { $0.view }
        if let view { return view.note(text) }
        clearWaitLine()
        switch style {
        case .json: output.writeOut(ShootUpdate.note(ShootUpdate.Note(message: text)).jsonLine)
        case .plain, .live: output.writeOut(text + "\n")
        }
        tick()
    }

    /// Redraws the live line: the repetition's progress, or the time to the next start.
    func tick() {
        guard style == .live else { return }
        let (view, waiting) = state.withLock { ($0.view, $0.waiting) }
        if let view { return view.tick() }
        guard let waiting else { return }
        let left = max(0, waiting.at.timeIntervalSinceNow)
        state.withLock { $0.waitLine = true }
        output.writeOut(
            "\r\u{1B}[2K" + "Repetition \(waiting.start.number)\(total) in \(ShootText.clock(left)) "
                + "(at \(SeriesPlans.clockTime(waiting.at)))  space: pause  q: stop")
    }

    /// Ends a live line so what follows starts on a fresh line.
    func close() {
        let view = state.withLock { $0.view }
        view?.close()
        clearWaitLine()
    }

    private func clearWaitLine() {
        let had = state.withLock { state in
            defer { state.waitLine = false }
            return state.waitLine
        }
        if had { output.writeOut("\r\u{1B}[2K") }
    }

    // MARK: - Manifests

    /// Writes the series manifest (and the current repetition's) from `journal`.
    func writeManifests(_ journal: ShootJournal) async {
        let keeper = state.withLock { $0.manifest }
        await keeper?.write(journal, messages: CLIMessages()) { output.writeError("warning: \($0)\n") }
        guard let series = journal.series else { return }
        var repetitions: [SeriesManifest.Repetition] = []
        for repetition in series.repetitions {
            let actual = repetition.actualOffsetMilliseconds.map { series.date(at: .milliseconds($0)) }
            let isCurrent = repetition.number == series.repetitions.last?.number && repetition.state == .shooting
            let frames = isCurrent ? journal.frames : repetition.frames ?? []
            repetitions.append(
                SeriesManifest.Repetition(
                    number: repetition.number, state: repetition.state.rawValue, timing: repetition.timing,
                    plannedStart: Self.iso(series.date(at: repetition.start.at)), actualStart: actual.map(Self.iso),
                    endedAt: repetition.endedAt.map(Self.iso),
                    folder: repetition.outputDirectory.map { ($0 as NSString).lastPathComponent },
                    exposures: repetition.plan?.totalExposures ?? 0,
                    saved: frames.joined().filter { if case .done = $0.state { true } else { false } }.count,
                    startDriftSeconds: repetition.actualOffsetMilliseconds.map {
                        Double($0 - repetition.scheduledOffsetMilliseconds) / 1000
                    }))
        }
        let end: SeriesManifest.End =
            switch series.end {
            case .count(let count): .count(count)
            case .until(let date): .until(Self.iso(date))
            case .forever: .forever
            }
        let manifest = SeriesManifest(
            shoot: journal.id,
            camera: SeriesManifest.Camera(model: journal.camera.model, address: journal.camera.address),
            everySeconds: ShootText.seconds(series.every), end: end, firstStart: Self.iso(series.firstStart),
            shiftEV: series.shift?.ev ?? 0,
            status: journal.isUnfinished ? (journal.status == .inProgress ? "inProgress" : "stopped") : "complete",
            repetitions: repetitions)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(manifest) else { return }
        let path = series.rootDirectory + "/" + ShootManifest.fileName
        do {
            try FileSystem.replace(path, with: [UInt8](data))
        } catch {
            output.writeError("warning: cannot write \(path): \(HDRShoot.message(for: error))\n")
        }
    }

    /// ISO 8601 with milliseconds (start drift is well under a second).
    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

/// A series' `manifest.json` in its root folder: the schedule and each repetition's start, state and frames.
struct SeriesManifest: Encodable {
    /// The camera used.
    struct Camera: Encodable {
        var model: String
        var address: String
    }

    /// When the series ends: `{"count": n}`, `{"until": iso}` or `"forever"`.
    enum End: Encodable {
        case count(Int)
        case until(String)
        case forever

        enum CodingKeys: String, CodingKey { case count, until }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .count(let count):
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(count, forKey: .count)
            case .until(let date):
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(date, forKey: .until)
            case .forever:
                var container = encoder.singleValueContainer()
                try container.encode("forever")
            }
        }
    }

    /// One repetition; `actualStart` and `endedAt` are null until known, `folder` and `startDriftSeconds`
    /// are there once it has them.
    struct Repetition: Encodable {
        var number: Int
        var state: String
        var timing: String
        var plannedStart: String
        var actualStart: String?
        var endedAt: String?
        var folder: String?
        var exposures: Int
        var saved: Int
        var startDriftSeconds: Double?

        enum CodingKeys: String, CodingKey {
            case number, state, timing, plannedStart, actualStart, endedAt, folder, exposures, saved
            case startDriftSeconds
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(state, forKey: .state)
            try container.encode(timing, forKey: .timing)
            try container.encode(plannedStart, forKey: .plannedStart)
            try container.encode(actualStart, forKey: .actualStart)
            try container.encode(endedAt, forKey: .endedAt)
            try container.encodeIfPresent(folder, forKey: .folder)
            try container.encode(exposures, forKey: .exposures)
            try container.encode(saved, forKey: .saved)
            try container.encodeIfPresent(startDriftSeconds, forKey: .startDriftSeconds)
        }
    }

    var shoot: String
    var camera: Camera
    var everySeconds: Double
    var end: End
    var firstStart: String
    var shiftEV: Double
    var status: String
    var repetitions: [Repetition]
}
