import Exposure

extension ExposureError: CLIReportable {
    /// Exposure errors are all about what the user typed.
    package var exitCode: ExitCode { isTransient ? .transientFailure : .usage }

    /// One line naming the bad value and what would be valid.
    package var cliMessage: String {
        switch self {
        case .notASpeed(let text):
            return "'\(text)' is not a shutter speed; write it like 1/250, 0.5 or 2"
        case .nonPositiveSpeed(let text):
            return "'\(text)' is not a shutter speed: it must be longer than 0 (the fastest is 1/8000)"
        case .speedOffScale(let text, let scale, let nearest):
            if nearest == scale.longest {
                let guess = scale.reciprocalSuggestion(for: text).map { "; did you mean \($0.label)?" } ?? ""
                return "'\(text)' is longer than \(nearest.label), the longest timed speed (bulb is not supported)\(guess)"
            }
            if nearest == scale.fastest {
                return "'\(text)' is faster than \(nearest.label), the fastest speed"
            }
            return "'\(text)' is not near a \(scale.displayName) speed; the nearest is \(nearest.label)"
        case .speedNotOnScale(let speed, let scale):
            return "\(speed.label) is not a speed of the \(scale.displayName) scale"
        case .shadowFasterThanHighlight(let shadow, let highlight):
            return "the shadow reading \(shadow.label) is faster than the highlight reading \(highlight.label); "
                + "the shadow needs the longer exposure (swap --shadow and --highlight?)"
        case .frameCountOutOfRange(let frames, let allowed):
            return "\(frames) frames per set is not possible; use \(allowed.lowerBound) to \(allowed.upperBound)"
        case .invalidSpacing(let text, let allowed):
            return "'\(text)' is not a bracket spacing; use one of "
                + allowed.map(\.label).joined(separator: ", ") + " (EV)"
        case .noOfferedSpeeds:
            return "the camera offers no shutter speeds"
        }
    }
}
