import Exposure
import Foundation
import Shooting
import TestSupport

/// One ordered log of what the camera and the recorder did, shared by `TimelineCamera` and
/// `TimelineRecorder`, with gates the test opens: it shows which calls overlapped and in what order they ended.
actor Timeline {
    /// Something the camera or the recorder did.
    enum Mark: Hashable, Sendable {
        /// `setShutterSpeed` call `call` (1-based, every call counted) started.
        case setStarted(call: Int)
        /// Call `call` returned (`succeeded`); `cancelled` says whether its task was cancelled by then.
        case setFinished(call: Int, succeeded: Bool, cancelled: Bool)
        /// `frameWillFire` for the frame.
        case willFire(ShootPosition)
        /// `frameDidSave` for the frame started.
        case saveStarted(ShootPosition)
        /// `frameDidSave` for the frame returned (`succeeded`, or threw).
        case saveFinished(ShootPosition, succeeded: Bool)
        /// `runDidFinish`.
        case finished
    }

    /// A place where a call waits until the test opens it.
    enum Gate: Hashable, Sendable {
        /// Inside `setShutterSpeed` call `call`, before the camera is asked.
        case set(call: Int)
        /// Inside `frameDidSave` of the frame, before it is recorded.
        case save(ShootPosition)
    }

    /// Every mark, in order.
    private(set) var marks: [Mark] = []
    private var closed: Set<Gate>
    private var held: [Gate: [CheckedContinuation<Void, Never>]] = [:]
    private var waiters: [Mark: [CheckedContinuation<Void, Never>]] = [:]
    private var setCalls = 0

    /// A timeline whose `closed` gates hold their calls until `open(_:)`.
    init(closed: Set<Gate> = []) { self.closed = closed }

    /// Numbers the next `setShutterSpeed` call.
    func nextSetCall() -> Int {
        setCalls += 1
        return setCalls
    }

    /// Adds a mark and wakes whoever waits for it.
    func add(_ mark: Mark) {
        marks.append(mark)
        for waiter in waiters.removeValue(forKey: mark) ?? [] { waiter.resume() }
    }

    /// Returns once `mark` is logged (at once if it already is).
    func wait(for mark: Mark) async {
        if marks.contains(mark) { return }
        await withCheckedContinuation { waiters[mark, default: []].append($0) }
    }

    /// Waits while `gate` is closed. Deliberately deaf to cancellation, like a camera transaction or a
    /// journal write that is already under way.
    func pass(_ gate: Gate) async {
        guard closed.contains(gate) else { return }
        await withCheckedContinuation { held[gate, default: []].append($0) }
    }

    /// Opens `gate` for the calls waiting there and every later one.
    func open(_ gate: Gate) {
        closed.remove(gate)
        for call in held.removeValue(forKey: gate) ?? [] { call.resume() }
    }

    /// How many times `mark` is logged.
    func count(of mark: Mark) -> Int { marks.filter { $0 == mark }.count }

    /// The index of the first `mark`, or `nil`.
    func index(of mark: Mark) -> Int? { marks.firstIndex(of: mark) }

    /// Whether `mark` came before `other` (both logged).
    func logged(_ mark: Mark, before other: Mark) -> Bool {
        guard let first = index(of: mark), let second = index(of: other) else { return false }
        return first < second
    }
}

/// An `InMemoryCamera` whose speed sets are logged on a `Timeline`, can be held at a gate, and can answer
/// busy or drop the connection at a given call.
struct TimelineCamera: RemoteCamera {
    /// The camera behind.
    let inner: InMemoryCamera
    /// Where the sets are logged and held.
    let timeline: Timeline
    /// `setShutterSpeed` call numbers that answer busy (before asking the camera).
    var busySetCalls: Set<Int> = []
    /// `setShutterSpeed` call numbers at which the connection drops.
    var dropAtSetCalls: Set<Int> = []

    func recoverInterruptedCapture(
        exposure: ShutterSpeed, to destination: CaptureDestination, waitingAtMost: Duration
    ) async throws -> CapturedFrame? {
        try await inner.recoverInterruptedCapture(exposure: exposure, to: destination, waitingAtMost: waitingAtMost)
    }
    func takeNotes() async -> [String] { await inner.takeNotes() }
    func makeDurable(_ frame: CapturedFrame) async throws { try await inner.makeDurable(frame) }
    func mediaStatus() async -> MediaStatus { await inner.mediaStatus() }
    var identity: CameraIdentity { get async { await inner.identity } }
    var isConnected: Bool { get async { await inner.isConnected } }
    func connect() async throws { try await inner.connect() }
    func disconnect() async { await inner.disconnect() }
    func shootingMode() async throws -> ShootingMode { try await inner.shootingMode() }
    func availableShutterSpeeds() async throws -> [CameraShutterSpeed] { try await inner.availableShutterSpeeds() }
    func currentShutterSpeed() async throws -> CameraShutterSpeed { try await inner.currentShutterSpeed() }
    func capture(
        exposure: ShutterSpeed, to destination: CaptureDestination, beforeRelease: @Sendable () async throws -> Void
    ) async throws -> CapturedFrame {
        try await inner.capture(exposure: exposure, to: destination, beforeRelease: beforeRelease)
    }
    func statusUpdates() async -> AsyncStream<CameraStatus> { await inner.statusUpdates() }

    func setShutterSpeed(_ speed: CameraShutterSpeed) async throws {
        let call = await timeline.nextSetCall()
        await timeline.add(.setStarted(call: call))
        await timeline.pass(.set(call: call))
        do {
            if busySetCalls.contains(call) { throw InMemoryCamera.InMemoryCameraError.busy }
            if dropAtSetCalls.contains(call) {
                await inner.dropConnection()
                throw InMemoryCamera.InMemoryCameraError.connectionLost
            }
            try await inner.setShutterSpeed(speed)
        } catch {
            await timeline.add(.setFinished(call: call, succeeded: false, cancelled: Task.isCancelled))
            throw error
        }
        await timeline.add(.setFinished(call: call, succeeded: true, cancelled: Task.isCancelled))
    }
}

/// A recorder that logs its frame calls on a `Timeline`, holds `frameDidSave` at the timeline's gates,
/// and fails the saves of chosen frames.
actor TimelineRecorder: ShootRecorder {
    /// The error of a failing save.
    struct DiskFull: Error, Equatable {}

    let timeline: Timeline
    /// Frames whose `frameDidSave` throws `DiskFull` (after passing its gate).
    let failingSaves: Set<ShootPosition>

    init(timeline: Timeline, failingSaves: Set<ShootPosition> = []) {
        self.timeline = timeline
        self.failingSaves = failingSaves
    }

    func runWillStart(at position: ShootPosition, restartingSet: Bool) async throws {}
    func frameWillFire(at position: ShootPosition, setting: CameraShutterSpeed) async throws {
        await timeline.add(.willFire(position))
    }
    func frameDidSave(at position: ShootPosition, frame: CapturedFrame) async throws {
        await timeline.add(.saveStarted(position))
        await timeline.pass(.save(position))
        let fails = failingSaves.contains(position)
        await timeline.add(.saveFinished(position, succeeded: !fails))
        if fails { throw DiskFull() }
    }
    func frameDidFail(at position: ShootPosition, error: any Error, mayHaveFired: Bool) async throws {}
    func runDidPause(_ reason: PauseReason) async throws {}
    func runDidResume(_ reason: PauseReason) async throws {}
    func runDidFinish(_ result: ShootResult) async throws { await timeline.add(.finished) }
}

/// `(set 1, frame n)`.
func frame(_ number: Int) -> ShootPosition { ShootPosition(set: 1, frame: number) }

extension ShootEvent {
    /// Whether this is the `.finished` event.
    var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }
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
