import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

/// Cancel, stop, pause and resume, preflight checks and the recorder contract.
@Suite(.timeLimit(.minutes(1))) struct BracketRunnerControlTests {
    @Test func cancelStopsShooting() async {
        var script = InMemoryCamera.Script()
        script.heldShots = [2]
        let camera = InMemoryCamera(script: script)
        let recorder = RecordingRecorder()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 4), recorder: recorder)
        let task = Task { await runner.run() }
        for await event in runner.events where event.isPhase(.capturing, set: 1, frame: 2) {
            task.cancel()
        }
        let result = await task.value
        #expect(result.wasCancelled)
        // Frame 1 fired and waits in the camera (a cancelled run downloads nothing): resume starts there.
        #expect(result.saved == 0 && result.resumePosition == .start)
        #expect(await camera.shotSettings.count == 1)
        // The abandoned frame is known to the journal as possibly fired, so resume reshoots it.
        let entries = await recorder.entries
        #expect(entries.contains(.fired(.start)))
        #expect(entries.contains(.failed(ShootPosition(set: 1, frame: 2), mayHaveFired: true)))
        #expect(entries.last == .finished(complete: false))
    }

    @Test func stopFinishesTheFrameInFlight() async {
        var script = InMemoryCamera.Script()
        script.heldShots = [2]
        let camera = InMemoryCamera(script: script)
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 4))
        let task = Task { await runner.run() }
        for await event in runner.events where event.isPhase(.capturing, set: 1, frame: 2) {
            await runner.stop()
            camera.releaseCapture()
        }
        let result = await task.value
        guard case .stopRequested = result.stopReason else {
            Issue.record("expected a requested stop, got \(String(describing: result.stopReason))")
            return
        }
        // No frame fired after the stop; the two fired were downloaded before the run ended.
        #expect(result.saved == 2 && result.resumePosition == ShootPosition(set: 1, frame: 3))
        #expect(await camera.shotSettings.count == 2)
        #expect(await camera.downloaded == 2)
    }

    @Test func aSecondStopDuringTheDownloadsLeavesTheRestInTheCamera() async {
        var script = InMemoryCamera.Script()
        script.heldShots = [3]
        script.heldDownloads = [2]
        let camera = InMemoryCamera(script: script)
        let recorder = RecordingRecorder()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 5), recorder: recorder)
        let task = Task { await runner.run() }
        for await event in runner.events {
            if event.isPhase(.capturing, set: 1, frame: 3) {
                await runner.stop()
                camera.releaseCapture()
            }
            if event.isPhase(.downloading, set: 1, frame: 2) {
                await runner.stop()
                camera.releaseCapture()
            }
        }
        let result = await task.value
        #expect(result.stopWasRequested)
        // Frames 1 and 2 came before the second stop took effect; frame 3 stays in the camera, 4 and 5 never fired.
        #expect(result.saved == 2 && result.resumePosition == ShootPosition(set: 1, frame: 3))
        #expect(await camera.shotSettings.count == 3)
        #expect(await camera.buffer.count == 1)
        let entries = await recorder.entries
        #expect(entries.contains(.fired(ShootPosition(set: 1, frame: 3))))
        #expect(!entries.contains(.saved(ShootPosition(set: 1, frame: 3))))
    }

    @Test func pauseAndResumeCompleteAllFrames() async {
        var script = InMemoryCamera.Script()
        script.heldShots = [2]
        let camera = InMemoryCamera(script: script)
        let recorder = RecordingRecorder()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 4), recorder: recorder)
        let task = Task { await runner.run() }
        var events: [ShootEvent] = []
        var shotsWhilePaused: Int?
        for await event in runner.events {
            events.append(event)
            if event.isPhase(.capturing, set: 1, frame: 2) {
                await runner.pause(reason: PauseReason(.user))
                camera.releaseCapture()
            }
            if event.isPhase(.saved, set: 1, frame: 2) {
                // Held: frame 3 cannot start until the hold is released.
                shotsWhilePaused = await camera.shotSettings.count
                await runner.resume(reason: PauseReason(.user))
            }
        }
        let result = await task.value
        #expect(result.isComplete && result.saved == 4)
        #expect(shotsWhilePaused == 2)
        let pausedIndex = events.firstIndex { if case .paused(let reason) = $0 { reason.kind == .user } else { false } }
        let resumedIndex = events.firstIndex {
            if case .resumed(let reason) = $0 { reason.kind == .user } else { false }
        }
        let frame3Index = events.firstIndex { $0.isPhase(.settingSpeed, set: 1, frame: 3) }
        #expect(pausedIndex != nil && resumedIndex != nil && frame3Index != nil)
        if let resumedIndex, let frame3Index { #expect(resumedIndex < frame3Index) }
        let entries = await recorder.entries
        #expect(entries.contains(.paused(.user)) && entries.contains(.resumed(.user)))
    }

    @Test func shootingContinuesOnlyWhenEveryHoldIsReleased() async {
        var script = InMemoryCamera.Script()
        script.heldShots = [1]
        let camera = InMemoryCamera(script: script)
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 2))
        let task = Task { await runner.run() }
        var shotsAfterFirstRelease: Int?
        for await event in runner.events {
            if event.isPhase(.capturing, set: 1, frame: 1) {
                await runner.pause(reason: PauseReason(.user))
                await runner.pause(reason: PauseReason(.network, detail: "DIRECT-ab"))
                camera.releaseCapture()
            }
            // Parked with the network down: nothing is downloaded or fired until the network hold goes.
            if event.isPhase(.inCamera, set: 1, frame: 1) {
                await runner.resume(reason: PauseReason(.network))
                shotsAfterFirstRelease = await camera.shotSettings.count
                #expect(await runner.activeHolds == [PauseReason(.user)])
                await runner.resume(reason: PauseReason(.user))
            }
        }
        #expect(await task.value.isComplete)
        #expect(shotsAfterFirstRelease == 1)
    }

    @Test func recorderSeesEveryFrameBeforeItFiresAndAfterItIsSaved() async {
        let recorder = RecordingRecorder()
        let (result, _) = await runCollecting(
            makeRunner(InMemoryCamera(), plan: plan(sets: 1, frames: 2), recorder: recorder))
        #expect(result.isComplete)
        let first = ShootPosition(set: 1, frame: 1), second = ShootPosition(set: 1, frame: 2)
        #expect(
            await recorder.entries == [
                .started(first), .willFire(first), .fired(first), .willFire(second), .fired(second), .saved(first),
                .saved(second), .finished(complete: true)
            ])
    }

    @Test func recorderFailureStopsBeforeTheFrameFires() async {
        let camera = InMemoryCamera()
        let recorder = RecordingRecorder(failWillFireAt: ShootPosition(set: 1, frame: 2))
        let (result, _) = await runCollecting(makeRunner(camera, plan: plan(sets: 1, frames: 3), recorder: recorder))
        guard case .recordingFailed = result.stopReason else {
            Issue.record("expected recordingFailed, got \(String(describing: result.stopReason))")
            return
        }
        // Frame 1 fired and waits in the camera (the journal says so): resume fetches it first.
        #expect(result.saved == 0 && result.resumePosition == .start)
        #expect(await camera.shotSettings.count == 1)
    }

    @Test func cameraInAperturePriorityStopsBeforeTheFirstFrame() async {
        var script = InMemoryCamera.Script()
        script.mode = .aperturePriority
        let camera = InMemoryCamera(script: script)
        let (result, _) = await runCollecting(makeRunner(camera, plan: plan(sets: 1, frames: 2)))
        #expect(result.failure as? ShootingError == .unsupportedMode(.aperturePriority))
        #expect(result.resumePosition == .start)
        #expect(await camera.shotSettings.isEmpty)
    }

    @Test func speedTheCameraLacksStopsBeforeTheFirstFrame() async {
        let camera = InMemoryCamera()
        let (result, _) = await runCollecting(makeRunner(camera, plan: BracketPlan(sets: [[speed(250), speed(6400)]])))
        #expect(result.failure as? ShootingError == .speedUnavailable(speed(6400)))
        #expect(await camera.shotSettings.isEmpty)
    }

    @Test func exposureLongerThanThirtySecondsUsesBulb() async {
        let camera = InMemoryCamera()
        let long = ShutterSpeed(numerator: 60, denominator: 1)
        let (result, _) = await runCollecting(makeRunner(camera, plan: BracketPlan(sets: [[speed(4), long]])))
        #expect(result.isComplete)
        #expect(await camera.shotSettings == [.timed(speed(4)), .bulb])
        let exposures = await camera.calls.compactMap { call -> ShutterSpeed? in
            if case .release(let exposure, _) = call { return exposure }
            return nil
        }
        #expect(exposures == [speed(4), long])
    }

    @Test func disconnectedCameraIsConnectedBeforeTheFirstFrame() async {
        let camera = InMemoryCamera(connected: false)
        let (result, _) = await runCollecting(makeRunner(camera, plan: plan(sets: 1, frames: 1)))
        #expect(result.isComplete)
        #expect(await camera.calls.first == .connect)
    }
}

@Suite struct CameraShutterSpeedTests {
    @Test(arguments: [
        (
            ShutterSpeed(numerator: 1, denominator: 250),
            CameraShutterSpeed?.some(.timed(ShutterSpeed(numerator: 1, denominator: 250)))
        ),
        (ShutterSpeed(numerator: 2, denominator: 500), .some(.timed(ShutterSpeed(numerator: 1, denominator: 250)))),
        (ShutterSpeed(numerator: 1, denominator: 6400), nil),
        (ShutterSpeed(numerator: 45, denominator: 1), .some(.bulb))
    ])
    func resolvesPlannedSpeedsByValue(planned: ShutterSpeed, expected: CameraShutterSpeed?) {
        #expect(CameraShutterSpeed.resolve(planned, in: InMemoryCamera.thirdStopSpeeds) == expected)
    }

    @Test func withoutBulbALongExposureCannotBeShot() {
        let timedOnly = InMemoryCamera.thirdStopSpeeds.filter { $0 != .bulb }
        #expect(CameraShutterSpeed.resolve(ShutterSpeed(numerator: 45, denominator: 1), in: timedOnly) == nil)
    }
}

/// Ending a run while it is parked.
@Suite(.timeLimit(.minutes(1))) struct BracketRunnerParkedTests {
    @Test func stopWhilePausedEndsAtOnce() async {
        let camera = InMemoryCamera()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3))
        await runner.pause(reason: PauseReason(.user)) // before the first frame: the run parks at once
        let task = Task { await runner.run() }
        for await event in runner.events {
            if case .started = event { await runner.stop() }
        }
        let result = await task.value
        guard case .stopRequested = result.stopReason else {
            Issue.record("expected stopRequested, got \(String(describing: result.stopReason))")
            return
        }
        #expect(result.resumePosition == .start)
        #expect(await camera.shotSettings.isEmpty)
    }

    @Test func cancelWhilePausedEndsAtOnce() async {
        let camera = InMemoryCamera()
        let runner = makeRunner(camera, plan: plan(sets: 1, frames: 3))
        await runner.pause(reason: PauseReason(.network))
        let task = Task { await runner.run() }
        for await event in runner.events {
            if case .started = event { task.cancel() }
        }
        #expect(await task.value.wasCancelled)
        #expect(await camera.shotSettings.isEmpty)
    }
}
