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

// MARK: - JSON

extension ShootBlocker {
    /// The JSON keys: `kind` names the case, `sentence` is the layer's sentence (for readers; ignored when
    /// decoding), and the case's own fields sit beside them.
    private enum CodingKeys: String, CodingKey {
        case kind, sentence, text, frames, speed, position
    }

    /// The case names, as `kind` carries them.
    private enum Kind: String, Codable {
        case camera, noShutterSpeeds, bulbFramesNeedManualMode, speedNotOffered, meteringUnavailable, unplannable
    }

    /// `{"kind":"speedNotOffered","sentence":"the camera no longer offers 1/8000","speed":"1/8000"}`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sentence, forKey: .sentence)
        switch self {
        case .camera(let text):
            try container.encode(Kind.camera, forKey: .kind)
            try container.encode(text, forKey: .text)
        case .noShutterSpeeds:
            try container.encode(Kind.noShutterSpeeds, forKey: .kind)
        case .bulbFramesNeedManualMode(let frames):
            try container.encode(Kind.bulbFramesNeedManualMode, forKey: .kind)
            try container.encode(frames, forKey: .frames)
        case let .speedNotOffered(speed, position):
            try container.encode(Kind.speedNotOffered, forKey: .kind)
            try container.encode(speed, forKey: .speed)
            try container.encodeIfPresent(position, forKey: .position)
        case .meteringUnavailable:
            try container.encode(Kind.meteringUnavailable, forKey: .kind)
        case .unplannable(let text):
            try container.encode(Kind.unplannable, forKey: .kind)
            try container.encode(text, forKey: .text)
        }
    }

    /// The blocker of a `kind` and its fields (the sentence is the layer's again, not the one read).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .camera: self = .camera(try container.decode(String.self, forKey: .text))
        case .noShutterSpeeds: self = .noShutterSpeeds
        case .bulbFramesNeedManualMode:
            self = .bulbFramesNeedManualMode(frames: try container.decode([String].self, forKey: .frames))
        case .speedNotOffered:
            self = .speedNotOffered(
                speed: try container.decode(String.self, forKey: .speed),
                position: try container.decodeIfPresent(String.self, forKey: .position))
        case .meteringUnavailable: self = .meteringUnavailable
        case .unplannable: self = .unplannable(try container.decode(String.self, forKey: .text))
        }
    }
}

extension ShootMessages {
    /// The sentence of a blocker; a front end with its own wording overrides it.
    package func sentence(for blocker: ShootBlocker) -> String { blocker.sentence }
}
