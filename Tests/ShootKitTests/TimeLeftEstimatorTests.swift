import Testing

@testable import ShootKit

/// The time-left estimate in virtual time: every event carries its own time, so a 4 s exposure or a 100 s pause
/// takes no time at all.
@Suite("Time left estimate")
struct TimeLeftEstimatorTests {
    @Test func beforeAnyFrameItIsTheExposuresPlusThePlansOverheadPerFrame() {
        var estimator = TimeLeftEstimator(exposures: [1, 2, 4], overhead: 0.5)
        estimator.start(at: 0, time: 10)
        #expect(estimator.secondsLeft(at: 10) == 8.5)
    }

    @Test func aResumedShootCountsOnlyTheFramesFromItsStart() {
        var estimator = TimeLeftEstimator(exposures: [1, 2, 4], overhead: 0.5)
        estimator.start(at: 2, time: 0)
        #expect(estimator.secondsLeft(at: 0) == 4.5)
    }

    @Test func neverGrowsWhileTheShutterIsOpenOrTheCameraIsSlowerThanExpected() {
        var estimator = TimeLeftEstimator(exposures: [4, 1], overhead: 0.5)
        estimator.start(at: 0, time: 0)
        estimator.frame(0, reached: .settingSpeed, at: 0)
        estimator.frame(0, reached: .capturing, at: 0.2)
        var previous = estimator.secondsLeft(at: 0.2)
        #expect(abs(previous - 5.8) < 1e-9)
        // 0.2 s of the 0.5 s overhead are spent. The shutter is open for 4 s; the frame is in the camera at 4.2 s,
        // and the next frame then takes 3 s before its speed change (far above the overhead measured).
        for step in 1...70 {
            let time = 0.2 + Double(step) * 0.1
            if step == 40 { estimator.frame(0, reached: .inCamera, at: time) }
            let left = estimator.secondsLeft(at: time)
            #expect(left <= previous + 1e-9, "grew at \(time): \(previous) -> \(left)")
            previous = left
        }
        // Once the first frame is in the camera (0.2 s of overhead measured) and that is spent, only the last
        // frame's exposure is left.
        #expect(abs(previous - 1.0) < 1e-9)
    }

    @Test func measuresTheOverheadPerFrameWithoutTheExposures() {
        var estimator = TimeLeftEstimator(exposures: [2, 2, 2], overhead: 5)
        estimator.start(at: 0, time: 0)
        estimator.frame(0, reached: .settingSpeed, at: 0)
        estimator.frame(0, reached: .capturing, at: 0.2)
        // The frame's cycle ends when it is in the camera; its download finishing later changes nothing.
        estimator.frame(0, reached: .inCamera, at: 2.5)
        estimator.frame(0, reached: .saved, at: 2.7)
        #expect(abs(estimator.overheadPerFrame - 0.5) < 1e-9)
        #expect(abs(estimator.secondsLeft(at: 2.7) - 4.8) < 1e-9)
        // Without downloads the next frame's cycle ends when it is saved: it measures 0.5 s too.
        estimator.frame(1, reached: .settingSpeed, at: 2.7)
        estimator.frame(1, reached: .capturing, at: 2.8)
        estimator.frame(1, reached: .saved, at: 5.0)
        #expect(abs(estimator.overheadPerFrame - 0.5) < 1e-9)
        #expect(abs(estimator.secondsLeft(at: 5.0) - 2.5) < 1e-9)
    }

    @Test func aPauseBetweenFramesStopsTheClockAndIsNotMeasured() {
        var estimator = TimeLeftEstimator(exposures: [1, 1, 1], overhead: 0.5)
        estimator.start(at: 0, time: 0)
        estimator.frame(0, reached: .capturing, at: 0.1)
        estimator.frame(0, reached: .saved, at: 1.5)
        estimator.hold(.user, at: 1.5)
        let parked = estimator.secondsLeft(at: 1.5)
        #expect(!estimator.isClockRunning)
        #expect(estimator.secondsLeft(at: 101.5) == parked)
        estimator.release(.user, at: 101.5)
        #expect(estimator.secondsLeft(at: 101.5) == parked)
        estimator.frame(1, reached: .settingSpeed, at: 101.5)
        estimator.frame(1, reached: .capturing, at: 101.6)
        estimator.frame(1, reached: .saved, at: 103.0)
        // Both frames took 0.5 s beside their 1 s exposure; the 100 s parked are in neither.
        #expect(abs(estimator.overheadPerFrame - 0.5) < 1e-9)
        #expect(abs(estimator.secondsLeft(at: 103.0) - 1.5) < 1e-9)
    }

    @Test func aHoldDuringAFrameStartsOnceTheFrameIsSaved() {
        var estimator = TimeLeftEstimator(exposures: [2, 2], overhead: 0.5)
        estimator.start(at: 0, time: 0)
        estimator.frame(0, reached: .capturing, at: 0)
        estimator.hold(.network, at: 1)
        // The exposure goes on: the clock still runs.
        #expect(estimator.isClockRunning)
        #expect(estimator.secondsLeft(at: 1.5) < estimator.secondsLeft(at: 1))
        estimator.frame(0, reached: .saved, at: 2.5)
        #expect(!estimator.isClockRunning)
        #expect(estimator.secondsLeft(at: 60) == estimator.secondsLeft(at: 2.5))
    }

    @Test func aReconnectCountsTheLostFrameAgainButNeitherItsWaitNorItsBrokenCycle() {
        var estimator = TimeLeftEstimator(exposures: [1, 4], overhead: 0.5)
        estimator.start(at: 0, time: 0)
        estimator.frame(0, reached: .capturing, at: 0)
        estimator.frame(0, reached: .saved, at: 1.5)
        estimator.frame(1, reached: .settingSpeed, at: 1.5)
        estimator.frame(1, reached: .capturing, at: 1.6)
        // The connection drops 3 s into the 4 s exposure: the frame is shot again in full.
        estimator.hold(.connection, at: 4.6)
        let reconnecting = estimator.secondsLeft(at: 4.6)
        #expect(abs(reconnecting - 4.5) < 1e-9)
        #expect(estimator.secondsLeft(at: 64.6) == reconnecting)
        estimator.release(.connection, at: 64.6)
        estimator.frame(1, reached: .settingSpeed, at: 64.6)
        estimator.frame(1, reached: .capturing, at: 64.7)
        estimator.frame(1, reached: .saved, at: 69.1)
        // Measured: frame 1's 0.5 s and the reshot frame's 0.5 s; the 60 s away and the lost attempt are in neither.
        #expect(abs(estimator.overheadPerFrame - 0.5) < 1e-9)
        #expect(estimator.secondsLeft(at: 69.1) == 0)
    }

    @Test func longExposureNoiseReductionAddsADarkFrameFromItsThreshold() {
        let estimator = TimeLeftEstimator(exposures: [0.5, 1, 4], overhead: 0, noiseReduction: .darkFrame(threshold: 1))
        #expect(estimator.secondsLeft(at: 0) == 10.5)
        #expect(TimeLeftEstimator.NoiseReduction.none.extraSeconds(afterExposure: 30) == 0)
    }
}
