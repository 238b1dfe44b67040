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
    /// The connected camera.
    let camera: any CommandCamera
    /// The series journal, already in the store.
    let journal: ShootJournal
    /// Where the journal is saved.
    let store: JournalStore
    /// The timed speeds the camera offers (each repetition's plan is matched to them).
    let offered: [ShutterSpeed]
    /// Warnings of the base plan, kept with each repetition's plan.
    let planWarnings: [String]
    /// Seconds per frame for the first time-left estimate.
    let overhead: Double
    /// The schedule's time scale (`$HDRSHOOT_TIME_SCALE`, a test hook); real time by default.
    var timeScale = TimeScale.real
    /// The time of day (where the schedule stands, the display's start times).
    var wallClock = WallClock.system

    /// Shoots the series from `start`; returns the exit code (0 complete, 75 resumable, 1 journal failure).
    func execute(
        from start: RepetitionSchedule.Start, skipping: [Int],
        continuing: SeriesContinuation?,
        options: ShootConsole.Options, output rawOutput: any OutputStreams
    ) async -> ExitCode {
        guard let record = journal.series else { preconditionFailure("a series journal") }
        let output = DetachableOutput(rawOutput)
        let network = await NetworkWatch.start(
            forJournalAddress: journal.camera.address, enabled: options.networkMonitor, output: output)
        var journal = self.journal
        if let ssid = network?.cameraSSID { journal.camera.ssid = ssid.description }
        let (offered, warnings) = (offered, planWarnings)
        let recorder = SeriesJournalRecorder(
            journal: journal, store: store, continuing: continuing.map { ($0.position, $0.restartingSet) },
            now: wallClock.now
        ) { number, folder in
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw ShootCommandError.outputUnavailable(path: folder.path, reason: error.localizedDescription)
            }
            return try SeriesPlans.prepared(number, record: record, offered: offered, warnings: warnings)
        }
        let style: ShootProgressView.Style = options.json ? .json : (options.liveOutput ? .live : .plain)
        let display = SeriesDisplay(
            style: style, output: output, record: record, overhead: overhead, wallClock: wallClock)
        let runner = SeriesRunner(
            camera: camera, schedule: record.schedule,
            configuration: timeScale.runnerConfiguration(
                outputDirectory: URL(fileURLWithPath: record.rootDirectory), reconnectTimeout: options.reconnectTimeout,
                bufferLimit: camera.bufferCapacity ?? BracketRunner.Configuration.defaultBufferLimit,
                onScaledClock: true),
            recorder: recorder, elapsed: timeScale.scaled(record.offset(of: wallClock.now())), clock: timeScale.clock,
            runGuard: { runner, body in
                guard let network else { return await body() }
                return await network.guarding(
                    runner, note: { display.note($0) }, warn: { output.writeError($0 + "\n") }, body)
            })
        let terminal = options.interactive ? TerminalMode.enterCharacterMode() : nil
        defer { terminal?.restore() }
        let readsKeys = terminal != nil
        let (abandon, abandonSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let controls = ShootControls(
            runner: runner, display: SeriesControlledDisplay(display: display, output: output), terminal: terminal,
            texts: .series, abandon: abandonSink)

        let result: SeriesResult = await ConsoleTasks.run(
            work: {
                // Abandoning (Ctrl-C twice) cancels the series: its repetition's frame in flight is abandoned.
                let finished: SeriesResult? = await withTaskGroup(of: SeriesResult?.self) { inner in
                    inner.addTask { await runner.run(from: start, skipping: skipping) }
                    inner.addTask {
                        for await _ in abandon { return nil }
                        return nil
                    }
                    var result: SeriesResult?
                    while let value = await inner.next() {
                        if let value { result = value }
                        inner.cancelAll()
                    }
                    return result
                }
                guard let finished else { preconditionFailure("the series child always returns a result") }
                return finished
            },
            showEvents: {
                for await event in runner.events { await display.show(event, journal: { await recorder.latest }) }
            },
            controls: { await controls.run(readingKeys: readsKeys) },
            tick: style == .live ? display.tick : nil)
        display.close()
        await camera.disconnect()
        let final = await recorder.latest
        await display.writeManifests(final)
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
/// start any moment), and a hangup silences the series' output.
private struct SeriesControlledDisplay: ControlledDisplay {
    let display: SeriesDisplay
    let output: DetachableOutput

    var isParked: Bool { false }
    func note(_ text: String) { display.note(text) }
    func markStopping() {}
    func detach() { output.detach() }
}
