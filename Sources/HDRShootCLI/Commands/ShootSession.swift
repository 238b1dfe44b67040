import Exposure
import Foundation
import Posix
import ShootKit
import Shooting
import Synchronization

/// A bracket shot through the shoot's controller with the terminal as its client: the controller's updates
/// rendered, signals and keys turned into its commands, the terminal restored.
///
/// Structure (all children of one task group, so nothing outlives the shoot):
/// - the work: the controller's `shootBracket` (every run of the shoot, a range extension's too);
/// - the renderer: one subscription to the controller's updates, shown in order until the work is done and
///   every update is shown; each `plan` update starts a fresh progress view for that run's plan;
/// - the controls: SIGINT/SIGTERM (first: stop after the current frame; second: abandon it), SIGHUP (the
///   terminal is gone: shoot on without it, see `TerminalDetachment`) and, on a terminal, keys (space or p:
///   pause/continue; q: stop after the current frame), each a command to the controller;
/// - on a live terminal line, a once-a-second redraw so the clock moves during long exposures.
struct ShootSession: Sendable {
    /// The shoot's owner.
    let controller: ShootController
    /// How progress is written.
    let style: ShootProgressView.Style
    /// Where progress goes.
    let output: any OutputStreams
    /// Seconds per frame for the first time-left estimate.
    let overhead: Double
    /// What Long Exposure NR adds to the estimate.
    let noiseReduction: TimeLeftEstimator.NoiseReduction
    /// Whether to read keys from standard input (it is a terminal).
    let readsKeys: Bool
    /// Whether the shoot handles SIGINT, SIGTERM and SIGHUP (not under `serve`, which does).
    var handlesSignals = true

    /// Runs `work` (the controller shooting) with the renderer and the controls; the terminal mode is restored
    /// on every path.
    func run<Result: Sendable>(_ work: @escaping @Sendable () async -> Result) async -> Result {
        let terminal = readsKeys ? TerminalMode.enterCharacterMode() : nil
        defer { terminal?.restore() }
        let views = CurrentView(style: style, output: output, overhead: overhead, noiseReduction: noiseReduction)
        let display = ControllerDisplay(controller: controller, views: views)
        let controls = ShootControls(controller: controller, display: display, terminal: terminal, texts: .shoot)
        let readsKeys = terminal != nil
        // Subscribed before the shoot starts, so every update of it is shown; the snapshot that opens the
        // subscription is the state so far, which the terminal has already printed.
        let updates = controller.updates()

        let redraw: @Sendable () -> Void = { views.tick() }
        let tick = style == .live ? redraw : nil
        let result: Result = await ConsoleTasks.run(
            work: { () async -> Result in
                let result = await work()
                // Everything the shoot published is in the subscription: show it, then stop.
                updates.end()
                return result
            },
            showEvents: { for await update in updates { views.show(update) } },
            controls: { await controls.run(readingKeys: readsKeys, handlingSignals: handlesSignals) },
            tick: tick)
        views.close()
        return result
    }
}

/// The progress view of the run being shot: replaced by a fresh one at every `plan` update, with the terminal's
/// own marks (stopping, hung up) carried over.
final class CurrentView: Sendable {
    private struct State {
        var view: ShootProgressView?
        var stopping = false
        var detached = false
    }

    private let style: ShootProgressView.Style
    private let output: any OutputStreams
    private let overhead: Double
    private let noiseReduction: TimeLeftEstimator.NoiseReduction
    private let state = Mutex(State())

    /// Views in `style` on `output`.
    init(
        style: ShootProgressView.Style, output: any OutputStreams, overhead: Double,
        noiseReduction: TimeLeftEstimator.NoiseReduction
    ) {
        self.style = style
        self.output = output
        self.overhead = overhead
        self.noiseReduction = noiseReduction
    }

    /// The view now (an empty plan's before the first `plan` update).
    private var view: ShootProgressView {
        state.withLock { state in
            if let view = state.view { return view }
            let view = makeView(ShootUpdate.Plan(speeds: [], exposureSeconds: []), marks: state)
            state.view = view
            return view
        }
    }

    private func makeView(_ plan: ShootUpdate.Plan, marks: State) -> ShootProgressView {
        let view = ShootProgressView(
            style: style, output: output, plan: plan, overhead: overhead, noiseReduction: noiseReduction)
        if marks.detached { view.detach() }
        if marks.stopping { view.markStopping() }
        return view
    }

    /// Shows one update; a `plan` update ends the previous run's view and starts the next.
    func show(_ update: ShootUpdate) {
        if case .plan(let plan) = update {
            let previous = state.withLock { state in
                defer { state.view = makeView(plan, marks: state) }
                return state.view
            }
            previous?.close()
            return
        }
        view.show(update)
    }

    /// Whether nothing is firing now.
    var isParked: Bool { view.isParked }

    /// The live line says "stopping" (this run's and the next's).
    func markStopping() {
        let view = state.withLock { state in
            state.stopping = true
            return state.view
        }
        view?.markStopping()
    }

    /// The terminal is gone: no view writes to it again.
    func detach() {
        let view = state.withLock { state in
            state.detached = true
            return state.view
        }
        view?.detach()
    }

    /// Redraws the live line.
    func tick() { state.withLock { $0.view }?.tick() }

    /// Ends the live line.
    func close() { state.withLock { $0.view }?.close() }
}

/// The display the controls speak to during a bracket: notes go through the controller (so they take their place
/// among the updates, for every watcher); the stop mark and the hangup stay the terminal's own.
struct ControllerDisplay: ControlledDisplay {
    /// The shoot's owner.
    let controller: ShootController
    /// The terminal's views.
    let views: CurrentView

    /// Whether nothing is firing now.
    var isParked: Bool { views.isParked }

    /// A note for every watcher.
    func note(_ text: String) { controller.note(text) }

    /// The live line says "stopping".
    func markStopping() { views.markStopping() }

    /// The terminal is gone.
    func detach() { views.detach() }
}
