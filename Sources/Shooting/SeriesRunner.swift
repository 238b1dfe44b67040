import Exposure
import Foundation
import Synchronization
import Timing

/// Shoots an interval series: the same bracket (or a shifted one) repeated on a `RepetitionSchedule`, one
/// `BracketRunner` per repetition, waiting on the injected clock between repetitions.
///
/// Control from outside, as for a single bracket:
/// - `pause(reason:)` / `resume(reason:)`: holds are kept here and passed to the repetition shooting now;
///   a start time that comes while a hold is on waits for it, then happens at once (reported late), and the
///   following starts continue `every` after it.
/// - `stop()`: stops the repetition shooting now after its frame in flight (or ends the wait at once).
/// - Cancelling the task that awaits `run(from:skipping:)` abandons the frame in flight.
///
/// The camera stays connected between repetitions: each `BracketRunner` connects only when the link is down,
/// and the camera layer keeps an idle link alive by itself. Durable bookkeeping goes through a
/// `SeriesRecorder`, which also supplies each repetition's plan, folder and frame recorder.
package actor SeriesRunner {
    /// What the series is doing; every state but the end carries the photographer's controls (holds, a stop).
    package enum State: Sendable {
        /// `run` not called yet.
        case ready(Controls)
        /// Waiting for the start.
        case waiting(RepetitionSchedule.Start, Controls)
        /// A start time came while a hold is on.
        case held(RepetitionSchedule.Start, Controls)
        /// Shooting the repetition with this number on this runner (holds and a stop are passed to it).
        case shooting(Int, runner: BracketRunner, Controls)
        /// The repetition with this number ended: its record is written and the next start found.
        case shot(Int, Controls)
        /// Over.
        case finished(SeriesResult)

        /// The controls of a series that is not over; nil once it is.
        var controls: Controls? {
            switch self {
            case .ready(let controls), .waiting(_, let controls), .held(_, let controls),
                .shooting(_, _, let controls), .shot(_, let controls):
                controls
            case .finished: nil
            }
        }

        /// The same state with `controls` (the end keeps none).
        func with(_ controls: Controls) -> State {
            switch self {
            case .ready: .ready(controls)
            case .waiting(let start, _): .waiting(start, controls)
            case .held(let start, _): .held(start, controls)
            case .shooting(let number, let runner, _): .shooting(number, runner: runner, controls)
            case .shot(let number, _): .shot(number, controls)
            case .finished: self
            }
        }
    }

    /// What the photographer asked of a series that is not over.
    package struct Controls: Sendable {
        /// The holds on, one per kind (keys, a signal, the network).
        package var holds: [PauseReason.Kind: PauseReason] = [:]
        /// Whether the series ends at the next chance (after the frame in flight, or at once while waiting).
        package var stopRequested = false
    }

    /// Wraps each repetition's run (the CLI follows the network monitor into the runner there).
    package typealias RunGuard = @Sendable (BracketRunner, @Sendable () async -> ShootResult) async -> ShootResult

    /// The series' events, in order; `.finished` is the last. One consumer.
    package nonisolated let events: AsyncStream<SeriesEvent>

    private let camera: any RemoteCamera
    private let schedule: RepetitionSchedule
    private let configuration: BracketRunner.Configuration
    private let recorder: any SeriesRecorder
    private let clock: any Clock<Duration>
    private let runGuard: RunGuard
    /// Time since the series' first start when `run` was called (non-zero on resume).
    private let elapsedAtCreation: Duration
    private let eventSink: AsyncStream<SeriesEvent>.Continuation
    private let waker = Waker()
    /// Started by `run`, on the injected clock.
    private var stopwatch: Stopwatch?

    /// The current state.
    package private(set) var state: State = .ready(Controls())

    /// The controls of the state (empty once the series is over, where setting them changes nothing).
    private var controls: Controls {
        get { state.controls ?? Controls() }
        set { state = state.with(newValue) }
    }

    /// The runner of the repetition shooting now.
    private var current: BracketRunner? {
        if case .shooting(_, let runner, _) = state { runner } else { nil }
    }

    /// Creates a series runner. `elapsed` is how long ago the series' first start was (zero for a new
    /// series); `configuration` is each repetition's runner settings (its folder is replaced by the
    /// repetition's); `runGuard` wraps each repetition's run.
    package init<C: Clock<Duration>>(
        camera: any RemoteCamera,
        schedule: RepetitionSchedule,
        configuration: BracketRunner.Configuration,
        recorder: any SeriesRecorder,
        elapsed: Duration = .zero,
        clock: C = ContinuousClock(),
        runGuard: @escaping RunGuard = { _, body in await body() }
    ) {
        self.camera = camera
        self.schedule = schedule
        self.configuration = configuration
        self.recorder = recorder
        self.clock = clock
        self.runGuard = runGuard
        self.elapsedAtCreation = elapsed
        (events, eventSink) = AsyncStream.makeStream(of: SeriesEvent.self, bufferingPolicy: .unbounded)
    }

    /// Time since the series' first start, on the injected clock.
    package var elapsed: Duration { elapsedAtCreation + (stopwatch?.elapsed ?? .zero) }

    // MARK: - Control

    /// Adds a hold (passed to the repetition shooting now); a second hold of a kind only updates its detail.
    package func pause(reason: PauseReason) async {
        if case .finished = state { return }
        let isNew = controls.holds[reason.kind] == nil
        controls.holds[reason.kind] = reason
        if let current {
            await current.pause(reason: reason)
        } else if isNew {
            eventSink.yield(.paused(reason))
        }
        waker.signal()
    }

    /// Releases the hold of `reason.kind`.
    package func resume(reason: PauseReason) async {
        guard controls.holds.removeValue(forKey: reason.kind) != nil else { return }
        if let current {
            await current.resume(reason: reason)
        } else {
            eventSink.yield(.resumed(reason))
        }
        waker.signal()
    }

    /// Ends the series: the repetition shooting now stops after its frame in flight; a wait ends at once.
    package func stop() async {
        controls.stopRequested = true
        await current?.stop()
        waker.signal()
    }

    // MARK: - Run

    /// Runs the series from `first` (with `skipping` start times already passed and skipped) to the end of
    /// the schedule, or until stopped. Call once.
    package func run(from first: RepetitionSchedule.Start, skipping: [Int] = []) async -> SeriesResult {
        guard case .ready = state else { preconditionFailure("a SeriesRunner runs once") }
        stopwatch = Stopwatch(clock: clock)
        if !skipping.isEmpty {
            await recorder.repetitionsSkipped(skipping)
            eventSink.yield(.skipped(skipping))
        }
        var completed: [Int] = []
        var lastResult: ShootResult?
        var start = first
        while true {
            switch await waitFor(start) {
            case .stop(let reason):
                return await finish(completed, lastResult, reason, resumeAt: start)
            case .over:
                return await finish(completed, lastResult, nil, resumeAt: nil)
            case .go(let due):
                start = due
            }
            let repetition: SeriesRepetition
            do {
                repetition = try await recorder.repetitionWillStart(start, actual: elapsed)
            } catch {
                return await finish(completed, lastResult, .recordingFailed(error), resumeAt: start)
            }
            if let reason = await waitForRoomOnTheCard(for: repetition) {
                return await finish(completed, lastResult, reason, resumeAt: start)
            }
            eventSink.yield(.repetitionStarted(start, plan: repetition.plan))
            let result = await shoot(repetition, number: start.number)
            let endedAt = elapsed
            lastResult = result
            await recorder.repetitionDidFinish(start.number, result: result, endedAt: endedAt)
            eventSink.yield(.repetitionFinished(repetition: start.number, result))
            if let reason = result.stopReason {
                return await finish(completed, lastResult, reason, resumeAt: start)
            }
            completed.append(start.number)
            guard let next = schedule.next(after: start.number, scheduledAt: start.at, endedAt: endedAt) else {
                return await finish(completed, lastResult, nil, resumeAt: nil)
            }
            if controls.stopRequested || Task.isCancelled {
                return await finish(
                    completed, lastResult, controls.stopRequested ? .stopRequested : .cancelled, resumeAt: next)
            }
            start = next
        }
    }

    /// How a wait for a start ended.
    private enum WaitOutcome {
        case go(RepetitionSchedule.Start)
        case stop(StopReason)
        case over
    }

    /// Waits until `start` is due and no hold is on; a start a hold kept past its time becomes late.
    private func waitFor(_ start: RepetitionSchedule.Start) async -> WaitOutcome {
        var announced = false
        var heldPastStart = false
        while true {
            if Task.isCancelled { return .stop(.cancelled) }
            if controls.stopRequested { return .stop(.stopRequested) }
            if !controls.holds.isEmpty {
                state = .held(start, controls)
                await waker.wait(sleepingFor: nil, on: clock)
                if elapsed > start.at { heldPastStart = true }
                announced = false
                continue
            }
            let now = elapsed
            if now >= start.at {
                // Reaching the time on a timer is on time (the wake-up's lateness is what the drift figures show).
                guard heldPastStart else { return .go(start) }
                guard let due = schedule.held(start, until: now) else { return .over }
                return .go(due)
            }
            state = .waiting(start, controls)
            if !announced {
                eventSink.yield(.waiting(start, remaining: start.at - now))
                announced = true
            }
            await waker.wait(sleepingFor: start.at - now, on: clock)
        }
    }

    /// How often a full card is looked at again while the series waits for room on it.
    static let cardCheckInterval: Duration = .seconds(10)

    /// Before a repetition: when the camera reports fewer shots left on its card than the repetition takes,
    /// the series pauses (saying so once) and looks again every `cardCheckInterval` until there is room (a new
    /// card, or space freed), then goes on. A body that does not report the count is not held. Returns why the
    /// series must end instead (a stop or a cancellation while waiting), else nil.
    private func waitForRoomOnTheCard(for repetition: SeriesRepetition) async -> StopReason? {
        let needed = repetition.plan.positions.filter { $0 >= repetition.start }.count
        var reason: PauseReason?
        while true {
            if Task.isCancelled { return .cancelled }
            if controls.stopRequested { return .stopRequested }
            guard let left = await camera.mediaStatus().remainingShots, left < needed else { break }
            if reason == nil {
                let hold = PauseReason(
                    .other,
                    detail: "the memory card is full (\(left) shots left, \(needed) needed); put in a card with "
                        + "space or free some, and the series goes on by itself")
                eventSink.yield(.paused(hold))
                reason = hold
            }
            await waker.wait(sleepingFor: Self.cardCheckInterval, on: clock)
        }
        if let reason { eventSink.yield(.resumed(PauseReason(reason.kind, detail: "the card has room again"))) }
        return nil
    }

    /// Shoots one repetition with a fresh runner, forwarding its events; current holds apply to it.
    private func shoot(_ repetition: SeriesRepetition, number: Int) async -> ShootResult {
        var settings = configuration
        settings.outputDirectory = repetition.outputDirectory
        let runner = BracketRunner(
            camera: camera, plan: repetition.plan, configuration: settings, recorder: repetition.recorder, clock: clock)
        state = .shooting(number, runner: runner, controls)
        defer { state = .shot(number, controls) }
        // Holds and a stop that came while the state changed hands reach the runner here; later ones through
        // `pause`, `resume` and `stop`, which find it in the state.
        for reason in controls.holds.values { await runner.pause(reason: reason) }
        if controls.stopRequested { await runner.stop() }
        let sink = eventSink
        let runGuard = self.runGuard
        return await withTaskGroup(of: ShootResult?.self) { group in
            group.addTask {
                for await event in runner.events { sink.yield(.shoot(repetition: number, event)) }
                return nil
            }
            group.addTask {
                await runGuard(runner) {
                    await runner.run(from: repetition.start, restartingInterruptedSet: repetition.restartingSet)
                }
            }
            var result: ShootResult?
            for await value in group where value != nil { result = value }
            guard let result else { preconditionFailure("the repetition's runner always returns a result") }
            return result
        }
    }

    private func finish(
        _ completed: [Int], _ last: ShootResult?, _ reason: StopReason?, resumeAt: RepetitionSchedule.Start?
    ) async -> SeriesResult {
        let result = SeriesResult(
            completedRepetitions: completed, lastResult: last, stopReason: reason, resumeAt: resumeAt)
        state = .finished(result)
        await recorder.seriesDidFinish(result)
        eventSink.yield(.finished(result))
        eventSink.finish()
        return result
    }
}

/// Wakes the series' wait early (a pause, a resume, a stop); a signal with no waiter is kept for the next wait.
private final class Waker: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Void, Never>?, pending: Bool)>((nil, false))

    /// Returns after `duration` on `clock` (never when `nil`), at a signal, or when the task is cancelled.
    func wait(sleepingFor duration: Duration?, on clock: any Clock<Duration>) async {
        // Whichever ends the wait, it is over: the timeout's error says no more than that.
        _ = try? await withTimeout(after: duration, on: clock, throwing: CancellationError()) {
            await self.waitForSignal()
        }
    }

    /// Wakes the waiter, or the next one.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let continuation = state.continuation else {
                state.pending = true
                return nil
            }
            state.continuation = nil
            return continuation
        }
        waiter?.resume()
    }

    private func waitForSignal() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    state.continuation = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            // The same as a signal: cancelled before the continuation is stored, the flag makes it return at once
            // (a spare wake-up later is harmless, every wait re-checks its state).
            signal()
        }
    }
}
