import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

/// Auto-reconnect after a dropped connection, in virtual time.
@Suite(.timeLimit(.minutes(1))) struct BracketRunnerReconnectTests {
    /// Advances the clock to each deadline in turn, checking that the runner sleeps exactly until it.
    private func expectSleeps(until offsets: [Duration], on clock: TestClock) async {
        for offset in offsets {
            await clock.waitForSleepers(1)
            #expect(clock.pendingDeadlines == [TestClock.Instant(offset: offset)])
            clock.advance(to: TestClock.Instant(offset: offset))
        }
    }

    @Test func reconnectsAfterADropAndReshootsTheFrameThatDidNotFinish() async {
        var script = InMemoryCamera.Script()
        script.dropConnectionAtShots = [7]
        script.refusedConnects = 2
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let recorder = RecordingRecorder()
        let shootPlan = plan(sets: 3, frames: 5)
        let runner = makeRunner(camera, plan: shootPlan, clock: clock, recorder: recorder)
        let events = Task { await collect(runner.events) }
        let task = Task { await runner.run() }
        await expectSleeps(until: [.seconds(2), .seconds(7), .seconds(17)], on: clock)
        let result = await task.value

        #expect(result.isComplete && result.saved == 15)
        #expect(await camera.shotSettings == shootPlan.sets.flatMap { $0 }.map { .timed($0) })
        #expect(await camera.connectCount == 3)
        let log = await events.value
        let attempts = log.compactMap { event -> Duration? in
            if case .reconnecting(_, let delay) = event { return delay }
            return nil
        }
        #expect(attempts == [.seconds(2), .seconds(5), .seconds(10)])
        #expect(log.contains { if case .reconnected(3) = $0 { true } else { false } })
        #expect(log.contains { if case .paused(PauseReason(.connection)) = $0 { true } else { false } })
        #expect(log.contains { if case .resumed(PauseReason(.connection)) = $0 { true } else { false } })
        let dropped = ShootPosition(set: 2, frame: 2)
        let entries = await recorder.entries
        #expect(entries.filter { $0 == .willFire(dropped) }.count == 2)
        #expect(entries.contains(.failed(dropped, mayHaveFired: true)))
    }

    @Test func reconnectGivesUpAtTheTimeoutAndStopsResumable() async {
        var script = InMemoryCamera.Script()
        script.dropConnectionAtShots = [2]
        script.refusedConnects = .max
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let policy = ReconnectPolicy(delays: [.seconds(2), .seconds(5), .seconds(10)], timeout: .seconds(30))
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3), clock: clock, reconnect: policy)
        let task = Task { await runner.run() }
        // 2, 7, 17, 27; the next attempt would start at 37 s, after the 30 s timeout.
        await expectSleeps(until: [.seconds(2), .seconds(7), .seconds(17), .seconds(27)], on: clock)
        let result = await task.value
        guard case .reconnectGaveUp(let attempts, let lastError) = result.stopReason else {
            Issue.record("expected reconnectGaveUp, got \(String(describing: result.stopReason))")
            return
        }
        #expect(attempts == 4)
        #expect(lastError as? InMemoryCamera.InMemoryCameraError == .refused)
        // Frame 1 waits in the camera: the reconnect never came, so nothing was downloaded.
        #expect(result.saved == 0 && result.resumePosition == .start)
    }

    @Test func reconnectKeepsTryingEveryTenSecondsForFiveMinutesByDefault() async {
        var script = InMemoryCamera.Script()
        script.dropConnectionAtShots = [1]
        script.refusedConnects = .max
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 1), clock: clock)
        let task = Task { await runner.run() }
        let deadlines = [2, 7] + stride(from: 17, through: 297, by: 10)
        await expectSleeps(until: deadlines.map { .seconds($0) }, on: clock)
        let result = await task.value
        guard case .reconnectGaveUp(let attempts, _) = result.stopReason else {
            Issue.record("expected reconnectGaveUp, got \(String(describing: result.stopReason))")
            return
        }
        #expect(attempts == 31)
        #expect(await camera.connectCount == 31)
    }

    @Test func reconnectWaitsForTheNetworkAndTheCamera() async {
        var script = InMemoryCamera.Script()
        script.dropConnectionAtShots = [2]
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3), clock: clock)
        let task = Task { await runner.run() }
        await clock.waitForSleepers(1)
        await runner.pause(reason: PauseReason(.network, detail: "DIRECT-ab:DSC-RX100M7"))
        clock.advance(by: .seconds(2)) // attempt 1 is skipped: the network is down
        await clock.waitForSleepers(1)
        #expect(await camera.connectCount == 0)
        await runner.resume(reason: PauseReason(.network))
        clock.advance(by: .seconds(5))
        let result = await task.value
        #expect(result.isComplete)
        #expect(await camera.connectCount == 1)
    }

    @Test func cameraSwitchedToAperturePriorityWhileAwayStopsTheRun() async {
        var script = InMemoryCamera.Script()
        script.dropConnectionAtShots = [2]
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3), clock: clock)
        let task = Task { await runner.run() }
        await clock.waitForSleepers(1)
        await camera.update { $0.mode = .aperturePriority }
        clock.advance(by: .seconds(2))
        let result = await task.value
        #expect(result.failure as? ShootingError == .unsupportedMode(.aperturePriority))
        // Frame 1 waits in the camera (no download after the failed reconnect): resume starts there.
        #expect(result.saved == 0 && result.resumePosition == .start)
    }

    @Test func disabledReconnectStopsAtTheDrop() async {
        var script = InMemoryCamera.Script()
        script.dropConnectionAtShots = [1]
        let camera = InMemoryCamera(script: script)
        let (result, _) = await runCollecting(makeRunner(camera, plan: plan(sets: 1, frames: 2), reconnect: .disabled))
        guard case .reconnectGaveUp(0, _) = result.stopReason else {
            Issue.record("expected reconnectGaveUp(0), got \(String(describing: result.stopReason))")
            return
        }
        #expect(result.resumePosition == .start)
        #expect(await camera.connectCount == 0)
    }

    @Test func stopDuringReconnectEndsAfterTheCurrentWait() async {
        var script = InMemoryCamera.Script()
        script.dropConnectionAtShots = [1]
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 2), clock: clock)
        let task = Task { await runner.run() }
        await clock.waitForSleepers(1)
        await runner.stop()
        clock.advance(by: .seconds(2))
        let result = await task.value
        guard case .stopRequested = result.stopReason else {
            Issue.record("expected stopRequested, got \(String(describing: result.stopReason))")
            return
        }
        #expect(await camera.connectCount == 0)
    }
}
