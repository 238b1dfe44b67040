import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

/// Frame n's "saved" record is written while frame n+1's speed is set; every way out of the frame loop writes
/// it first. The `Timeline` gates hold a save or a set so the test decides which one ends first.
@Suite(.timeLimit(.minutes(1))) struct BracketRunnerOverlapTests {
    /// Returns once the runner is parked (its state is `.paused`); the runner gets there without any clock.
    private func waitUntilParked(_ runner: BracketRunner) async -> ShootPosition? {
        while !Task.isCancelled {
            if case .paused(let position) = await runner.state { return position }
            await Task.yield()
        }
        return nil
    }

    @Test func theNextSpeedIsSetWhileTheFrameIsRecorded() async {
        let timeline = Timeline(closed: [.save(frame(1))])
        let camera = TimelineCamera(inner: InMemoryCamera(), timeline: timeline)
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3), recorder: TimelineRecorder(timeline: timeline))
        let events = Task { await collect(runner.events) }
        let task = Task { await runner.run() }

        // Frame 1's save is held, and frame 2's speed set runs to its end meanwhile (the two start concurrently:
        // either may be first to get going, so both are waited for).
        await timeline.wait(for: .setFinished(call: 2, succeeded: true, cancelled: false))
        await timeline.wait(for: .saveStarted(frame(1)))
        let during = await timeline.marks
        #expect(during.contains(.saveStarted(frame(1))))
        #expect(!during.contains(.saveFinished(frame(1), succeeded: true)))
        #expect(!during.contains(.willFire(frame(2)))) // nothing fires before the previous record is durable
        await timeline.open(.save(frame(1)))

        let result = await task.value
        #expect(result.isComplete && result.completed == 3 && result.capturedThisRun == 3)
        #expect(await timeline.logged(.saveFinished(frame(1), succeeded: true), before: .willFire(frame(2))))
        #expect(await camera.inner.speedsSet.count == 3) // one set per frame: the overlapped set counts
        let progress = await events.value.compactMap(\.progress)
        let phases: [FramePhase] = [.settingSpeed, .capturing, .waitingForIdle, .saved]
        #expect(progress.map(\.phase) == Array([[FramePhase]](repeating: phases, count: 3).joined()))
        #expect(progress.map(\.position) == [1, 2, 3].flatMap { Array(repeating: frame($0), count: 4) })
        #expect(progress.filter { $0.phase == .saved }.map(\.completed) == [1, 2, 3])
    }

    @Test func aSettingSpeedEventMeansThePreviousFrameIsRecorded() async {
        // Set 2 ends before save 1, save 2 before set 3 (held until then): both orders are seen.
        let timeline = Timeline(closed: [.save(frame(1)), .set(call: 3)])
        let camera = TimelineCamera(inner: InMemoryCamera(), timeline: timeline)
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3), recorder: TimelineRecorder(timeline: timeline))
        let observer = Task {
            var durable: [Bool] = []
            for await event in runner.events {
                guard let progress = event.progress, progress.phase == .settingSpeed, progress.position.frame > 1 else {
                    continue
                }
                let previous = frame(progress.position.frame - 1)
                durable.append(await timeline.marks.contains(.saveFinished(previous, succeeded: true)))
            }
            return durable
        }
        let task = Task { await runner.run() }
        await timeline.wait(for: .setFinished(call: 2, succeeded: true, cancelled: false))
        await timeline.open(.save(frame(1)))
        await timeline.wait(for: .saveFinished(frame(2), succeeded: true))
        await timeline.open(.set(call: 3))
        #expect(await task.value.isComplete)
        #expect(await observer.value == [true, true])
    }

    @Test func aFailedSaveStopsAtItsFrameOnceTheSetInFlightHasCompleted() async {
        let timeline = Timeline(closed: [.save(frame(2)), .set(call: 3)])
        let camera = TimelineCamera(inner: InMemoryCamera(), timeline: timeline)
        let recorder = TimelineRecorder(timeline: timeline, failingSaves: [frame(2)])
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 4), recorder: recorder)
        let events = Task { await collect(runner.events) }
        let task = Task { await runner.run() }

        // Frame 3's set and frame 2's save are both in flight; the save fails first.
        await timeline.wait(for: .setStarted(call: 3))
        await timeline.wait(for: .saveStarted(frame(2)))
        await timeline.open(.save(frame(2)))
        await timeline.wait(for: .saveFinished(frame(2), succeeded: false))
        await timeline.open(.set(call: 3))

        let result = await task.value
        guard case .recordingFailed(let error) = result.stopReason else {
            Issue.record("expected recordingFailed, got \(String(describing: result.stopReason))")
            return
        }
        #expect(error is TimelineRecorder.DiskFull)
        // The journal still says frame 2 is in flight, so resume reshoots it.
        #expect(result.resumePosition == frame(2) && result.completed == 1 && result.capturedThisRun == 1)
        // The set ran to its end, not cancelled (that would close a real camera's session), before the run ended.
        #expect(await timeline.logged(.setFinished(call: 3, succeeded: true, cancelled: false), before: .finished))
        #expect(await timeline.count(of: .willFire(frame(3))) == 0)
        #expect(await camera.inner.shotSettings.count == 2)
        let log = await events.value
        #expect(log.contains { $0.isPhase(.saved, set: 1, frame: 1) })
        #expect(!log.contains { $0.isPhase(.saved, set: 1, frame: 2) })
        #expect(!log.contains { $0.isPhase(.settingSpeed, set: 1, frame: 3) })
    }

    @Test func theLastFrameIsRecordedBeforeTheRunFinishes() async {
        let timeline = Timeline()
        let camera = TimelineCamera(inner: InMemoryCamera(), timeline: timeline)
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 2), recorder: TimelineRecorder(timeline: timeline))
        let (result, events) = await runCollecting(runner)
        #expect(result.isComplete && result.completed == 2)
        #expect(await timeline.logged(.saveFinished(frame(2), succeeded: true), before: .finished))
        #expect(
            events.count >= 2 && events[events.count - 2].isPhase(.saved, set: 1, frame: 2)
                && events.last?.isFinished == true)
    }

    @Test func aFailedSaveOfTheLastFrameStopsAtIt() async {
        let timeline = Timeline()
        let camera = TimelineCamera(inner: InMemoryCamera(), timeline: timeline)
        let recorder = TimelineRecorder(timeline: timeline, failingSaves: [frame(2)])
        let (result, events) = await runCollecting(
            makeRunner(camera, plan: plan(sets: 1, frames: 2), recorder: recorder))
        #expect(result.recordingFailed)
        #expect(result.resumePosition == frame(2) && result.completed == 1 && result.capturedThisRun == 1)
        #expect(!events.contains { $0.isPhase(.saved, set: 1, frame: 2) })
    }

    @Test func aPauseDuringAFrameRecordsItBeforeParking() async {
        var script = InMemoryCamera.Script()
        script.heldShots = [2]
        let timeline = Timeline()
        let camera = TimelineCamera(inner: InMemoryCamera(script: script), timeline: timeline)
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 4), recorder: TimelineRecorder(timeline: timeline))
        let task = Task { await runner.run() }
        var parkedAt: ShootPosition?
        var marksWhileParked: [Timeline.Mark] = []
        for await event in runner.events {
            if event.isPhase(.capturing, set: 1, frame: 2) {
                await runner.pause(reason: PauseReason(.user))
                camera.inner.releaseCapture()
            }
            if event.isPhase(.saved, set: 1, frame: 2) {
                parkedAt = await waitUntilParked(runner)
                marksWhileParked = await timeline.marks
                await runner.resume(reason: PauseReason(.user))
            }
        }
        #expect(await task.value.isComplete)
        #expect(parkedAt == frame(3))
        #expect(marksWhileParked.contains(.saveFinished(frame(2), succeeded: true)))
        #expect(!marksWhileParked.contains(.setStarted(call: 3))) // the camera is left alone while paused
        #expect(await camera.inner.speedsSet.count == 4)
    }

    @Test func aPauseWhileTheRecordIsWrittenParksBeforeTheNextFrameFires() async {
        let timeline = Timeline(closed: [.save(frame(1))])
        let camera = TimelineCamera(inner: InMemoryCamera(), timeline: timeline)
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3), recorder: TimelineRecorder(timeline: timeline))
        let task = Task { await runner.run() }
        await timeline.wait(for: .setFinished(call: 2, succeeded: true, cancelled: false))
        await runner.pause(reason: PauseReason(.user))
        await timeline.open(.save(frame(1)))
        var log: [ShootEvent] = []
        var parkedAt: ShootPosition?
        var firedWhileParked = true
        for await event in runner.events {
            log.append(event)
            if event.isPhase(.saved, set: 1, frame: 1) {
                parkedAt = await waitUntilParked(runner)
                firedWhileParked = await timeline.marks.contains(.willFire(frame(2)))
                await runner.resume(reason: PauseReason(.user))
            }
        }
        #expect(await task.value.isComplete)
        #expect(parkedAt == frame(2) && !firedWhileParked)
        // Frame 2 is reported once, after the hold is released, and its speed is set again then.
        let resumed = log.firstIndex { if case .resumed = $0 { true } else { false } }
        let settingSpeed = log.indices.filter { log[$0].isPhase(.settingSpeed, set: 1, frame: 2) }
        #expect(settingSpeed.count == 1 && resumed.map { $0 < settingSpeed[0] } == true)
        #expect(await camera.inner.speedsSet.count == 4)
    }

    @Test func aStopDuringAFrameRecordsItThenEnds() async {
        var script = InMemoryCamera.Script()
        script.heldShots = [2]
        let timeline = Timeline()
        let camera = TimelineCamera(inner: InMemoryCamera(script: script), timeline: timeline)
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 4), recorder: TimelineRecorder(timeline: timeline))
        let task = Task { await runner.run() }
        for await event in runner.events where event.isPhase(.capturing, set: 1, frame: 2) {
            await runner.stop()
            camera.inner.releaseCapture()
        }
        let result = await task.value
        #expect(result.stopWasRequested && result.completed == 2 && result.resumePosition == frame(3))
        #expect(await timeline.logged(.saveFinished(frame(2), succeeded: true), before: .finished))
        #expect(await timeline.count(of: .setStarted(call: 3)) == 0)
    }

    @Test func aStopWhileTheRecordIsWrittenEndsBeforeTheNextFrameFires() async {
        let timeline = Timeline(closed: [.save(frame(1))])
        let camera = TimelineCamera(inner: InMemoryCamera(), timeline: timeline)
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3), recorder: TimelineRecorder(timeline: timeline))
        let task = Task { await runner.run() }
        await timeline.wait(for: .setStarted(call: 2))
        await runner.stop()
        await timeline.open(.save(frame(1)))
        let result = await task.value
        #expect(result.stopWasRequested && result.completed == 1 && result.resumePosition == frame(2))
        #expect(await timeline.logged(.saveFinished(frame(1), succeeded: true), before: .finished))
        #expect(await timeline.logged(.setFinished(call: 2, succeeded: true, cancelled: false), before: .finished))
        #expect(await timeline.count(of: .willFire(frame(2))) == 0)
    }

    @Test(arguments: [true, false])
    func cancellingDuringTheNextSetStillRecordsTheFrame(whileTheSaveIsHeld: Bool) async {
        let closed: Set<Timeline.Gate> = whileTheSaveIsHeld ? [.save(frame(1)), .set(call: 2)] : [.set(call: 2)]
        let timeline = Timeline(closed: closed)
        let camera = TimelineCamera(inner: InMemoryCamera(), timeline: timeline)
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3), recorder: TimelineRecorder(timeline: timeline))
        let events = Task { await collect(runner.events) }
        let task = Task { await runner.run() }
        await timeline.wait(for: .setStarted(call: 2))
        await timeline.wait(for: whileTheSaveIsHeld ? .saveStarted(frame(1)) : .saveFinished(frame(1), succeeded: true))
        task.cancel()
        await timeline.open(.save(frame(1)))
        await timeline.open(.set(call: 2))
        let result = await task.value
        #expect(result.wasCancelled)
        #expect(result.completed == 1 && result.capturedThisRun == 1 && result.resumePosition == frame(2))
        #expect(await timeline.logged(.saveFinished(frame(1), succeeded: true), before: .finished))
        #expect(await timeline.count(of: .willFire(frame(2))) == 0)
        #expect(await events.value.contains { $0.isPhase(.saved, set: 1, frame: 1) })
    }

    @Test func aBusyAnswerToTheOverlappedSetIsRetriedAfterTheRecord() async {
        let timeline = Timeline()
        var camera = TimelineCamera(inner: InMemoryCamera(), timeline: timeline)
        camera.busySetCalls = [2]
        let clock = TestClock()
        let runner = makeRunner(
            camera, plan: plan(sets: 1, frames: 2), clock: clock, recorder: TimelineRecorder(timeline: timeline))
        let events = Task { await collect(runner.events) }
        let task = Task { await runner.run() }
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .milliseconds(500))])
        clock.advance(by: .milliseconds(500))
        #expect(await task.value.isComplete)
        let log = await events.value
        let saved1 = log.firstIndex { $0.isPhase(.saved, set: 1, frame: 1) }
        let setting2 = log.firstIndex { $0.isPhase(.settingSpeed, set: 1, frame: 2) }
        let retry = log.firstIndex { if case .retrying(frame(2), .settingSpeed, 2, _, _) = $0 { true } else { false } }
        let capturing2 = log.firstIndex { $0.isPhase(.capturing, set: 1, frame: 2) }
        // The retry (and its event) waits for the record, so events keep their order.
        #expect(saved1 != nil && setting2 != nil && retry != nil && capturing2 != nil)
        if let saved1, let setting2, let retry, let capturing2 {
            #expect(saved1 < setting2 && setting2 < retry && retry < capturing2)
        }
        #expect(await camera.inner.speedsSet.count == 2)
        #expect(await timeline.count(of: .setStarted(call: 3)) == 1)
    }

    @Test func aConnectionLostAtTheOverlappedSetReconnectsWithTheFrameRecorded() async {
        let timeline = Timeline()
        var camera = TimelineCamera(inner: InMemoryCamera(), timeline: timeline)
        camera.dropAtSetCalls = [2]
        let clock = TestClock()
        let runner = makeRunner(
            camera, plan: plan(sets: 1, frames: 3), clock: clock, recorder: TimelineRecorder(timeline: timeline))
        let events = Task { await collect(runner.events) }
        let task = Task { await runner.run() }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        let result = await task.value
        #expect(result.isComplete && result.completed == 3 && result.capturedThisRun == 3)
        let log = await events.value
        let saved1 = log.firstIndex { $0.isPhase(.saved, set: 1, frame: 1) }
        let reconnecting = log.firstIndex { if case .reconnecting = $0 { true } else { false } }
        if let saved1, let reconnecting { #expect(saved1 < reconnecting) } else { Issue.record("missing events") }
        #expect(await timeline.count(of: .saveStarted(frame(1))) == 1)
        #expect(await camera.inner.connectCount == 1)
    }
}
