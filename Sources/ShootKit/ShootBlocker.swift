import Exposure
import Shooting

/// One thing that stops a proposed shoot, in types; its sentence (what is wrong and what to do) comes from the
/// layer's messages (`ShootMessages.sentence(for:)`), so the terminal and the phone remote say the same thing.
package enum ShootBlocker: Sendable, Hashable, Codable {
    /// What the body itself reports as stopping a shoot (its mode dial, its save destination, a missing
    /// remote method), as its device layer words it.
    case camera(String)
    /// The body offers no timed shutter speed at all.
    case noShutterSpeeds
    /// The plan has frames past 30" (their labels) and the body offers no BULB now (S mode never does).
    case bulbFramesNeedManualMode(frames: [String])
    /// The body no longer offers a speed the shoot needs; `position` names the frame when there is one.
    case speedNotOffered(speed: String, position: String?)
    /// Metering (`meter`, `run --auto`) was asked of a body whose protocol cannot meter.
    case meteringUnavailable
    /// The plan cannot be matched to the body's speeds (the planner's sentence).
    case unplannable(String)

    /// The bulb blocker of `plan` on a body offering `settings`: its frames past 30" when BULB is not offered,
    /// else nil.
    package static func bulbFrames(of plan: BracketPlan, settings: [CameraShutterSpeed]) -> ShootBlocker? {
        let bulb = plan.bulbExposures
        guard !bulb.isEmpty, !settings.contains(.bulb) else { return nil }
        return .bulbFramesNeedManualMode(frames: bulb.map(\.label))
    }

    /// The sentence a person reads (lower case, no final stop: it follows `the camera cannot shoot now: `).
    package var sentence: String {
        switch self {
        case .camera(let sentence), .unplannable(let sentence):
            sentence
        case .noShutterSpeeds:
            "the camera offers no shutter speeds now"
        case .bulbFramesNeedManualMode(let frames):
            "the plan has bulb frames (\(frames.joined(separator: ", "))); turn the mode dial to M"
        case let .speedNotOffered(speed, position?):
            "the camera no longer offers \(speed), needed by \(position)"
        case .speedNotOffered(let speed, nil):
            "the camera no longer offers \(speed)"
        case .meteringUnavailable:
            "--auto and meter measure over PTP/IP; this body speaks the Camera Remote API, so give --shadow and "
                + "--highlight"
        }
    }
}

extension ShootMessages {
    /// The sentence of a blocker; a front end with its own wording overrides it.
    package func sentence(for blocker: ShootBlocker) -> String { blocker.sentence }
}
