import Exposure
import Foundation
import Shooting
import TestSupport

/// `1/denominator` seconds.
func speed(_ denominator: Int) -> ShutterSpeed { ShutterSpeed(numerator: 1, denominator: denominator) }

/// A plan of `sets` sets of `frames` frames: 1/1000, 1/500, 1/250, ... within each set.
func plan(sets: Int, frames: Int) -> BracketPlan {
    let scale = [1000, 500, 250, 125, 60, 30, 15, 8]
    return BracketPlan(sets: (0..<sets).map { _ in (0..<frames).map { speed(scale[$0 % scale.count]) } })
}

/// Runs to the end while collecting every event.
func runCollecting(
    _ runner: BracketRunner, from start: ShootPosition = .start, restartingInterruptedSet: Bool = false
) async -> (ShootResult, [ShootEvent]) {
    async let events = collect(runner.events)
    let result = await runner.run(from: start, restartingInterruptedSet: restartingInterruptedSet)
    return (result, await events)
}

/// Every element of `events` until it ends.
func collect(_ events: AsyncStream<ShootEvent>) async -> [ShootEvent] {
    var all: [ShootEvent] = []
    for await event in events { all.append(event) }
    return all
}

extension ShootEvent {
    /// The progress payload, if this is a progress event.
    var progress: FrameProgress? {
        if case .progress(let progress) = self { return progress }
        return nil
    }

    /// Whether this is `phase` of the frame at (set, frame).
    func isPhase(_ phase: FramePhase, set: Int, frame: Int) -> Bool {
        progress.map { $0.phase == phase && $0.position == ShootPosition(set: set, frame: frame) } ?? false
    }
}

extension ShootResult {
    /// The error of a `.failed` stop.
    var failure: (any Error)? {
        if case .failed(let error) = stopReason { return error }
        return nil
    }

    /// Whether the run was cancelled.
    var wasCancelled: Bool {
        if case .cancelled = stopReason { return true }
        return false
    }
}

/// A recorder that remembers every call, for order checks.
actor RecordingRecorder: ShootRecorder {
    enum Entry: Equatable {
        case started(ShootPosition)
        case willFire(ShootPosition)
        case fired(ShootPosition)
        case saved(ShootPosition)
        case failed(ShootPosition, mayHaveFired: Bool)
        case paused(PauseReason.Kind)
        case resumed(PauseReason.Kind)
        case finished(complete: Bool)
    }

    private(set) var entries: [Entry] = []
    /// When set, `frameWillFire` throws this at that position.
    var failWillFireAt: ShootPosition?

    init(failWillFireAt: ShootPosition? = nil) { self.failWillFireAt = failWillFireAt }

    func runWillStart(at position: ShootPosition, restartingSet: Bool) async throws {
        entries.append(.started(position))
    }
    func frameWillFire(at position: ShootPosition, setting: CameraShutterSpeed) async throws {
        if position == failWillFireAt { throw CocoaError(.fileWriteOutOfSpace) }
        entries.append(.willFire(position))
    }
    func frameDidFire(at position: ShootPosition) async throws {
        entries.append(.fired(position))
    }
    func frameDidSave(at position: ShootPosition, frame: CapturedFrame) async throws {
        entries.append(.saved(position))
    }
    func frameDidFail(at position: ShootPosition, error: any Error, mayHaveFired: Bool) async throws {
        entries.append(.failed(position, mayHaveFired: mayHaveFired))
    }
    func runDidPause(_ reason: PauseReason) async throws { entries.append(.paused(reason.kind)) }
    func runDidResume(_ reason: PauseReason) async throws { entries.append(.resumed(reason.kind)) }
    func runDidFinish(_ result: ShootResult) async throws { entries.append(.finished(complete: result.isComplete)) }
}

extension ShootResult {
    /// Whether the run stopped because the recorder failed.
    var recordingFailed: Bool {
        if case .recordingFailed = stopReason { return true }
        return false
    }

    /// Whether the run stopped on request.
    var stopWasRequested: Bool {
        if case .stopRequested = stopReason { return true }
        return false
    }
}
