import Exposure
import Foundation
import Posix
import ShootKit
import Shooting

/// One run of a `BracketRunner` through the shoot's controller, with the terminal as its client: the controller's
/// updates rendered, signals and keys turned into its commands, the terminal restored.
///
/// Structure (all children of one task group, so nothing outlives the run):
/// - the work: `ShootController.shoot`, which runs the runner and publishes its events as updates (an abandon
///   command cancels the runner);
/// - the renderer: one subscription to the controller's updates, shown in order by the view until the work
///   is done and every update is shown;
/// - the controls: SIGINT/SIGTERM (first: stop after the current frame; second: abandon it), SIGHUP (the
///   terminal is gone: shoot on without it, see `TerminalDetachment`) and, on a terminal, keys (space or p:
///   pause/continue; q: stop after the current frame), each a command to the controller;
/// - on a live terminal line, a once-a-second redraw so the clock moves during long exposures.
struct ShootSession: Sendable {
    /// The shoot's owner.
    let controller: ShootController
    /// The runner, created with the plan, camera and journal.
    let runner: BracketRunner
    /// Where progress goes.
    let view: ShootProgressView
    /// Whether to read keys from standard input (it is a terminal).
    let readsKeys: Bool
    /// Where shooting starts.
    let start: ShootPosition
    /// `--restart-set`.
    let restartingSet: Bool
    /// Frames after the start already saved, and frames whose images wait in the camera (a resumed shoot).
    let resuming: ResumeState
    /// Called after every saved frame and at the end (keeps `manifest.json` current).
    let frameSaved: @Sendable (FrameProgress) async -> Void

    /// Shoots and returns how it went; the terminal mode is restored on every path.
    func run() async -> ShootResult {
        let terminal = readsKeys ? TerminalMode.enterCharacterMode() : nil
        defer { terminal?.restore() }
        let display = ControllerDisplay(controller: controller, view: view)
        let controls = ShootControls(controller: controller, display: display, terminal: terminal, texts: .shoot)
        let (controller, runner, view, start, restartingSet, frameSaved) = (
            controller, runner, view, start, restartingSet, frameSaved
        )
        let resuming = resuming
        let readsKeys = terminal != nil
        // Subscribed before the run starts, so every update of it is shown; the snapshot that opens the
        // subscription is the state so far, which the terminal has already printed.
        let updates = controller.updates()

        let result = await ConsoleTasks.run(
            work: {
                let result = await controller.shoot(
                    runner, from: start, restartingSet: restartingSet, resuming: resuming, frameSaved: frameSaved,
                    record: { SessionLogging.record($0) })
                // Everything the run published is in the subscription: show it, then stop.
                updates.end()
                return result
            },
            showEvents: {
                for await update in updates {
                    if case .snapshot = update { continue }
                    view.show(update)
                }
            },
            controls: { await controls.run(readingKeys: readsKeys) },
            tick: view.style == .live ? view.tick : nil)
        view.close()
        return result
    }
}

/// The display the controls speak to during a bracket: notes go through the controller (so they take their place
/// among the updates, for every watcher); the stop mark and the hangup stay the terminal's own.
struct ControllerDisplay: ControlledDisplay {
    /// The shoot's owner.
    let controller: ShootController
    /// The terminal's view.
    let view: ShootProgressView

    /// Whether nothing is firing now.
    var isParked: Bool { view.isParked }

    /// A note for every watcher.
    func note(_ text: String) { controller.note(text) }

    /// The live line says "stopping".
    func markStopping() { view.markStopping() }

    /// The terminal is gone.
    func detach() { view.detach() }
}
