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
                await keeper.write(await journal(), output: output)
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
                            repetition: number, complete: result.isComplete, saved: result.completed,
                            fired: result.fired, inCamera: result.inCamera)
                    ).jsonLine)
            } else if result.isComplete {
                note("Repetition \(number)\(total) complete: \(result.completed) exposures saved")
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
        await keeper?.write(journal, output: output)
        guard let series = journal.series else { return }
        var repetitions: [[String: Any]] = []
        for repetition in series.repetitions {
            let actual = repetition.actualOffsetMilliseconds.map { series.date(at: .milliseconds($0)) }
            var entry: [String: Any] = [
                "number": repetition.number, "state": repetition.state.rawValue, "timing": repetition.timing,
                "plannedStart": Self.iso(series.date(at: repetition.start.at)),
                "actualStart": actual.map(Self.iso) ?? NSNull(),
                "endedAt": repetition.endedAt.map(Self.iso) ?? NSNull()
            ]
            if let folder = repetition.outputDirectory { entry["folder"] = (folder as NSString).lastPathComponent }
            let isCurrent = repetition.number == series.repetitions.last?.number && repetition.state == .shooting
            let frames = isCurrent ? journal.frames : repetition.frames ?? []
            entry["exposures"] = repetition.plan?.totalExposures ?? 0
            entry["saved"] = frames.joined().filter { if case .done = $0.state { true } else { false } }.count
            if let actual = repetition.actualOffsetMilliseconds {
                entry["startDriftSeconds"] = Double(actual - repetition.scheduledOffsetMilliseconds) / 1000
            }
            repetitions.append(entry)
        }
        let end: Any =
            switch series.end {
            case .count(let count): ["count": count]
            case .until(let date): ["until": Self.iso(date)]
            case .forever: "forever"
            }
        let object: [String: Any] = [
            "shoot": journal.id, "camera": ["model": journal.camera.model, "address": journal.camera.address],
            "everySeconds": ShootText.seconds(series.every), "end": end, "firstStart": Self.iso(series.firstStart),
            "shiftEV": series.shift?.ev ?? 0,
            "status": journal.isUnfinished ? (journal.status == .inProgress ? "inProgress" : "stopped") : "complete",
            "repetitions": repetitions
        ]
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return }
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
