import Exposure

extension ExposureError: CLIReportable {
    /// Exposure errors are all about what the user typed.
    package var exitCode: ExitCode { isTransient ? .transientFailure : .usage }

    /// One line naming the bad value and what would be valid.
    package var cliMessage: String {
        switch self {
        case .notASpeed(let text):
            return "'\(text)' is not a shutter speed; write it like 1/250, 0.5, 2 or 2'30\""
        case .nonPositiveSpeed(let text):
            return "'\(text)' is not a shutter speed: it must be longer than 0 (the fastest is 1/8000)"
        case .speedOffScale(let text, let scale, let nearest):
            if nearest == scale.longest {
                // Only a bare number gets here (with a unit the bulb stops follow 30"); the camera shows 1/250
                // as 250, so both readings are offered.
                let fast = Int(text).map { " or 1/\($0) for a fast speed" } ?? ""
                return "'\(text)' is longer than \(nearest.label), the longest timed speed; write \(text)\" "
                    + "for a bulb exposure of \(text) seconds\(fast)"
            }
            if nearest == scale.longestBulb {
                return "'\(text)' is longer than \(nearest.label), the longest exposure hdrshoot plans"
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
        case .shadowBeyondLongest(let shadow, let longest):
            let what = shadow.isBulb ? "to plan bulb frames that long" : "to allow it"
            return "the shadow reading \(shadow.label) is longer than --longest \(longest.label); pass --longest "
                + "\(shadow.label) \(what) (or meter at a wider aperture or higher ISO)"
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
