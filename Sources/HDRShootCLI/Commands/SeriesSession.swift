import Exposure
import Foundation
import Posix
import ShootKit
import Shooting
import SonyCamera
import Synchronization

/// One run of a `SeriesRunner` with its controls: progress per repetition, the wait between repetitions,
/// keys and signals, the manifests, and the end.
///
/// Controls as for a single bracket (space or p pauses, q or Ctrl-C stops after the current frame, a second
/// Ctrl-C abandons it). SIGHUP (the SSH session dropped) does not end the series: from then on nothing is
/// written to the terminal and the journal shows progress to `hdrshoot status`.
struct SeriesSession: Sendable {
    /// The series as its journal step left it: camera, journal, offered speeds, where the schedule starts.
    let launch: SeriesLaunch
    /// The schedule's time scale (`$HDRSHOOT_TIME_SCALE`, a test hook); real time by default.
    var timeScale = TimeScale.real
    /// The time of day (where the schedule stands, the display's start times).
    var wallClock = WallClock.system

    /// The series of `launch`.
    init(_ launch: SeriesLaunch, timeScale: TimeScale = .real, wallClock: WallClock = .system) {
        self.launch = launch
        self.timeScale = timeScale
        self.wallClock = wallClock
    }

    /// Shoots the series from its start through `controller` (ShootKit's `shootSeriesToEnd`) with the terminal
    /// as its client: every series event rendered, keys and signals as its commands; returns the exit
    /// code (0 complete, 75 resumable, 1 journal failure).
    func execute(
        controller: ShootController, options: ShootConsole.Options, output rawOutput: any OutputStreams
    ) async -> ExitCode {
        guard let record = launch.journal.series else { preconditionFailure("a series journal") }
        let output = DetachableOutput(rawOutput)
        let network = await NetworkWatch.start(
            forJournalAddress: launch.journal.camera.address, enabled: options.networkMonitor,
            messages: CLIMessages(), warn: { output.writeError($0 + "\n") })
        let style: ShootProgressView.Style = options.json ? .json : (options.liveOutput ? .live : .plain)
        let display = SeriesDisplay(
            style: style, output: output, record: record, overhead: launch.overhead, wallClock: wallClock)
        let shoot = SeriesShoot(
            launch,
            configuration: timeScale.runnerConfiguration(
                outputDirectory: URL(fileURLWithPath: record.rootDirectory), reconnectTimeout: options.reconnectTimeout,
                bufferLimit: launch.camera.bufferCapacity ?? BracketRunner.Configuration.defaultBufferLimit,
                onScaledClock: true),
            clocks: timeScale.seriesClocks(wallClock: wallClock))
        let warn: @Sendable (String) -> Void = { output.writeError($0 + "\n") }
        let terminal = options.interactive ? TerminalMode.enterCharacterMode() : nil
        defer { terminal?.restore() }
        let readsKeys = terminal != nil
        let controls = ShootControls(
            controller: controller, display: SeriesControlledDisplay(display: display, output: output),
            terminal: terminal, texts: .series)
        // Subscribed before the series starts, so every update of it is shown; the snapshot that opens the
        // subscription is the state so far, which the terminal has already printed.
        let updates = controller.updates()
        let (result, final) = await controller.shootSeriesToEnd(
            shoot, network: network, note: { display.note($0) }, warn: warn
        ) { work in
            let outcome = await ConsoleTasks.run(
                work: {
                    let outcome = await work()
                    // Everything the series published is in the subscription: show it, then stop.
                    updates.end()
                    return outcome
                },
                showEvents: { for await update in updates { display.show(update) } },
                controls: { await controls.run(readingKeys: readsKeys) },
                tick: style == .live ? display.tick : nil)
            display.close()
            return outcome
        }
        return report(result, journal: final, options: options, output: output)
    }

    /// Prints how the series ended and returns its exit code.
    private func report(
        _ result: SeriesResult, journal: ShootJournal, options: ShootConsole.Options, output: any OutputStreams
    ) -> ExitCode {
        let root = journal.series?.rootDirectory ?? journal.outputDirectory
        let done = journal.series?.repetitions.filter { $0.state == .done }.count ?? 0
        if let last = result.lastResult, !last.isComplete {
            // Stopped inside a repetition: the single-bracket report says why and where.
            let code = ShootConsole.report(
                last, outputDirectory: journal.outputDirectory, options: options, output: output)
            output.writeError("Series: \(done) repetition(s) done; `hdrshoot resume` continues the series.\n")
            return code
        }
        if options.json {
            output.writeOut(
                ShootUpdate.seriesFinished(
                    ShootUpdate.SeriesFinished(
                        complete: result.isComplete, repetitionsDone: done, next: result.resumeAt.map { $0.number })
                ).jsonLine)
        }
        let text: String
        var code = ExitCode.success
        if let reason = result.stopReason {
            // Between repetitions: no frame was in flight, and the reason's table gives the line and the code.
            code = reason.exitCode
            if let line = reason.stopLine(reconnectTimeout: options.reconnectTimeout, frameInFlight: false) {
                output.writeError(line + "\n")
            }
            let next = result.resumeAt.map { " before repetition \($0.number)" } ?? ""
            text = "Series stopped\(next): \(done) repetition(s) done. Run `hdrshoot resume` to continue it.\n"
        } else {
            text = "Series complete: \(done) repetition(s) done.\n"
        }
        let end = text + "Images and manifest.json: \(root)\n"
        if options.json { output.writeError(end) } else { output.writeOut(end) }
        return code
    }
}

/// Output that goes quiet for good once the terminal hung up (SIGHUP): writing to a dead terminal fails.
final class DetachableOutput: OutputStreams {
    private let base: any OutputStreams
    private let detached = Mutex(false)

    /// Wraps `base`.
    init(_ base: any OutputStreams) { self.base = base }

    /// Whether the wrapped streams are the process's own.
    var reachesProcessStreams: Bool { base.reachesProcessStreams }

    /// Drops everything written from now on.
    func detach() { detached.withLock { $0 = true } }

    /// Writes to standard output unless detached.
    func writeOut(_ text: String) { if !detached.withLock({ $0 }) { base.writeOut(text) } }

    /// Writes to standard error unless detached.
    func writeError(_ text: String) { if !detached.withLock({ $0 }) { base.writeError(text) } }
}

/// The series' display as the controls see it: a stop is always "after the current frame" (a repetition may
/// start any moment), its notes are the terminal's own (the hangup's line is written before the output goes
/// quiet), and a hangup silences the series' output.
private struct SeriesControlledDisplay: ControlledDisplay {
    let display: SeriesDisplay
    let output: DetachableOutput

    var isParked: Bool { false }
    func note(_ text: String) { display.note(text) }
    func markStopping() {}
    func detach() { output.detach() }
}
