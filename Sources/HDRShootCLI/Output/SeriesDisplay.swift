import Exposure
import Foundation
import Posix
import ShootKit
import Shooting
import Synchronization

/// Shows a running series: a line per repetition start, the usual frame progress (one `ShootProgressView` per
/// repetition), and, between repetitions, the repetition to come and the time to its start (redrawn every
/// second on a terminal). Rendering only: the controller keeps the manifests (`SeriesManifestWriter`).
final class SeriesDisplay: Sendable {
    private let style: ShootProgressView.Style
    private let wallClock: WallClock
    private let output: any OutputStreams
    private let record: SeriesRecord
    private let overhead: Double
    private let state = Mutex(State())

    private struct State {
        var view: ShootProgressView?
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

    /// Shows one series event.
    func show(_ event: SeriesEvent) {
        switch event {
        case let .waiting(start, remaining):
            let at = wallClock.now().addingTimeInterval(ShootText.seconds(remaining))
            state.withLock { $0.waiting = (start, at) }
            switch style {
            case .json:
                let update = ShootUpdate.Waiting(
                    repetition: start.number, startsAt: SeriesManifest.iso(at),
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
            state.withLock {
                $0.waiting = nil
                $0.view = view
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
        case let .shoot(_, shootEvent):
            state.withLock { $0.view }?.show(shootEvent)
        case let .repetitionFinished(number, result):
            let view = state.withLock { $0.view }
            view?.close()
            state.withLock { $0.view = nil }
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
        let left = max(0, waiting.at.timeIntervalSince(wallClock.now()))
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
}
