import Exposure
import Foundation
import Timing

/// Fires every frame of a bracket plan on a `RemoteCamera`, in order, through busy answers, pauses and
/// dropped connections, and reports progress as an `AsyncSequence` of `ShootEvent`s.
///
/// Per frame: set the speed (confirmed by the camera), capture (the camera calls back to record "about to
/// fire" before the release, while the half-press is in flight), wait for the camera to report idle,
/// record "saved". The "saved" record is written while the next frame's speed is being set (both wait on
/// different things: the disk and the camera), and is always written before the next frame is reported,
/// fired, or the run parks or ends. Control from outside:
/// - `pause(reason:)` / `resume(reason:)` add and release holds; shooting parks between frames while any
///   hold is active (the keyboard, a network monitor and the reconnect loop each hold their own kind).
/// - `stop()` finishes the frame in flight, then ends the run (resumable).
/// - Cancelling the task that awaits `run(from:restartingInterruptedSet:)` abandons the frame in flight;
///   it is reshot on resume.
///
/// Durable bookkeeping goes through a `ShootRecorder` (the journal), so the runner never touches files.
/// Time goes through the injected clock, so tests run backoffs and timeouts in virtual time.
package actor BracketRunner {
    /// Settings of a run.
    package struct Configuration: Sendable {
        /// Added to the exposure time to give the idle timeout (exposure + 10 s by default).
        package var idleMargin: Duration
        /// Retries for busy (transient) camera errors.
        package var busyRetry: RetryPolicy
        /// Auto-reconnect after the connection drops.
        package var reconnect: ReconnectPolicy
        /// The shoot's output folder; frames go to one subfolder per set (`set-01`, `set-02`, ...).
        package var outputDirectory: URL

        /// Creates a configuration.
        package init(
            outputDirectory: URL,
            idleMargin: Duration = .seconds(10),
            busyRetry: RetryPolicy = .busy,
            reconnect: ReconnectPolicy = .standard
        ) {
            self.outputDirectory = outputDirectory
            self.idleMargin = idleMargin
            self.busyRetry = busyRetry
            self.reconnect = reconnect
        }

        /// Where the frame at `position` is saved: `<output>/set-NN/`, camera file names kept.
        package func destination(for position: ShootPosition) -> CaptureDestination {
            let number = position.set < 10 ? "0\(position.set)" : "\(position.set)"
            return CaptureDestination(
                directory: outputDirectory.appendingPathComponent("set-\(number)", isDirectory: true))
        }
    }

    /// What the runner is doing; every transition happens on the actor and is re-checked after each await.
    package enum State: Sendable {
        /// Created, `run` not called yet.
        case ready
        /// Checking the camera before the first frame.
        case preparing
        /// Working on the frame at the position.
        case running(ShootPosition)
        /// Parked before the frame at the position while holds are active.
        case paused(ShootPosition)
        /// Reconnecting before reshooting the frame at the position.
        case reconnecting(ShootPosition, attempt: Int)
        /// Over; the result says why.
        case finished(ShootResult)
    }

    /// The run's events, in order; `.finished` is the last. One consumer.
    package nonisolated let events: AsyncStream<ShootEvent>

    /// The camera driven.
    let camera: any RemoteCamera
    /// The plan shot.
    let plan: BracketPlan
    /// The run's settings.
    let configuration: Configuration
    /// Every wait (backoff, idle timeout, reconnect) goes through this clock.
    let clock: any Clock<Duration>
    /// Receives the durable milestones.
    let recorder: any ShootRecorder
    private let eventSink: AsyncStream<ShootEvent>.Continuation
    /// Pokes the parked run loop after a hold is released or a stop is requested.
    private let wakeups: AsyncStream<Void>
    private let wakeSink: AsyncStream<Void>.Continuation

    /// The current state.
    package private(set) var state: State = .ready
    /// Active pause holds, one per kind.
    private(set) var holds: [PauseReason.Kind: PauseReason] = [:]
    /// Set by `stop()`; honoured between frames and between reconnect attempts.
    private(set) var stopRequested = false
    /// Frames of the plan saved (frames before the start position included).
    var completed = 0
    /// Frames saved by this run.
    var capturedThisRun = 0
    /// The "about to fire" record of the frame capturing now.
    var fireRecord: FireRecordState = .idle
    /// Releases of the frame being shot that may have fired and ended in a dropped connection.
    var droppedReleases = 0
    /// Time since the last release of the frame being shot may have happened (its hook ran), when its capture
    /// ended in a dropped connection: after reconnecting, that release's image is looked for before anything
    /// is fired again.
    var interruptedRelease: Stopwatch?
    /// Time since the hook of the frame capturing now ran (its release may have happened since).
    var releaseWatch: Stopwatch?
    /// The camera setting of every remaining frame, as the last preparation resolved them.
    var preparedSettings: [ShootPosition: CameraShutterSpeed] = [:]

    /// Creates a runner for `plan` on `camera`; `recorder` receives the durable milestones (the journal).
    package init(
        camera: any RemoteCamera,
        plan: BracketPlan,
        configuration: Configuration,
        recorder: any ShootRecorder = NoRecorder(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.camera = camera
        self.plan = plan
        self.configuration = configuration
        self.recorder = recorder
        self.clock = clock
        (events, eventSink) = AsyncStream.makeStream(of: ShootEvent.self, bufferingPolicy: .unbounded)
        (wakeups, wakeSink) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The active pause holds.
    package var activeHolds: [PauseReason] { holds.values.sorted { $0.kind.rawValue < $1.kind.rawValue } }

    // MARK: - Control

    /// Holds shooting for `reason` (parks before the next frame); a second hold of the same kind only
    /// updates its detail. Ignored once the run is finished.
    package func pause(reason: PauseReason) async {
        if case .finished = state { return }
        let isNew = holds[reason.kind] == nil
        holds[reason.kind] = reason
        guard isNew else { return }
        eventSink.yield(.paused(reason))
        // A pause that is not logged loses no frame; the frame records are what resume relies on.
        try? await recorder.runDidPause(reason)
    }

    /// Releases the hold of `reason.kind` (`reason` is what is reported: "network back"); shooting
    /// continues when no hold is left. Ignored when no such hold is active.
    package func resume(reason: PauseReason) async {
        guard holds.removeValue(forKey: reason.kind) != nil else { return }
        eventSink.yield(.resumed(reason))
        wakeSink.yield()
        try? await recorder.runDidResume(reason)
    }

    /// Ends the run after the frame in flight is saved (or at once when parked or reconnecting).
    package func stop() {
        stopRequested = true
        wakeSink.yield()
    }

    // MARK: - Run

    /// Shoots the plan from `start` (1-based; frames before it count as done) to the end and returns how
    /// it went. With `restartingInterruptedSet`, shooting starts at the first frame of `start`'s set.
    /// Call once per runner.
    package func run(from start: ShootPosition = .start, restartingInterruptedSet: Bool = false) async -> ShootResult {
        guard case .ready = state else { preconditionFailure("a BracketRunner runs once") }
        let positions = plan.positions
        let first = restartingInterruptedSet ? ShootPosition(set: start.set, frame: 1) : start
        if positions.isEmpty { return await finish(nil, resumeAt: nil) }
        guard var index = positions.firstIndex(of: first) else {
            return await finish(.failed(ShootingError.invalidResumePosition(first)), resumeAt: first)
        }
        completed = index
        state = .preparing
        let settings: [ShootPosition: CameraShutterSpeed]
        do {
            settings = try await prepareCamera(for: positions[index...], reportingAt: first)
        } catch {
            return await finish(stopReason(for: error), resumeAt: first)
        }
        preparedSettings = settings
        await reportCameraNotes()
        do {
            try await recorder.runWillStart(at: first, restartingSet: restartingInterruptedSet)
        } catch {
            return await finish(.recordingFailed(error), resumeAt: first)
        }
        eventSink.yield(.started(position: first, completed: completed, total: positions.count))

        // The last frame shot, whose "saved" record is written while the next frame's speed is set; every
        // way out of the loop writes it first.
        var pending: PendingRecord?
        while index < positions.count {
            let position = positions[index]
            if let previous = pending, isHeldOrEnding {
                pending = nil
                if let ended = await recordOrFinish(previous) { return ended }
            }
            if let reason = await parkIfHeld(before: position) { return await finish(reason, resumeAt: position) }
            do {
                guard let setting = settings[position] else { preconditionFailure("prepared every remaining frame") }
                let previous = pending
                pending = nil // `shootFrame` records it before anything else can end the frame
                switch try await shootFrame(at: position, setting: setting, after: previous) {
                case .captured(let record):
                    pending = record
                    index += 1
                case .deferred:
                    continue
                }
            } catch let failure as RecordingFailure {
                return await finish(.recordingFailed(failure.underlying), resumeAt: failure.position)
            } catch {
                guard ErrorDisposition(error) == .reconnect, !Task.isCancelled else {
                    return await finish(stopReason(for: error), resumeAt: position)
                }
                switch await reconnectAndRecover(after: error, at: position, remaining: positions[index...]) {
                case .recovered(let record):
                    pending = record
                    index += 1
                case .fireAgain:
                    continue
                case .stop(let reason):
                    return await finish(reason, resumeAt: position)
                }
            }
            droppedReleases = 0
        }
        if let last = pending, let ended = await recordOrFinish(last) { return ended }
        return await finish(nil, resumeAt: nil)
    }

    /// Writes `pending`'s "saved" record between frames; when that fails, ends the run there and returns how.
    private func recordOrFinish(_ pending: PendingRecord) async -> ShootResult? {
        do throws(RecordingFailure) {
            try await record(pending)
            return nil
        } catch {
            return await finish(.recordingFailed(error.underlying), resumeAt: error.position)
        }
    }

    // MARK: - Steps

    /// Whether the run must park or end before the next frame: a hold is active, a stop was requested, or
    /// the task is cancelled.
    var isHeldOrEnding: Bool { Task.isCancelled || stopRequested || !holds.isEmpty }

    /// Returns a reason to stop, or `nil` to shoot the frame at `position`; parks while holds are active.
    private func parkIfHeld(before position: ShootPosition) async -> StopReason? {
        while true {
            if Task.isCancelled { return .cancelled }
            if stopRequested { return .stopRequested }
            if holds.isEmpty {
                state = .running(position)
                return nil
            }
            state = .paused(position)
            // Ends early (nil) on cancellation; every wake-up re-checks the state above.
            for await _ in wakeups { break }
        }
    }

    /// Connects when needed, checks the mode, and resolves the camera setting of every remaining frame.
    func prepareCamera(
        for positions: ArraySlice<ShootPosition>, reportingAt position: ShootPosition
    ) async throws -> [ShootPosition: CameraShutterSpeed] {
        if await !camera.isConnected { try await camera.connect() }
        let camera = self.camera
        let mode = try await withBusyRetry(at: position, phase: .settingSpeed) { try await camera.shootingMode() }
        guard mode.allowsShutterControl else { throw ShootingError.unsupportedMode(mode) }
        let available = try await withBusyRetry(at: position, phase: .settingSpeed) {
            try await camera.availableShutterSpeeds()
        }
        var settings: [ShootPosition: CameraShutterSpeed] = [:]
        for position in positions {
            guard let speed = plan.speed(at: position) else { continue }
            guard let setting = CameraShutterSpeed.resolve(speed, in: available) else {
                throw ShootingError.speedUnavailable(speed)
            }
            settings[position] = setting
        }
        return settings
    }

    /// Maps an error that ends the run to its stop reason.
    func stopReason(for error: any Error) -> StopReason {
        Task.isCancelled || ErrorDisposition(error) == .cancelled ? .cancelled : .failed(error)
    }

    /// Ends the run: records and reports the result, closes the event stream.
    private func finish(_ reason: StopReason?, resumeAt position: ShootPosition?) async -> ShootResult {
        let result = ShootResult(
            completed: completed,
            total: plan.totalExposures,
            capturedThisRun: capturedThisRun,
            resumePosition: reason == nil ? nil : position,
            stopReason: reason
        )
        state = .finished(result)
        // The frame records are already durable; a lost "finished" mark only makes status say "stopped".
        try? await recorder.runDidFinish(result)
        eventSink.yield(.finished(result))
        eventSink.finish()
        wakeSink.finish()
        return result
    }

    /// Reports a phase of the frame at `position`.
    func report(
        _ phase: FramePhase, at position: ShootPosition, setting: CameraShutterSpeed, saved: CapturedFrame? = nil
    ) {
        guard let speed = plan.speed(at: position) else { return }
        eventSink.yield(
            .progress(
                FrameProgress(
                    position: position,
                    setCount: plan.sets.count,
                    framesInSet: plan.sets[position.set - 1].count,
                    speed: speed,
                    setting: setting,
                    phase: phase,
                    completed: completed,
                    total: plan.totalExposures,
                    saved: saved
                )))
    }

    /// Emits an event (for the extensions).
    func emit(_ event: ShootEvent) { eventSink.yield(event) }

    /// Sets the state (for the extensions).
    func enter(_ newState: State) { state = newState }
}

/// A recorder failure, kept apart from camera errors so the run stops with `.recordingFailed`.
struct RecordingFailure: Error {
    /// The frame whose record failed; the run resumes there (the journal does not say it is done).
    let position: ShootPosition
    /// The recorder's error.
    let underlying: any Error
}
