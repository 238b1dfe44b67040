import Exposure
import Foundation
import Shooting
import Synchronization

/// Shows a running shoot: a live line on a terminal, one plain line per event, or JSON lines (`--json`).
///
/// Fed by the runner's events (one consumer) and by the controls (notes such as "stopping after this
/// frame"); both may call at once, so the state sits behind a mutex.
final class ShootProgressView: Sendable {
    /// How progress is written.
    enum Style: Sendable {
        /// One line redrawn in place (standard output is a terminal).
        case live
        /// One line per event.
        case plain
        /// One JSON object per line.
        case json
    }

    /// How progress is written.
    let style: Style
    private let output: any OutputStreams
    private let plan: BracketPlan
    private let overhead: Double
    private let state: Mutex<State>

    private struct State {
        var started = ContinuousClock.now
        var latest: FrameProgress?
        var framesThisRun = 0
        var exposureThisRun = 0.0
        var liveLine = ""
        var closed = false
    }

    /// A view of a shoot of `plan`; `overhead` seconds per frame estimate the time left until frames are measured.
    init(style: Style, output: any OutputStreams, plan: BracketPlan, overhead: Double) {
        self.style = style
        self.output = output
        self.plan = plan
        self.overhead = overhead
        state = Mutex(State())
    }

    // MARK: - Events

    /// Shows one runner event.
    func show(_ event: ShootEvent) {
        switch style {
        case .json: output.writeOut(ShootText.jsonLine(Self.json(event)))
        case .plain: if let line = plainLine(event) { output.writeOut(line + "\n") }
        case .live: showLive(event)
        }
    }

    /// Shows a message of the controls (a key press, a stop request): a line, or a JSON `note` object.
    func note(_ text: String) {
        switch style {
        case .json: output.writeOut(ShootText.jsonLine(["event": "note", "message": text]))
        case .plain: output.writeOut(text + "\n")
        case .live: printAboveLiveLine(text)
        }
    }

    /// Redraws the live line (its clock moves during long exposures); no-op in the other styles.
    func tick() {
        guard style == .live else { return }
        let line = state.withLock { state in state.latest.map { liveText($0, state: state) } }
        if let line { draw(line) }
    }

    /// Ends the live line so what follows starts on a fresh line.
    func close() {
        guard style == .live else { return }
        let hadLine = state.withLock { state in
            defer {
                state.liveLine = ""
                state.closed = true
            }
            return !state.liveLine.isEmpty
        }
        if hadLine { output.writeOut("\n") }
    }

    private func record(_ event: ShootEvent) {
        state.withLock { state in
            switch event {
            case .started: state.started = .now
            case .progress(let progress):
                state.latest = progress
                if progress.phase == .saved {
                    state.framesThisRun += 1
                    state.exposureThisRun += progress.speed.seconds
                }
            default: break
            }
        }
    }

    // MARK: - Plain lines

    private func plainLine(_ event: ShootEvent) -> String? {
        record(event)
        switch event {
        case let .started(position, completed, total):
            return "Shooting from \(position) (\(completed) of \(total) exposures already captured)"
        case .progress(let progress):
            let head = "set \(progress.position.set)/\(progress.setCount) frame \(progress.position.frame)/\(progress.framesInSet) "
                + progress.setting.description
            guard progress.phase == .saved else { return "\(head): \(ShootText.phaseText(progress.phase))" }
            let files = progress.saved?.images.map(\.fileName).joined(separator: ", ") ?? ""
            let recovered = progress.saved?.recoveredImages.map(\.fileName).joined(separator: ", ") ?? ""
            let extra = recovered.isEmpty ? "" : "; recovered \(recovered) from the interrupted attempt"
            return "\(head): saved \(files)\(extra) (\(progress.completed) of \(progress.total))"
        case let .retrying(position, _, attempt, delay, error):
            return "\(position): \(HDRShoot.message(for: error)); trying again (attempt \(attempt)) in \(ShootText.duration(delay))"
        case .paused(let reason): return ShootText.pauseText(reason, resumed: false)
        case .resumed(let reason): return ShootText.pauseText(reason, resumed: true)
        case let .reconnecting(attempt, delay): return "Reconnecting in \(ShootText.duration(delay)) (attempt \(attempt))"
        case let .reconnectFailed(attempt, error): return "Reconnect attempt \(attempt) failed: \(HDRShoot.message(for: error))"
        case .reconnected(let attempt): return "Reconnected (attempt \(attempt)); checking the unfinished frame"
        case .cameraNote(let text): return "Note: \(text)"
        case .finished: return nil
        }
    }

    // MARK: - Live line

    private func showLive(_ event: ShootEvent) {
        record(event)
        switch event {
        case .progress(let progress):
            let line = state.withLock { liveText(progress, state: $0) }
            draw(line)
        case .finished:
            close()
        case .started:
            break
        default:
            if let text = plainLine(event) { printAboveLiveLine(text) }
        }
    }

    /// `Set 2/3  frame 3/5  1/30  capturing  7/15 captured  0:05 elapsed  ~0:07 left`.
    private func liveText(_ progress: FrameProgress, state: State) -> String {
        let elapsed = ShootText.seconds(ContinuousClock.now - state.started)
        let perFrame = state.framesThisRun > 0
            ? max(0, (elapsed - state.exposureThisRun) / Double(state.framesThisRun)) : overhead
        let positions = plan.positions
        let remainingPositions = positions.dropFirst(min(progress.completed, positions.count))
        let remaining = remainingPositions.reduce(0.0) { $0 + (plan.speed(at: $1)?.seconds ?? 0) + perFrame }
        return "Set \(progress.position.set)/\(progress.setCount)  frame \(progress.position.frame)/\(progress.framesInSet)  "
            + "\(progress.setting)  \(ShootText.phaseText(progress.phase))  \(progress.completed)/\(progress.total) captured  "
            + "\(ShootText.clock(elapsed)) elapsed  ~\(ShootText.clock(remaining)) left"
    }

    private func draw(_ line: String) {
        // Longer than the terminal is wide, the line would wrap and `\r` could no longer redraw it.
        let width = TerminalMode.columns(of: 1)
        let fitted = width > 1 && line.count >= width ? String(line.prefix(width - 1)) : line
        let closed = state.withLock { state in
            if !state.closed { state.liveLine = fitted }
            return state.closed
        }
        if !closed { output.writeOut("\r\u{1B}[2K" + fitted) }
    }

    private func printAboveLiveLine(_ text: String) {
        let line = state.withLock { $0.liveLine }
        output.writeOut("\r\u{1B}[2K" + text + "\n" + line)
    }

    // MARK: - JSON

    /// The JSON object of an event: `event` names it; positions are `set`/`frame`, durations in seconds.
    static func json(_ event: ShootEvent) -> [String: Any] {
        switch event {
        case let .started(position, completed, total):
            return ["event": "started", "set": position.set, "frame": position.frame, "completed": completed, "total": total]
        case .progress(let progress):
            var object: [String: Any] = [
                "event": "progress", "set": progress.position.set, "frame": progress.position.frame,
                "sets": progress.setCount, "framesInSet": progress.framesInSet, "speed": progress.speed.label,
                "setting": progress.setting.description, "phase": progress.phase.rawValue,
                "completed": progress.completed, "total": progress.total,
            ]
            if let saved = progress.saved {
                object["files"] = saved.images.map(\.path)
                if !saved.recoveredImages.isEmpty { object["recoveredFiles"] = saved.recoveredImages.map(\.path) }
                object["actualSpeed"] = saved.actualSpeed?.description ?? NSNull()
            }
            return object
        case let .retrying(position, phase, attempt, delay, error):
            return [
                "event": "retrying", "set": position.set, "frame": position.frame, "phase": phase.rawValue,
                "attempt": attempt, "delaySeconds": ShootText.seconds(delay), "message": HDRShoot.message(for: error),
            ]
        case .cameraNote(let text):
            return ["event": "note", "message": text]
        case .paused(let reason):
            return ["event": "paused", "reason": reason.kind.rawValue, "detail": reason.detail ?? NSNull()]
        case .resumed(let reason):
            return ["event": "resumed", "reason": reason.kind.rawValue, "detail": reason.detail ?? NSNull()]
        case let .reconnecting(attempt, delay):
            return ["event": "reconnecting", "attempt": attempt, "delaySeconds": ShootText.seconds(delay)]
        case let .reconnectFailed(attempt, error):
            return ["event": "reconnectFailed", "attempt": attempt, "message": HDRShoot.message(for: error)]
        case .reconnected(let attempt):
            return ["event": "reconnected", "attempt": attempt]
        case .finished(let result):
            return [
                "event": "finished", "complete": result.isComplete, "completed": result.completed, "total": result.total,
                "capturedThisRun": result.capturedThisRun, "resumePosition": ShootText.json(result.resumePosition),
                "stopReason": result.stopReason.map { $0.kind.rawValue } ?? NSNull(),
                "message": result.stopReason?.error.map(HDRShoot.message(for:)) ?? NSNull(),
            ]
        }
    }
}
