import Exposure
import Foundation
import Posix
import Shooting
import Synchronization

/// One run of a `BracketRunner` with its controls: progress shown, signals and keys handled, terminal restored.
///
/// Structure (all children of one task group, so nothing outlives the run):
/// - the runner, inside a group of its own with a waiter that cancels it when the shoot is abandoned;
/// - the event consumer, which shows every event until `.finished`;
/// - the controls: SIGINT/SIGTERM (first: stop after the current frame; second: abandon it), SIGHUP (the
///   terminal is gone: shoot on without it, see `TerminalDetachment`) and, on a terminal, keys (space or p:
///   pause/continue; q: stop after the current frame);
/// - on a live terminal line, a once-a-second redraw so the clock moves during long exposures.
struct ShootSession: Sendable {
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
        let (abandon, abandonSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let controls = ShootControls(
            runner: runner, display: view, terminal: terminal, texts: .shoot, abandon: abandonSink)
        let (runner, view, start, restartingSet, frameSaved) = (runner, view, start, restartingSet, frameSaved)
        let resuming = resuming
        let readsKeys = terminal != nil

        let result = await ConsoleTasks.run(
            work: {
                await Self.shoot(
                    runner, from: start, restartingSet: restartingSet, resuming: resuming, abandon: abandon)
            },
            showEvents: {
                for await event in runner.events {
                    SessionLogging.record(event)
                    view.show(event)
                    if case .progress(let progress) = event, progress.phase == .saved { await frameSaved(progress) }
                }
            },
            controls: { await controls.run(readingKeys: readsKeys) },
            tick: view.style == .live ? view.tick : nil)
        view.close()
        return result
    }

    /// Runs the runner; cancels it (abandoning the frame in flight) when `abandon` yields.
    private static func shoot(
        _ runner: BracketRunner, from start: ShootPosition, restartingSet: Bool, resuming: ResumeState,
        abandon: AsyncStream<Void>
    ) async -> ShootResult {
        await withTaskGroup(of: ShootResult?.self) { group in
            group.addTask { await runner.run(from: start, restartingInterruptedSet: restartingSet, resuming: resuming) }
            group.addTask {
                for await _ in abandon { return nil }
                return nil
            }
            var result: ShootResult?
            while let value = await group.next() {
                if let value { result = value }
                group.cancelAll()
            }
            guard let result else { preconditionFailure("the runner always returns a result") }
            return result
        }
    }
}
