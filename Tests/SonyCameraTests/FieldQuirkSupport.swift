import CameraSimulator
import Foundation
import PTPIP
import PTPIPCodec
import Posix
import Shooting
import SonyCamera
import Synchronization
import TestSupport
import Timing

/// A simulated body and a `SonyCamera`, each on its own virtual clock, whose clocks move together only when
/// both wait for time: field behaviours that take seconds (idle drops, ignored releases, focus, long
/// exposures) are tested in milliseconds, and no real time decides anything.
///
/// "Both wait for time" is a fact, not a count: the body, the camera, the tasks the camera starts for itself
/// (`TaskPlacement.executor`) and the test's operations (`drive`, `task`) all run on one `QuiescentExecutor`,
/// and time moves only when it has no job queued or running, no wake-up is on its way (a ready socket, a
/// blocking call), and nothing is on the wire (every request the camera started has been answered, every event
/// the body sent has arrived). Then nothing can happen until a clock moves, and time moves straight to the
/// earliest deadline either side sleeps until. No sleeper is counted, so a timer not yet cancelled, a
/// keepalive or a thread slow to get a core under load cannot be mistaken for "parked".
struct Lockstep {
    /// The camera's clock.
    let camera = TestClock()
    /// The simulated body's clock.
    let body = TestClock()
    /// What crosses the wire, seen from the camera.
    let wire = WireWatch()
    /// Where the body, the camera and the test's operations run.
    let executor = QuiescentExecutor()

    /// Runs a simulator on `body` and a camera on `camera`, with the wire watched; connected unless `connect`
    /// is false (a start-up that waits on the camera's clock, such as busy retries, is then driven by the test).
    /// `body` itself runs off the executor (it drives time); what it starts runs on it (`drive`, `task`).
    static func run<T: Sendable>(
        simulator adjustSimulator: (inout SimulatorConfiguration) -> Void = { _ in },
        camera adjustCamera: (inout SonyCameraConfiguration) -> Void = { _ in },
        connect: Bool = true,
        _ body: (SonyCamera, CameraSimulator, Lockstep) async throws -> T
    ) async throws -> T {
        let lockstep = Lockstep()
        defer { lockstep.executor.shutDown() }
        return try await TaskPlacement.$executor.withValue(lockstep.executor) {
            try await withTaskExecutorPreference(lockstep.executor) {
                try await SimulatorHarness.run(
                    simulator: adjustSimulator,
                    camera: {
                        adjustCamera(&$0)
                        $0.ptpipObserver = lockstep.wire
                    }, clock: lockstep.camera, simulatorClock: lockstep.body, connect: connect
                ) { camera, simulator in
                    try await withTaskExecutorPreference(globalConcurrentExecutor) {
                        try await body(camera, simulator, lockstep)
                    }
                }
            }
        }
    }

    /// Starts `operation` on the executor, where time waits for it: a test's own task beside `drive`.
    func task<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        Task(executorPreference: executor) { try await operation() }
    }

    /// Runs `operation`, moving both clocks from one deadline to the next whenever both sides wait for time,
    /// until it finishes; cancels it when `limit` of virtual time passed or nothing is left to wait for.
    func drive<T: Sendable>(
        _ simulator: CameraSimulator, limit: Duration = .seconds(120),
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let done = Doorbell()
        // Rung on the executor as the operation's last act: once the executor is idle after it, the end is seen.
        let task = Task(executorPreference: executor) {
            defer { done.ring() }
            return try await operation()
        }
        let end = camera.now.offset + limit
        while done.generation == 0 {
            guard await settle(simulator, unless: done) else { break }
            guard let next = nextDeadline(), next <= end else {
                task.cancel()
                break
            }
            move(to: next)
        }
        return try await task.value
    }

    /// Moves both clocks on by `duration`, from one deadline to the next whenever both sides wait for time, and
    /// lets both settle after.
    func pass(_ duration: Duration, _ simulator: CameraSimulator) async {
        let end = camera.now.offset + duration
        while camera.now.offset < end {
            await settle(simulator)
            move(to: min(nextDeadline() ?? end, end))
        }
        await settle(simulator)
    }

    /// Waits until both sides wait for time: nothing happens from then on until a clock moves or the test acts.
    func settle(_ simulator: CameraSimulator) async {
        await settle(simulator, unless: Doorbell())
    }

    /// The earliest deadline either clock has a sleeper for.
    private func nextDeadline() -> Duration? {
        (camera.pendingDeadlines + body.pendingDeadlines).map(\.offset).min()
    }

    private func move(to offset: Duration) {
        body.advance(to: TestClock.Instant(offset: offset))
        camera.advance(to: TestClock.Instant(offset: offset))
    }

    /// Waits until everything on the executor is parked with nothing on its way to wake it and nothing on the
    /// wire; returns false instead when `done` rings first.
    @discardableResult
    private func settle(_ simulator: CameraSimulator, unless done: Doorbell) async -> Bool {
        var rounds = 0
        while done.generation == 0 {
            rounds += 1
            let wireChanges = wire.changes.generation
            // Asked on the executor, so the body's actor is never held by a thread the executor cannot see.
            let sent = await Task(executorPreference: executor) { await simulator.eventsSent }.value
            await executor.idle()
            let jobs = executor.jobsFinished
            guard done.generation == 0 else { return false }
            let (started, ended, received) = (wire.requestsStarted, wire.requestsEnded, wire.eventsReceived)
            if ended < started || received < sent {
                // A request or an event is on its way: wait until the wire moves.
                await firstOf(done) { await wire.changes.wait(after: wireChanges) }
                continue
            }
            // An event arrived that the body has not counted yet (its sender runs on the executor), a wake-up is
            // on its way (a socket ready, a blocking call), or a job ran meanwhile: look again.
            guard received == sent, executor.isParked, executor.jobsFinished == jobs else {
                // The driver's own pause (never the code under test's): on a loaded machine the thread that
                // brings the wake-up may wait for a core longer than a few yields take.
                if rounds % 16 == 0 { try? await Task.sleep(for: .microseconds(50)) } else { await Task.yield() }
                continue
            }
            return true
        }
        return false
    }

    /// Runs `wait` until it returns or `done` rings.
    private func firstOf(_ done: Doorbell, _ wait: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await wait() }
            group.addTask { await done.wait(after: 0) }
            await group.next()
            group.cancelAll()
        }
    }
}

/// Counts what crosses the wire as the camera's PTP/IP client sees it, and rings on every change.
final class WireWatch: PTPIPObserver {
    private let counts = Mutex((started: 0, ended: 0, events: 0))
    private let codes = Mutex<[OperationCode]>([])
    /// Rings whenever a request starts or ends or an event arrives.
    let changes = Doorbell()

    /// Requests the camera started.
    var requestsStarted: Int { counts.withLock { $0.started } }
    /// The operations the camera requested, in order.
    var requested: [OperationCode] { codes.withLock { $0 } }
    /// Requests whose transaction ended (answered or broken).
    var requestsEnded: Int { counts.withLock { $0.ended } }
    /// Events that arrived on the event connection.
    var eventsReceived: Int { counts.withLock { $0.events } }

    func observeRequest(_ code: OperationCode, transactionID: UInt32) {
        counts.withLock { $0.started += 1 }
        codes.withLock { $0.append(code) }
        changes.ring()
    }

    func observe(_ record: PTPIPOperationRecord) {
        counts.withLock { $0.ended += 1 }
        changes.ring()
    }

    func observe(_ event: PTPEvent) {
        counts.withLock { $0.events += 1 }
        changes.ring()
    }

    func observeConnect(address: String, duration: Duration, error: (any Error)?) {}

    /// Returns once `condition` holds, checking it again whenever the wire moves.
    func wait(until condition: () async -> Bool) async {
        while true {
            let generation = changes.generation
            if await condition() { return }
            await changes.wait(after: generation)
        }
    }
}
