import Posix
import ShootKit
import Shooting

/// Where the controls speak: the shoot's progress view or the series' display.
protocol ControlledDisplay: Sendable {
    /// Whether nothing is firing now (paused, holding, waiting for a repetition): a stop is at once.
    var isParked: Bool { get }
    /// One line for the photographer, above the live line.
    func note(_ text: String)
    /// Shows that a stop was asked for.
    func markStopping()
    /// The terminal is gone: write nothing more to it.
    func detach()
}

extension ShootProgressView: ControlledDisplay {}

/// The words that differ between a shoot and a series.
struct ControlTexts: Sendable {
    /// After the first Ctrl-C or q while a frame may be in flight.
    var stoppingAfterTheFrame: String
    /// After the first Ctrl-C or q while nothing fires.
    var stoppingNow: String
    /// What follows "Stopping after the current frame" for a Ctrl-C (how to abandon the frame).
    var ctrlCAgain: String
    /// After a hangup, when the run goes on without the terminal (nil: say nothing, nobody reads it).
    var hungUp: String?
    /// After a second q, when that leaves what waits in the camera for `resume` (nil: a second q does nothing).
    var secondQuit: String?

    /// A single bracket.
    static let shoot = ControlTexts(
        stoppingAfterTheFrame: "Stopping after the current frame", stoppingNow: "Stopping",
        ctrlCAgain: " (press Ctrl-C again to abandon it)", hungUp: nil,
        secondQuit: "Leaving the images still in the camera for `hdrshoot resume`")

    /// An interval series.
    static let series = ControlTexts(
        stoppingAfterTheFrame: "Stopping the series after the current frame",
        stoppingNow: "Stopping the series after the current frame",
        ctrlCAgain: " (press Ctrl-C again to abandon it)",
        hungUp: "The terminal hung up; the series goes on (follow it with `hdrshoot status`)", secondQuit: nil)
}

/// What Ctrl-C, SIGTERM, SIGHUP and the keys do to a running shoot or series: the one controls type.
///
/// - Ctrl-C or SIGTERM: first, stop after the frame in flight (at once while nothing fires); second, abandon
///   the frame (it is shot again on resume).
/// - SIGHUP (a dropped SSH session): the terminal is let go (nothing more is written to it, its mode is put
///   back where it still can be) and the run goes on; a run paused from the keyboard could never be continued
///   now, so it stops instead (resumable).
/// - On a terminal, until it hangs up: space or p pauses and continues; q stops after the current frame.
final class ShootControls: Sendable {
    let runner: any ShootControllable
    let display: any ControlledDisplay
    let terminal: TerminalMode?
    let abandon: @Sendable () async -> Void
    let texts: ControlTexts
    private let requests = ConsoleRequests()

    init(
        runner: any ShootControllable, display: any ControlledDisplay, terminal: TerminalMode?, texts: ControlTexts,
        abandon: AsyncStream<Void>.Continuation
    ) {
        self.runner = runner
        self.display = display
        self.terminal = terminal
        self.texts = texts
        self.abandon = { abandon.yield() }
    }

    /// Controls that send their commands to a shoot's controller (a second Ctrl-C is its abandon command).
    init(controller: ShootController, display: any ControlledDisplay, terminal: TerminalMode?, texts: ControlTexts) {
        self.runner = controller
        self.display = display
        self.terminal = terminal
        self.texts = texts
        self.abandon = { await controller.send(.abandon) }
    }

    /// Handles signals (and keys, until the terminal hangs up) until cancelled; `handlingSignals` false leaves
    /// SIGINT, SIGTERM and SIGHUP to the caller (`serve`, whose own watch must outlive each shoot).
    func run(readingKeys: Bool, handlingSignals: Bool = true) async {
        let (hangup, hangupSink) = AsyncStream.makeStream(of: Void.self)
        await withTaskGroup(of: Void.self) { group in
            if handlingSignals {
                group.addTask {
                    for await number in SignalEvents.stream(
                        [.interrupt, .terminate, .hangup], keepIgnored: TerminalDetachment.keepsIgnored)
                    {
                        if number == .hangup {
                            await self.hangUp()
                            hangupSink.finish()
                        } else {
                            await self.interrupt()
                        }
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
    /// the run, its journal and its manifest carry on.
    func hangUp() async {
        if let line = texts.hungUp { display.note(line) }
        TerminalDetachment.detach()
        display.detach()
        terminal?.restore()
        if requests.stopIfPausedFromTheKeyboard() { await runner.stop() }
    }

    /// First: stop after the frame in flight (at once while parked). Second: abandon it.
    func interrupt() async {
        if requests.interrupt() == 1 {
            display.note(display.isParked ? texts.stoppingNow : texts.stoppingAfterTheFrame + texts.ctrlCAgain)
            display.markStopping()
            await runner.stop()
        } else {
            display.note("Abandoning the frame in flight; it is shot again on resume")
            await abandon()
        }
    }

    /// Space or p: pause or continue; q: stop after the current frame (at once while parked); a second q, where
    /// the texts give one, leaves what waits in the camera for `resume`.
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
                display.note(display.isParked ? texts.stoppingNow : texts.stoppingAfterTheFrame)
                display.markStopping()
                await runner.stop()
            } else if let line = texts.secondQuit {
                display.note(line)
                await runner.stop()
            }
        default:
            break
        }
    }
}
