import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

/// The runner's frame loop, in virtual time: every test that waits does so on the `TestClock`.
@Suite(.timeLimit(.minutes(1))) struct BracketRunnerTests {
    @Test func singleSetShootsThreeFrames() async {
        let camera = InMemoryCamera()
        let (result, _) = await runCollecting(makeRunner(camera, plan: plan(sets: 1, frames: 3)))
        #expect(result.isComplete)
        #expect(result.saved == 3 && result.total == 3 && result.savedThisRun == 3)
        #expect(result.resumePosition == nil)
        #expect(await camera.shotSettings.count == 3)
    }

    @Test func speedsAreSetInOrder() async {
        let camera = InMemoryCamera()
        let shootPlan = BracketPlan(sets: [[speed(1000), speed(250), speed(60), speed(15)]])
        _ = await runCollecting(makeRunner(camera, plan: shootPlan))
        let expected = shootPlan.sets[0].map { CameraShutterSpeed.timed($0) }
        #expect(await camera.speedsSet == expected)
        #expect(await camera.shotSettings == expected)
    }

    @Test func multipleSetsShootAllFrames() async {
        let camera = InMemoryCamera()
        let shootPlan = plan(sets: 3, frames: 5)
        let (result, events) = await runCollecting(makeRunner(camera, plan: shootPlan))
        #expect(result.isComplete && result.saved == 15)
        #expect(await camera.shotSettings == shootPlan.sets.flatMap { $0 }.map { .timed($0) })
        let saved = events.compactMap { $0.progress }.filter { $0.phase == .saved }
        #expect(saved.map(\.position) == shootPlan.positions)
        #expect(saved.map(\.completed) == Array(1...15))
        // One folder per set: each image is fetched into its frame's.
        let folders = await camera.calls.compactMap { call -> String? in
            if case .nextImage(let destination) = call { return destination.directory.lastPathComponent }
            return nil
        }
        #expect(
            folders == Array(repeating: "set-01", count: 5) + Array(repeating: "set-02", count: 5)
                + Array(repeating: "set-03", count: 5))
    }

    @Test func progressReportsAllPhases() async {
        let (result, events) = await runCollecting(makeRunner(InMemoryCamera(), plan: plan(sets: 2, frames: 2)))
        #expect(result.isComplete)
        guard case .started(let position, 0, 4) = events.first else {
            Issue.record("first event is not .started: \(String(describing: events.first))")
            return
        }
        #expect(position == .start)
        let progress = events.compactMap { $0.progress }
        // Every frame fires first; then the downloads, each frame saved once the next one's file arrives (or the
        // buffer reads empty).
        let fired: [FramePhase] = [.settingSpeed, .capturing, .inCamera]
        let downloads: [FramePhase] = [.downloading, .downloading, .saved, .downloading, .saved, .downloading, .saved]
        #expect(
            progress.map(\.phase) == Array([[FramePhase]](repeating: fired, count: 4).joined()) + downloads + [.saved])
        let first = progress[0]
        #expect(first.setCount == 2 && first.framesInSet == 2 && first.total == 4 && first.completed == 0)
        #expect(first.speed == speed(1000) && first.setting == .timed(speed(1000)))
        #expect(progress.last?.saved?.images.count == 1 && progress.last?.completed == 4)
        #expect(events.contains { if case .allFired(waiting: 4) = $0 { true } else { false } })
        guard case .finished(let finished) = events.last else {
            Issue.record("last event is not .finished")
            return
        }
        #expect(finished.isComplete && finished.saved == 4)
    }

    @Test func setSpeedFailurePropagatesAfterTheImagesWaitingAreDownloaded() async {
        var script = InMemoryCamera.Script()
        // Set 2 fails, and so does the set tried again once the first frame's image is downloaded.
        script.failingSpeedSets = [2: .fault("dial locked"), 3: .fault("dial locked")]
        let camera = InMemoryCamera(script: script)
        let (result, _) = await runCollecting(makeRunner(camera, plan: plan(sets: 1, frames: 3)))
        #expect(result.failure as? InMemoryCamera.InMemoryCameraError == .fault("dial locked"))
        #expect(result.saved == 1 && result.resumePosition == ShootPosition(set: 1, frame: 2))
        #expect(await camera.shotSettings.count == 1)
    }

    @Test func retriesBusyTwiceThenSucceeds() async {
        var script = InMemoryCamera.Script()
        script.busySetSpeeds = 2
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 1), clock: clock)
        let task = Task { await collect(runner.events) }
        let result = Task { await runner.run() }
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .milliseconds(500))])
        clock.advance(by: .milliseconds(500))
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .milliseconds(1500))])
        clock.advance(by: .seconds(1))
        #expect(await result.value.isComplete)
        let retries = await task.value.compactMap { event -> Int? in
            if case .retrying(_, .settingSpeed, let attempt, _, _) = event { return attempt }
            return nil
        }
        #expect(retries == [2, 3])
        #expect(await camera.speedsSet.count == 3)
    }

    @Test func busyExhaustedPropagates() async {
        var script = InMemoryCamera.Script()
        script.busyCaptures = 3
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 2), clock: clock)
        let task = Task { await runner.run() }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(500))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        let result = await task.value
        #expect(result.failure as? InMemoryCamera.InMemoryCameraError == .busy)
        #expect(result.saved == 0 && result.resumePosition == .start)
        #expect(await camera.shotSettings.isEmpty)
    }

    @Test func emptyPlanCompletesAtOnce() async {
        let camera = InMemoryCamera()
        let (result, events) = await runCollecting(makeRunner(camera, plan: BracketPlan(sets: [])))
        #expect(result.isComplete && result.saved == 0 && result.total == 0)
        #expect(events.count == 1)
        #expect(await camera.calls.isEmpty)
    }

    @Test func failureAtSet2Frame3ReportsCompletedFramesAndResumePosition() async {
        var script = InMemoryCamera.Script()
        script.failingShots = [8: .fault("shutter jammed")]
        let camera = InMemoryCamera(script: script)
        let (result, _) = await runCollecting(makeRunner(camera, plan: plan(sets: 3, frames: 5)))
        #expect(!result.isComplete)
        // Frames 1...7 are saved and the 8th shot (set 2, frame 3) fails: 7 are complete, and a resume starts
        // at the frame that failed.
        #expect(result.saved == 7)
        #expect(result.resumePosition == ShootPosition(set: 2, frame: 3))
        #expect(result.failure as? InMemoryCamera.InMemoryCameraError == .fault("shutter jammed"))
    }

    @Test func resumeFromSet2Frame3FiresOnlyTheRemainingFrames() async {
        let camera = InMemoryCamera()
        let shootPlan = plan(sets: 3, frames: 5)
        let (result, events) = await runCollecting(
            makeRunner(camera, plan: shootPlan), from: ShootPosition(set: 2, frame: 3))
        #expect(result.isComplete && result.saved == 15 && result.savedThisRun == 8)
        let remaining = shootPlan.positions.filter { $0 >= ShootPosition(set: 2, frame: 3) }
        #expect(events.compactMap { $0.progress }.filter { $0.phase == .saved }.map(\.position) == remaining)
        #expect(await camera.shotSettings == remaining.map { .timed(shootPlan.speed(at: $0)!) })
    }

    @Test func restartingTheInterruptedSetShootsItFromItsFirstFrame() async {
        let camera = InMemoryCamera()
        let runner = makeRunner(camera, plan: plan(sets: 3, frames: 5))
        let (result, _) = await runCollecting(
            runner, from: ShootPosition(set: 2, frame: 3), restartingInterruptedSet: true)
        #expect(result.isComplete && result.savedThisRun == 10)
        #expect(await camera.shotSettings.count == 10)
    }

    @Test func resumePositionOutsideThePlanIsRejected() async {
        let camera = InMemoryCamera()
        let (result, _) = await runCollecting(
            makeRunner(camera, plan: plan(sets: 1, frames: 2)), from: ShootPosition(set: 2, frame: 1))
        #expect(result.failure as? ShootingError == .invalidResumePosition(ShootPosition(set: 2, frame: 1)))
        #expect(await camera.calls.isEmpty)
    }
}
