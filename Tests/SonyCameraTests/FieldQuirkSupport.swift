import CameraSimulator
import Foundation
import PTPIP
import PTPIPCodec
import Shooting
import SonyCamera
import Synchronization
import TestSupport
import Timing

/// A simulated body and a `SonyCamera`, each on its own virtual clock, whose clocks move together only when
/// both wait for time: field behaviours that take seconds (idle drops, ignored releases, focus, long
/// exposures) are tested in milliseconds, and no real time decides anything.
///
/// Both sides are "waiting for time" when the body's timer sleeps until its next deadline (or waits for a
/// request, when nothing is due), the camera has as many sleepers on its clock as the test says it parks
/// (`parked`: the link's keepalive and the operation's own wait), and nothing is on the wire: every request
/// the camera started has been answered and every event the body sent has arrived. Time then moves straight
/// to the earliest deadline either side sleeps until.
struct Lockstep {
    /// The camera's clock.
    let camera = TestClock()
    /// The simulated body's clock.
    let body = TestClock()
    /// What crosses the wire, seen from the camera.
    let wire = WireWatch()

    /// Runs a simulator on `body` and a camera on `camera`, with the wire watched; connected unless `connect`
    /// is false (a start-up that waits on the camera's clock, such as busy retries, is then driven by the test).
    static func run<T: Sendable>(
        simulator adjustSimulator: (inout SimulatorConfiguration) -> Void = { _ in },
        camera adjustCamera: (inout SonyCameraConfiguration) -> Void = { _ in },
        connect: Bool = true,
        _ body: (SonyCamera, CameraSimulator, Lockstep) async throws -> T
    ) async throws -> T {
        let lockstep = Lockstep()
        return try await SimulatorHarness.run(
            simulator: adjustSimulator,
            camera: {
                adjustCamera(&$0)
                $0.ptpipObserver = lockstep.wire
            }, clock: lockstep.camera, simulatorClock: lockstep.body, connect: connect
        ) { camera, simulator in try await body(camera, simulator, lockstep) }
    }

    /// Runs `operation`, moving both clocks from one deadline to the next whenever both sides wait for time
    /// (the camera with `parked` sleepers), until it finishes; cancels it when `limit` of virtual time passed.
    func drive<T: Sendable>(
        _ simulator: CameraSimulator, parked: Int = 2, limit: Duration = .seconds(120),
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let task = Task { try await operation() }
        let done = Doorbell()
        let watcher = Task {
            _ = try? await task.value
            done.ring()
        }
        let end = camera.now.offset + limit
        while done.generation == 0 {
            guard await settle(simulator, parked: parked, unless: done) else { break }
            guard let next = nextDeadline(), next <= end else {
                task.cancel()
                break
            }
            move(to: next)
        }
        _ = await watcher.value
        return try await task.value
    }

    /// Moves both clocks on by `duration`, from one deadline to the next whenever both sides wait for time
    /// (the camera with `parked` sleepers: its keepalive, or none without one), and lets both settle after.
    func pass(_ duration: Duration, _ simulator: CameraSimulator, parked: Int = 1) async {
        let end = camera.now.offset + duration
        while camera.now.offset < end {
            await settle(simulator, parked: parked)
            move(to: min(nextDeadline() ?? end, end))
        }
        await settle(simulator, parked: parked)
    }

    /// Waits until both sides wait for time (the camera with `parked` sleepers, nothing on the wire, the
    /// body's timer asleep): nothing happens from then on until a clock moves or the test acts.
    func settle(_ simulator: CameraSimulator, parked: Int) async {
        await settle(simulator, parked: parked, unless: Doorbell())
    }

    /// The earliest deadline either clock has a sleeper for.
    private func nextDeadline() -> Duration? {
        (camera.pendingDeadlines + body.pendingDeadlines).map(\.offset).min()
    }

    private func move(to offset: Duration) {
        body.advance(to: TestClock.Instant(offset: offset))
        camera.advance(to: TestClock.Instant(offset: offset))
    }

    /// Waits until both sides wait for time; returns false instead when `done` rings first.
    @discardableResult
    private func settle(_ simulator: CameraSimulator, parked: Int, unless done: Doorbell) async -> Bool {
        while done.generation == 0 {
            let (started, wireChanges) = (wire.requestsStarted, wire.changes.generation)
            await firstOf(done) { await camera.waitForSleepers(parked) }
            guard done.generation == 0 else { return false }
            let eventsSent = await simulator.eventsSent
            guard wire.requestsEnded == started, wire.eventsReceived >= eventsSent else {
                // A request or an event is on its way: wait until the wire moves.
                await firstOf(done) { await wire.changes.wait(after: wireChanges) }
                continue
            }
            // The body is still at work: noting an event the camera already has, or its timer due or
            // planning again.
            guard wire.eventsReceived == eventsSent, await simulator.isWaiting else {
                await Task.yield()
                continue
            }
            // The timer has planned a sleep until a deadline still ahead: its sleeper comes (or is there).
            if await simulator.nextDeadline != nil { await firstOf(done) { await body.waitForSleepers(1) } }
            // Settled unless something started meanwhile.
            if wire.requestsStarted == started, camera.sleeperCount >= parked, await simulator.isWaiting { return true }
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
