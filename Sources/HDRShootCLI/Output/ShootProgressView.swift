import Exposure
import Foundation
import Posix
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
    /// The series repetition this view shows (`Rep 3/20`), nil for a single bracket.
    private let repetition: String?
    private let origin = ContinuousClock.now
    private let state: Mutex<State>

    private struct State {
        var started: ContinuousClock.Instant?
        var estimator: TimeLeftEstimator
        var latest: FrameProgress?
        /// A wait the live line counts down: a busy retry or the next reconnect attempt.
        var wait: (kind: WaitKind, until: ContinuousClock.Instant)?
        var holds: [PauseReason.Kind: PauseReason] = [:]
        var stopping = false
        var finished = false
        /// Files downloaded so far and their bytes; when the first came (the transfer rate's start).
        var downloads = DownloadTally()
        var liveLine = ""
        var closed = false
    }

    private enum WaitKind {
        case busyRetry
        case reconnect(attempt: Int)
    }

    /// A view of a shoot of `plan`; `overhead` seconds per frame estimate the time left until frames are
    /// measured; `noiseReduction` is what Long Exposure NR adds, where known.
    init(
        style: Style, output: any OutputStreams, plan: BracketPlan, overhead: Double,
        noiseReduction: TimeLeftEstimator.NoiseReduction = .none, repetition: String? = nil
    ) {
        self.repetition = repetition
        self.style = style
        self.output = output
        self.plan = plan
        let exposures = plan.positions.map { plan.speed(at: $0)?.seconds ?? 0 }
        state = Mutex(
            State(
                estimator: TimeLeftEstimator(exposures: exposures, overhead: overhead, noiseReduction: noiseReduction)))
    }

    // MARK: - Events

    /// Shows one runner event.
    func show(_ event: ShootEvent) {
        record(event)
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

    /// Whether shooting is parked: a hold (keyboard, network, reconnect) is in force and no frame is in flight,
    /// so a stop takes effect at once.
    var isParked: Bool {
        state.withLock { state in
            state.holds[.connection] != nil
                || (!state.holds.isEmpty && (state.latest.map { Self.parkedPhases.contains($0.phase) } ?? true))
        }
    }

    /// The phases in which a held shoot is parked: no frame fires until the hold is released (downloads go on).
    private static let parkedPhases: Set<FramePhase> = [.saved, .inCamera, .downloading]

    /// Notes that the shoot stops after the frame in flight (the live line's phase says so).
    func markStopping() {
        state.withLock { $0.stopping = true }
        tick()
    }

    /// Redraws the live line (its clocks move during long exposures and waits); no-op in the other styles.
    func tick() {
        guard style == .live else { return }
        if let line = liveText() { draw(line) }
    }

    /// Ends the live line so what follows starts on a fresh line.
    func close() {
        guard style == .live else { return }
        let hadLine = state.withLock { state in
            defer {
                state.liveLine = ""
                state.closed = true
            }
            return !state.liveLine.isEmpty && !state.closed
        }
        if hadLine { output.writeOut("\n") }
    }

    /// Stops drawing for good without ending the line (the terminal is gone: nothing may be written to it).
    func detach() {
        state.withLock { state in
            state.closed = true
            state.liveLine = ""
        }
    }

    /// Seconds since this view was made, the estimator's clock.
    private func seconds(_ instant: ContinuousClock.Instant) -> Double {
        ShootText.seconds(instant - origin)
    }

    private func record(_ event: ShootEvent) {
        let now = ContinuousClock.now
        let time = seconds(now)
        state.withLock { state in
            switch event {
            case let .started(position, _, _):
                state.started = now
                state.estimator.start(at: plan.framesBefore(position), time: time)
            case .progress(let progress):
                state.latest = progress
                state.wait = nil
                state.estimator.frame(plan.framesBefore(progress.position), reached: progress.phase, at: time)
            case let .retrying(_, _, _, delay, _):
                state.wait = (.busyRetry, now + delay)
            case .paused(let reason):
                state.holds[reason.kind] = reason
                state.estimator.hold(reason.kind, at: time)
            case .resumed(let reason):
                state.holds[reason.kind] = nil
                if reason.kind == .connection { state.wait = nil }
                state.estimator.release(reason.kind, at: time)
            case let .reconnecting(attempt, delay):
                state.wait = (.reconnect(attempt: attempt), now + delay)
            case .reconnectFailed, .reconnected, .cameraNote, .allFired:
                break
            case let .fileDownloaded(_, bytes):
                state.downloads.add(bytes: bytes, at: now)
            case .finished:
                state.finished = true
            }
        }
    }

    // MARK: - Plain lines

    private func plainLine(_ event: ShootEvent) -> String? {
        switch event {
        case let .started(position, completed, total):
            return "Shooting from \(position) (\(completed) of \(total) exposures already captured)"
        case .progress(let progress):
            let head =
                "set \(progress.position.set)/\(progress.setCount) frame \(progress.position.frame)/\(progress.framesInSet) "
                + progress.setting.description
            guard progress.phase == .saved else { return "\(head): \(ShootText.phaseText(progress.phase))" }
            let files = progress.saved?.images.map(\.fileName).joined(separator: ", ") ?? ""
            let recovered = progress.saved?.recoveredImages.map(\.fileName).joined(separator: ", ") ?? ""
            let extra = recovered.isEmpty ? "" : "; recovered \(recovered) from the interrupted attempt"
            return "\(head): saved \(files)\(extra) (\(progress.completed) of \(progress.total))"
        case let .retrying(position, _, attempt, delay, error):
            return
                "\(position): \(HDRShoot.message(for: error)); trying again (attempt \(attempt)) in \(ShootText.duration(delay))"
        case .paused(let reason): return ShootText.pauseText(reason, resumed: false)
        case .resumed(let reason): return ShootText.pauseText(reason, resumed: true)
        case let .reconnecting(attempt, delay):
            return "Reconnecting in \(ShootText.duration(delay)) (attempt \(attempt))"
        case let .reconnectFailed(attempt, error):
            return "Reconnect attempt \(attempt) failed: \(ConnectText.failure(error))"
        case .reconnected(let attempt): return "Reconnected (attempt \(attempt)); checking the unfinished frame"
        case .cameraNote(let text): return "Note: \(text)"
        case .fileDownloaded: return nil
        case .allFired(let waiting):
            let total = plan.totalExposures
            let estimate = state.withLock { $0.downloads.estimate(frames: waiting, now: ContinuousClock.now) }
            let shot = total == 1 ? "The frame is shot" : "All \(total) frames are shot"
            return "\(shot); the camera may move. Downloading \(waiting) of \(total)\(estimate)"
        case .finished: return nil
        }
    }

    // MARK: - Live line

    private func showLive(_ event: ShootEvent) {
        switch event {
        case .progress:
            tick()
        case .finished:
            tick()
            close()
        case .started:
            break
        default:
            if let text = plainLine(event) { printAboveLiveLine(text) }
            tick()
        }
    }

    /// The line as it stands now, fitted to the terminal; nil before the first frame.
    private func liveText() -> String? {
        let now = ContinuousClock.now
        let time = seconds(now)
        let line = state.withLock { state -> LiveLine? in
            guard let progress = state.latest, !state.closed else { return nil }
            return LiveLine(
                set: progress.position.set, sets: progress.setCount, frame: progress.position.frame,
                frames: progress.framesInSet, speed: progress.setting.description,
                phase: Self.phase(of: state, progress: progress, now: now), completed: progress.completed,
                total: progress.total, elapsed: state.started.map { ShootText.seconds(now - $0) } ?? 0,
                left: state.estimator.secondsLeft(at: time), repetition: repetition)
        }
        guard let line else { return nil }
        // Re-read at every redraw, so a resized terminal is followed within a second.
        let columns = TerminalMode.columns(of: .standardOutput)
        return line.render(width: (columns > 0 ? columns : 80) - 1)
    }

    /// What is happening, in a few words: the wait or hold in force, else the frame's phase.
    private static func phase(of state: State, progress: FrameProgress, now: ContinuousClock.Instant) -> String {
        if state.finished { return "done" }
        let inFlight = progress.phase != .saved
        if state.holds[.connection] != nil {
            if case let (.reconnect(attempt), until)? = state.wait {
                let left = until - now
                return left > .zero ? "reconnecting in \(countdown(left))" : "reconnecting (attempt \(attempt))"
            }
            return "reconnecting"
        }
        if state.stopping && !inFlight { return "stopping" }
        if !inFlight, !state.holds.isEmpty {
            if state.holds[.network] != nil { return "paused: network lost" }
            if state.holds[.user] != nil { return "paused by you (p continues)" }
            return "paused"
        }
        var text = liveText(progress.phase)
        if case let (.busyRetry, until)? = state.wait, until > now {
            text = "camera busy, retry in \(countdown(until - now))"
        }
        if state.stopping { return text + ", then stop" }
        if !state.holds.isEmpty { return text + ", then pause" }
        return text
    }

    /// `5 s` rounded up, so a countdown never shows 0 while still waiting.
    private static func countdown(_ duration: Duration) -> String {
        "\(Int(ShootText.seconds(duration).rounded(.up))) s"
    }

    /// The frame's phase on the live line.
    private static func liveText(_ phase: FramePhase) -> String {
        switch phase {
        case .settingSpeed: "setting speed"
        case .capturing: "capturing"
        case .inCamera: "in the camera"
        case .downloading: "downloading"
        case .saved: "saved"
        }
    }

    private func draw(_ line: String) {
        let closed = state.withLock { state in
            if !state.closed { state.liveLine = line }
            return state.closed
        }
        if !closed { output.writeOut("\r\u{1B}[2K" + line) }
    }

    private func printAboveLiveLine(_ text: String) {
        let (line, closed) = state.withLock { ($0.liveLine, $0.closed) }
        guard !closed else { return output.writeOut(text + "\n") }
        output.writeOut("\r\u{1B}[2K" + text + "\n" + line)
    }

    // MARK: - JSON

    /// The JSON object of an event: `event` names it; positions are `set`/`frame`, durations in seconds.
    static func json(_ event: ShootEvent) -> [String: Any] {
        switch event {
        case let .started(position, completed, total):
            return [
                "event": "started", "set": position.set, "frame": position.frame, "completed": completed, "total": total
            ]
        case .progress(let progress):
            var object: [String: Any] = [
                "event": "progress", "set": progress.position.set, "frame": progress.position.frame,
                "sets": progress.setCount, "framesInSet": progress.framesInSet, "speed": progress.speed.label,
                "setting": progress.setting.description, "phase": progress.phase.rawValue,
                "completed": progress.completed, "total": progress.total
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
                "attempt": attempt, "delaySeconds": ShootText.seconds(delay), "message": HDRShoot.message(for: error)
            ]
        case .cameraNote(let text):
            return ["event": "note", "message": text]
        case let .fileDownloaded(fileName, bytes):
            return ["event": "downloaded", "file": fileName, "bytes": bytes]
        case .allFired(let waiting):
            return ["event": "allFired", "waiting": waiting]
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
                "event": "finished", "complete": result.isComplete, "completed": result.completed,
                "total": result.total,
                "capturedThisRun": result.capturedThisRun, "resumePosition": ShootText.json(result.resumePosition),
                "stopReason": result.stopReason.map { $0.kind.rawValue } ?? NSNull(),
                "message": result.stopReason?.error.map(HDRShoot.message(for:)) ?? NSNull()
            ]
        }
    }
}
