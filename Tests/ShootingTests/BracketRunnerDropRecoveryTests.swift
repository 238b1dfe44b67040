import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

/// After a connection drops at a release: what the camera holds is downloaded before anything fires again (the
/// cut-off release's image is filed to its frame when it came), and a link that drops at every release stops the
/// run instead of firing the plan (virtual time).
@Suite(.timeLimit(.minutes(1))) struct BracketRunnerDropRecoveryTests {
    /// Lets every reconnect wait (2 s each, the first attempt succeeding) pass, `count` times.
    private func passReconnects(_ count: Int, on clock: TestClock) async {
        for _ in 0..<count {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(2))
        }
    }

    @Test func anImageThatSurvivedTheDropIsFiledToItsFrameAndNotShotAgain() async {
        var script = InMemoryCamera.Script()
        script.dropConnectionAtShots = [2]
        script.imageSurvivesDropAtShots = [2]
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let recorder = RecordingRecorder()
        let shootPlan = plan(sets: 1, frames: 3)
        let runner = makeRunner(camera, plan: shootPlan, clock: clock, recorder: recorder)
        let events = Task { await collect(runner.events) }
        let task = Task { await runner.run() }
        await passReconnects(1, on: clock)
        let result = await task.value

        #expect(result.isComplete && result.saved == 3)
        // Three releases for three frames: the dropped one was not fired again.
        #expect(await camera.shotSettings == shootPlan.sets[0].map { .timed($0) })
        #expect(await camera.downloaded == 3)
        let second = ShootPosition(set: 1, frame: 2)
        #expect(await recorder.entries.filter { $0 == .willFire(second) }.count == 1)
        #expect(await recorder.entries.contains(.saved(second)))
        let log = await events.value
        let saved = log.compactMap { event -> ShootPosition? in
            if case .progress(let progress) = event, progress.phase == .saved { return progress.position }
            return nil
        }
        #expect(saved == shootPlan.positions)
    }

    @Test func theRecoveryWaitsForWhatIsLeftOfTheExposureNoiseReductionAndProcessing() async {
        var script = InMemoryCamera.Script()
        script.dropConnectionAtShots = [1]
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let fourSeconds = ShutterSpeed(numerator: 4, denominator: 1)
        let runner = makeRunner(camera, plan: BracketPlan(sets: [[fourSeconds]]), clock: clock)
        let task = Task { await runner.run() }
        await passReconnects(1, on: clock)
        let result = await task.value

        #expect(result.isComplete)
        // After the reconnect the camera is asked for the cut-off release's image first, waiting 4 s of possible
        // Long Exposure NR + 10 s of processing margin (the release was cut off before the body confirmed it).
        #expect(await camera.waits.first == .seconds(14))
        // No image came back: the frame was fired again (the dropped release left nothing).
        #expect(await camera.calls.filter { if case .release = $0 { true } else { false } }.count == 2)
        #expect(await camera.shotSettings.count == 1)
    }

    @Test func aLinkThatDropsAtEveryReleaseStopsAfterThreeReleasesResumable() async {
        var script = InMemoryCamera.Script()
        script.dropConnectionAtShots = [2, 3, 4, 5, 6]
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let runner = makeRunner(camera, plan: plan(sets: 3, frames: 5), clock: clock)
        let task = Task { await runner.run() }
        await passReconnects(3, on: clock)
        let result = await task.value

        let second = ShootPosition(set: 1, frame: 2)
        guard case .failed(let error) = result.stopReason else {
            Issue.record("expected a failure, got \(String(describing: result.stopReason))")
            return
        }
        #expect(error as? ShootingError == .releaseKeepsDropping(position: second, releases: 3))
        #expect(result.resumePosition == second && result.saved == 1)
        // Frame 1 and three releases of frame 2: never the rest of the plan.
        #expect(await camera.shotSettings.count == 1)
        #expect(await camera.calls.filter { if case .release = $0 { true } else { false } }.count == 4)
    }

    @Test func aFrameThatDroppedBeforeItsReleaseIsNotLookedFor() async {
        var script = InMemoryCamera.Script()
        script.failingSpeedSets = [2: .connectionLost]
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3), clock: clock)
        let task = Task { await runner.run() }
        await passReconnects(1, on: clock)
        let result = await task.value

        #expect(result.isComplete)
        // Frame 2 fired once: a drop before its hook ran put nothing in the download queue for it.
        #expect(await camera.calls.filter { if case .release = $0 { true } else { false } }.count == 3)
        #expect(await camera.shotSettings.count == 3)
    }

    @Test func theCamerasNotesAreReported() async {
        var script = InMemoryCamera.Script()
        script.notes = ["direct shutter setting refused; stepping"]
        let camera = InMemoryCamera(script: script)
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 2))
        let (result, events) = await runCollecting(runner)
        #expect(result.isComplete)
        let notes = events.compactMap { event -> String? in
            if case .cameraNote(let text) = event { return text }
            return nil
        }
        #expect(notes == ["direct shutter setting refused; stepping"])
    }

    @Test func everyFrameIsMadeDurableBeforeItIsRecorded() async {
        var script = InMemoryCamera.Script()
        script.dropConnectionAtShots = [2]
        script.imageSurvivesDropAtShots = [2]
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3), clock: clock)
        let task = Task { await runner.run() }
        await passReconnects(1, on: clock)
        #expect(await task.value.isComplete)
        // Two shot frames and the recovered one.
        #expect(await camera.durableCalls == 3)
    }
}
