import Exposure
import Foundation
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
        let controls = Controls(runner: runner, view: view, terminal: terminal, abandon: abandonSink)
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

/// What Ctrl-C, SIGTERM, SIGHUP and the keys do to a running shoot.
private final class Controls: Sendable {
    let runner: BracketRunner
    let view: ShootProgressView
    let terminal: TerminalMode?
    let abandon: AsyncStream<Void>.Continuation
    private let requests = ConsoleRequests()

    init(
        runner: BracketRunner, view: ShootProgressView, terminal: TerminalMode?, abandon: AsyncStream<Void>.Continuation
    ) {
        self.runner = runner
        self.view = view
        self.terminal = terminal
        self.abandon = abandon
    }

    /// Handles signals (and keys, until the terminal hangs up) until cancelled.
    func run(readingKeys: Bool) async {
        let (hangup, hangupSink) = AsyncStream.makeStream(of: Void.self)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await number in SignalEvents.stream([SIGINT, SIGTERM, SIGHUP]) {
                    if number == SIGHUP {
                        await self.hangUp()
                        hangupSink.finish()
                    } else {
                        await self.interrupt()
                    }
                }
            }
            if readingKeys {
                group.addTask {
                    // Keys are read until the terminal hangs up (or input ends).
                    await withTaskGroup(of: Void.self) { keys in
                        keys.addTask { for await key in KeyboardInput.keys() { await self.press(key) } }
                        keys.addTask { for await _ in hangup {} }
                        await keys.next()
                        keys.cancelAll()
                    }
                }
            }
        }
    }

    /// The terminal is gone: nothing more is written to it and its mode is put back (where it still can be);
    /// the shoot, its journal and its manifest carry on. A shoot paused from the keyboard could never be
    /// continued now: it stops instead (resumable), rather than wait forever or fire without its photographer.
    func hangUp() async {
        TerminalDetachment.detach()
        view.detach()
        terminal?.restore()
        if requests.stopIfPausedFromTheKeyboard() { await runner.stop() }
    }

    /// First: stop after the frame in flight (at once while parked). Second: abandon it.
    func interrupt() async {
        if requests.interrupt() == 1 {
            view.note(
                view.isParked ? "Stopping" : "Stopping after the current frame (press Ctrl-C again to abandon it)")
            view.markStopping()
            await runner.stop()
        } else {
            view.note("Abandoning the frame in flight; it is shot again on resume")
            abandon.yield()
        }
    }

    /// Space or p: pause or continue; q: stop after the current frame (at once while parked), downloading what
    /// waits in the camera; a second q leaves that in the camera for `resume`.
    func press(_ key: UInt8) async {
        switch key {
        case UInt8(ascii: " "), UInt8(ascii: "p"), UInt8(ascii: "P"):
            if requests.togglePause() {
                await runner.pause(reason: PauseReason(.user))
            } else {
                await runner.resume(reason: PauseReason(.user))
            }
        case UInt8(ascii: "q"), UInt8(ascii: "Q"):
            if requests.quit() {
                view.note(view.isParked ? "Stopping" : "Stopping after the current frame")
                view.markStopping()
                await runner.stop()
            } else {
                // A second q: what still waits in the camera stays there for `hdrshoot resume`.
                view.note("Leaving the images still in the camera for `hdrshoot resume`")
                await runner.stop()
            }
        default:
            break
        }
    }
}
