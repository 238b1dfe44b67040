import Exposure
import ShootKit
import Shooting

/// What the confirmation says about long frames: bulb frames that need mode M, and Long Exposure NR time.
enum LongExposureText {
    /// `the plan has bulb frames (40", 1'); turn the mode dial to M` when the plan has frames past 30" and the
    /// camera offers no BULB now (in S mode it never does), else nil.
    static func bulbBlocker(_ plan: BracketPlan, settings: [CameraShutterSpeed]) -> String? {
        ShootBlocker.bulbFrames(of: plan, settings: settings).map(CLIMessages().sentence(for:))
    }

    /// `Long Exposure NR may double each long frame: ~6 min instead of ~3 min (...)` when the plan has frames
    /// of 1 s or more and NR is on or not known (`longExposureNR` nil: assumed on, and the line says so); nil
    /// when NR is off or adds nothing.
    static func noiseReductionLine(_ plan: BracketPlan, overhead: Double, longExposureNR: Bool?) -> String? {
        guard plan.noiseReductionSeconds(longExposureNR: longExposureNR) > 0 else { return nil }
        let without = PlanReport.duration(plan.estimatedSeconds(overheadPerFrame: overhead))
        let with = PlanReport.duration(
            plan.estimatedSeconds(overheadPerFrame: overhead, longExposureNR: longExposureNR))
        if longExposureNR == true {
            return "Long Exposure NR is on: each frame of 1 s or longer is followed by a dark frame as long: "
                + "~\(with) instead of ~\(without)"
        }
        return "Long Exposure NR may double each long frame: ~\(with) instead of ~\(without) (assumed on for "
            + "frames of 1 s or longer; turning it off in the camera saves the time)"
    }
}
