import Exposure
import Foundation
import Posix
import ShootKit
import Shooting
import Synchronization

/// Shows a running series from the controller's updates: a line per repetition start, the usual frame progress
/// (one `ShootProgressView` per repetition, made when its `plan` update comes), and, between repetitions, the
/// repetition to come and the time to its start (redrawn every second on a terminal). Rendering only: the
/// controller keeps the manifests (`SeriesManifestWriter`) and says what happened.
final class SeriesDisplay: Sendable {
    private let style: ShootProgressView.Style
    private let wallClock: WallClock
    private let output: any OutputStreams
    private let record: SeriesRecord
    private let overhead: Double
    private let state = Mutex(State())

    private struct State {
        var view: ShootProgressView?
        var waiting: (number: Int, at: Date)?
        var waitLine = false
        /// A repetition that started and whose `plan` update has not come yet: its start line waits for its view.
        var starting: ShootUpdate.RepetitionStarted?
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

    /// Shows one of the controller's updates (the snapshot, the state changes and the end draw nothing: the
    /// terminal saw how they came about, and the session reports the end).
    func show(_ update: ShootUpdate) {
        switch update {
        case .snapshot, .state, .summary, .finished, .seriesFinished:
            return
        case .waiting(let waiting):
            let at = wallClock.now().addingTimeInterval(waiting.inSeconds)
            state.withLock { $0.waiting = (waiting.repetition, at) }
            switch style {
            case .json:
                output.writeOut(update.jsonLine)
            case .plain:
                output.writeOut(
                    "Repetition \(waiting.repetition)\(total) starts at \(SeriesPlans.clockTime(at)) "
                        + "(in \(ShootText.duration(.seconds(waiting.inSeconds)))); the camera stays connected\n")
            case .live:
                tick()
            }
        case .repetitionStarted(let started):
            clearWaitLine()
            state.withLock {
                $0.waiting = nil
                $0.starting = started
            }
            if style == .json { output.writeOut(update.jsonLine) }
        case .plan(let plan):
            guard let started = state.withLock({ $0.starting }) else { return }
            let count = record.schedule.nominalCount.map { "/\($0)" } ?? ""
            let view = ShootProgressView(
                style: style, output: output, plan: plan, overhead: overhead,
                repetition: "Rep \(started.repetition)\(count)")
            state.withLock {
                $0.starting = nil
                $0.view = view
            }
            if style != .json { note(startLine(started)) }
        case .repetitionFinished(let finished):
            let view = state.withLock { $0.view }
            view?.close()
            state.withLock { $0.view = nil }
            if style == .json {
                output.writeOut(update.jsonLine)
            } else if finished.complete {
                let saved = finished.saved ?? finished.captured
                note("Repetition \(finished.repetition)\(total) complete: \(saved) exposures saved")
            }
        case .note(let note):
            self.note(note.message)
        case .paused(let hold), .resumed(let hold):
            // A repetition's own holds are its view's; between repetitions the series' hold is a line.
            if let view = state.withLock({ $0.view }) { return view.show(update) }
            var resumed = false
            if case .resumed = update { resumed = true }
            note(ShootText.pauseText(hold.pauseReason, resumed: resumed))
        default:
            state.withLock { $0.view }?.show(update)
        }
    }

    /// `Repetition 3 of 20: started 19:04:05, on time`.
    private func startLine(_ started: ShootUpdate.RepetitionStarted) -> String {
        let why =
            switch started.timing {
            case "afterOverrun":
                "at once: the previous repetition ran \(ShootText.duration(.seconds(started.overrunSeconds ?? 0))) "
                    + "past this start"
            case "late":
                "\(ShootText.duration(.seconds(started.lateSeconds ?? 0))) late (held by a pause, or hdrshoot was away)"
            default: "on time"
            }
        return "Repetition \(started.repetition)\(total): started \(SeriesPlans.clockTime(wallClock.now())), \(why)"
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
            "\r\u{1B}[2K" + "Repetition \(waiting.number)\(total) in \(ShootText.clock(left)) "
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
