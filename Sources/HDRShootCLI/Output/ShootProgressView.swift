import Exposure
import Foundation
import Posix
import ShootKit
import Shooting
import Synchronization

/// Shows a running shoot's updates (`ShootUpdate`): a live line on a terminal, one plain line per update, or the
/// updates themselves as JSON lines (`--json`).
///
/// Fed by the controller's updates (one consumer) and by the controls (the stop mark, the hangup); both may call
/// at once, so the state sits behind a mutex.
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
    /// The plan's exposures in seconds, by set (where a frame falls, the frame counts).
    private let plan: ShootUpdate.Plan
    /// The series repetition this view shows (`Rep 3/20`), nil for a single bracket.
    private let repetition: String?
    private let origin = ContinuousClock.now
    private let state: Mutex<State>

    private struct State {
        var started: ContinuousClock.Instant?
        var estimator: TimeLeftEstimator
        var latest: ShootUpdate.Progress?
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
    convenience init(
        style: Style, output: any OutputStreams, plan: BracketPlan, overhead: Double,
        noiseReduction: TimeLeftEstimator.NoiseReduction = .none, repetition: String? = nil
    ) {
        self.init(
            style: style, output: output, plan: ShootUpdate.Plan(plan), overhead: overhead,
            noiseReduction: noiseReduction, repetition: repetition)
    }

    /// A view of a run of `plan` (as the controller's `plan` update gives it).
    init(
        style: Style, output: any OutputStreams, plan: ShootUpdate.Plan, overhead: Double,
        noiseReduction: TimeLeftEstimator.NoiseReduction = .none, repetition: String? = nil
    ) {
        self.repetition = repetition
        self.style = style
        self.output = output
        self.plan = plan
        let exposures = self.plan.exposureSeconds.flatMap { $0 }
        state = Mutex(
            State(
                estimator: TimeLeftEstimator(exposures: exposures, overhead: overhead, noiseReduction: noiseReduction)))
    }

    // MARK: - Events

    /// Shows one update (the snapshot and state changes draw nothing: the terminal saw how they came about).
    func show(_ update: ShootUpdate) {
        switch update {
        // The stream's own: the state and the plan are what the terminal saw happen; not printed.
        case .snapshot, .state, .plan: return
        default: break
        }
        record(update)
        switch style {
        case .json: output.writeOut(update.jsonLine)
        case .plain: if let line = plainLine(update) { output.writeOut(line + "\n") }
        case .live: showLive(update)
        }
    }

    /// Shows one runner event as its update (a series' repetition, which has no controller yet).
    func show(_ event: ShootEvent) {
        if let update = ShootUpdate(event, messages: CLIMessages()) { show(update) }
    }

    /// Shows a sentence for the photographer: a line, or a JSON `note` update.
    func note(_ text: String) {
        show(.note(ShootUpdate.Note(message: text)))
    }

    /// Whether shooting is parked: a hold (keyboard, network, reconnect) is in force and no frame is in flight,
    /// so a stop takes effect at once.
    var isParked: Bool {
        state.withLock { state in
            state.holds[.connection] != nil
                || (!state.holds.isEmpty
                    && (state.latest.map { $0.framePhase.map(Self.parkedPhases.contains) ?? true } ?? true))
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

    private func record(_ update: ShootUpdate) {
        let now = ContinuousClock.now
        let time = seconds(now)
        state.withLock { state in
            switch update {
            case .started(let started):
                state.started = now
                state.estimator.start(
                    at: plan.framesBefore(set: started.set, frame: started.frame), time: time)
            case .progress(let progress):
                state.latest = progress
                state.wait = nil
                if let phase = progress.framePhase {
                    state.estimator.frame(
                        plan.framesBefore(set: progress.set, frame: progress.frame), reached: phase,
                        at: time)
                }
            case .retrying(let retrying):
                state.wait = (.busyRetry, now + .milliseconds(Int64(retrying.delaySeconds * 1000)))
            case .paused(let hold):
                let reason = hold.pauseReason
                state.holds[reason.kind] = reason
                state.estimator.hold(reason.kind, at: time)
            case .resumed(let hold):
                let reason = hold.pauseReason
                state.holds[reason.kind] = nil
                if reason.kind == .connection { state.wait = nil }
                state.estimator.release(reason.kind, at: time)
            case .reconnecting(let reconnecting):
                state.wait = (
                    .reconnect(attempt: reconnecting.attempt),
                    now + .milliseconds(Int64(reconnecting.delaySeconds * 1000))
                )
            case .downloaded(let downloaded):
                state.downloads.add(bytes: downloaded.bytes, at: now)
            case .finished:
                state.finished = true
            case .snapshot, .state, .plan, .summary, .note, .allFired, .reconnectFailed, .reconnected, .rangeCheck,
                .waiting, .repetitionStarted, .repetitionFinished, .seriesFinished:
                break
            }
        }
    }

    // MARK: - Plain lines

    private func plainLine(_ update: ShootUpdate) -> String? {
        switch update {
        case .started(let started):
            return
                "Shooting from \(ShootPosition(set: started.set, frame: started.frame)) (\(started.completed) of \(started.total) exposures already saved)"
        case .progress(let progress):
            let head =
                "set \(progress.set)/\(progress.sets) frame \(progress.frame)/\(progress.framesInSet) "
                + progress.setting
            guard progress.framePhase == .saved else {
                return "\(head): \(progress.framePhase.map(ShootText.phaseText) ?? progress.phase)"
            }
            let files = (progress.files ?? []).map(Self.fileName).joined(separator: ", ")
            let recovered = (progress.recoveredFiles ?? []).map(Self.fileName).joined(separator: ", ")
            let extra = recovered.isEmpty ? "" : "; recovered \(recovered) from the interrupted attempt"
            return "\(head): saved \(files)\(extra) (\(progress.completed) of \(progress.total))"
        case .retrying(let retrying):
            let position = ShootPosition(set: retrying.set, frame: retrying.frame)
            let delay = Duration.milliseconds(Int64(retrying.delaySeconds * 1000))
            return
                "\(position): \(retrying.message); trying again (attempt \(retrying.attempt)) in \(ShootText.duration(delay))"
        case .paused(let hold): return ShootText.pauseText(hold.pauseReason, resumed: false)
        case .resumed(let hold): return ShootText.pauseText(hold.pauseReason, resumed: true)
        case .reconnecting(let reconnecting):
            let delay = Duration.milliseconds(Int64(reconnecting.delaySeconds * 1000))
            return "Reconnecting in \(ShootText.duration(delay)) (attempt \(reconnecting.attempt))"
        case .reconnectFailed(let failed):
            return "Reconnect attempt \(failed.attempt) failed: \(failed.cause)"
        case .reconnected(let reconnected):
            return "Reconnected (attempt \(reconnected.attempt)); checking the unfinished frame"
        case .note(let note): return note.from == "camera" ? "Note: \(note.message)" : note.message
        case .rangeCheck(let check): return RangeWatch.text(check)
        case .allFired(let fired):
            let total = plan.exposures
            let estimate = state.withLock { $0.downloads.estimate(frames: fired.waiting, now: ContinuousClock.now) }
            let shot = total == 1 ? "The frame is shot" : "All \(total) frames are shot"
            return "\(shot); the camera may move. Downloading \(fired.waiting) of \(total)\(estimate)"
        case .downloaded, .finished, .snapshot, .state, .plan, .summary, .waiting, .repetitionStarted,
            .repetitionFinished, .seriesFinished:
            return nil
        }
    }

    /// The file name of a saved file's path.
    private static func fileName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }

    // MARK: - Live line

    private func showLive(_ update: ShootUpdate) {
        switch update {
        case .progress:
            tick()
        case .finished:
            tick()
            close()
        case .started:
            break
        default:
            if let text = plainLine(update) { printAboveLiveLine(text) }
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
                set: progress.set, sets: progress.sets, frame: progress.frame,
                frames: progress.framesInSet, speed: progress.setting,
                phase: Self.phase(of: state, progress: progress, now: now), completed: progress.completed,
                total: progress.total, elapsed: state.started.map { ShootText.seconds(now - $0) } ?? 0,
                left: state.estimator.secondsLeft(at: time), repetition: repetition, fired: progress.fired)
        }
        guard let line else { return nil }
        // Re-read at every redraw, so a resized terminal is followed within a second.
        let columns = TerminalMode.columns(of: .standardOutput)
        return line.render(width: (columns > 0 ? columns : 80) - 1)
    }

    /// What is happening, in a few words: the wait or hold in force, else the frame's phase.
    private static func phase(
        of state: State, progress: ShootUpdate.Progress, now: ContinuousClock.Instant
    ) -> String {
        if state.finished { return "done" }
        let inFlight = progress.framePhase != .saved
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
        var text = progress.framePhase.map(liveText) ?? progress.phase
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
}
