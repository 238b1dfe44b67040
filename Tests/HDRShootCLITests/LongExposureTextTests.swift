import Exposure
import Shooting
import Testing

@testable import HDRShootCLI

/// The confirmation's lines about long frames: the bulb blocker and the Long Exposure NR estimate.
@Suite struct LongExposureTextTests {
    static let fourMinutePlan = BracketPlan(sets: [
        [ShutterSpeed(numerator: 1, denominator: 4), ShutterSpeed(numerator: 15, denominator: 1)],
        [
            ShutterSpeed(numerator: 40, denominator: 1), ShutterSpeed(numerator: 60, denominator: 1),
            ShutterSpeed(numerator: 40, denominator: 1)
        ]
    ])

    /// A body in S mode offers timed speeds only; in M it offers BULB too.
    static let sMode: [CameraShutterSpeed] = ShutterScale.third.speeds.map(CameraShutterSpeed.timed)

    @Test func bulbFramesWithoutBulbOfferedNameEachOnceAndAskForModeM() {
        #expect(
            LongExposureText.bulbBlocker(Self.fourMinutePlan, settings: Self.sMode)
                == "the plan has bulb frames (40\", 1'); turn the mode dial to M")
        #expect(LongExposureText.bulbBlocker(Self.fourMinutePlan, settings: Self.sMode + [.bulb]) == nil)
        let timed = BracketPlan(sets: [[ShutterSpeed(numerator: 30, denominator: 1)]])
        #expect(LongExposureText.bulbBlocker(timed, settings: Self.sMode) == nil)
    }

    @Test func noiseReductionNotKnownIsAssumedOnAndSaysSo() {
        // Exposures 0.25 + 15 + 40 + 60 + 40 = 155.25 s, 5 × 0.25 s overhead: ~2 min 37 s; NR adds 155 s.
        let line = LongExposureText.noiseReductionLine(Self.fourMinutePlan, overhead: 0.25, longExposureNR: nil)
        #expect(
            line == "Long Exposure NR may double each long frame: ~5 min 12 s instead of ~2 min 37 s (assumed on "
                + "for frames of 1 s or longer; turning it off in the camera saves the time)")
    }

    @Test func noiseReductionKnownOnSaysItIsOnAndKnownOffSaysNothing() {
        let on = LongExposureText.noiseReductionLine(Self.fourMinutePlan, overhead: 0.25, longExposureNR: true)
        #expect(
            on?.hasPrefix("Long Exposure NR is on: each frame of 1 s or longer is followed by a dark frame") == true)
        #expect(on?.hasSuffix("~5 min 12 s instead of ~2 min 37 s") == true)
        #expect(LongExposureText.noiseReductionLine(Self.fourMinutePlan, overhead: 0.25, longExposureNR: false) == nil)
    }

    @Test func framesUnderOneSecondNeedNoNoiseReductionLine() {
        let fast = BracketPlan(sets: [
            [ShutterSpeed(numerator: 1, denominator: 250), ShutterSpeed(numerator: 8, denominator: 10)]
        ])
        #expect(LongExposureText.noiseReductionLine(fast, overhead: 0.25, longExposureNR: nil) == nil)
    }

    @Test func theEstimateCountsDarkFramesOnlyFromOneSecond() {
        let plan = BracketPlan(sets: [
            [
                ShutterSpeed(numerator: 8, denominator: 10), ShutterSpeed(numerator: 1, denominator: 1),
                ShutterSpeed(numerator: 2, denominator: 1)
            ]
        ])
        #expect(plan.noiseReductionSeconds(longExposureNR: nil) == 3)
        #expect(plan.noiseReductionSeconds(longExposureNR: true) == 3)
        #expect(plan.noiseReductionSeconds(longExposureNR: false) == 0)
        #expect(plan.estimatedSeconds(overheadPerFrame: 0, longExposureNR: nil) == 6.8)
        #expect(
            plan.estimatedSeconds(overheadPerFrame: 0, longExposureNR: false)
                == plan.estimatedSeconds(overheadPerFrame: 0))
        #expect(Self.fourMinutePlan.bulbExposures.map(\.label) == ["40\"", "1'"])
    }
}

/// The series confirmation's battery and card lines.
struct SeriesMediaLinesTests {
    @Test func whatTheBodyReportsIsCheckedAgainstTheSeries() {
        let full = SeriesPlans.mediaLines(MediaStatus(batteryPercent: 15, remainingShots: 40), exposures: 60)
        #expect(
            full == [
                "Battery and card: battery 15 %, card: 40 shots left (60 exposures).",
                "warning: the battery is at 15 %; a long series may need a fresh one",
                "warning: the card has room for 40 of the series' 60 exposures; the series pauses when it is full and goes on once there is room"
            ])
        #expect(
            SeriesPlans.mediaLines(MediaStatus(batteryPercent: 90, remainingShots: 500), exposures: 60)
                == ["Battery and card: battery 90 %, card: 500 shots left (60 exposures)."])
        #expect(
            SeriesPlans.mediaLines(MediaStatus(), exposures: nil)
                == [
                    "Battery and card: not reported by the camera over this connection; check both cover the series before you leave the camera."
                ])
    }
}
