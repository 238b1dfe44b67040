/// One frame whose planned speed the camera does not offer, and the speed used instead.
package struct SpeedSubstitution: Sendable, Hashable, Codable {
    /// The set's position in the plan, from 0.
    package let setIndex: Int
    /// The frame's position in its set, from 0.
    package let frameIndex: Int
    /// The speed the plan asked for.
    package let planned: ShutterSpeed
    /// The nearest speed the camera offers.
    package let used: ShutterSpeed

    /// Creates a substitution record.
    package init(setIndex: Int, frameIndex: Int, planned: ShutterSpeed, used: ShutterSpeed) {
        self.setIndex = setIndex
        self.frameIndex = frameIndex
        self.planned = planned
        self.used = used
    }
}

/// A plan resolved against the speeds one camera offers.
package struct MatchedPlan: Sendable, Hashable, Codable {
    /// The speeds to set, per set and frame, all offered by the camera (bulb frames as planned); no set holds
    /// the same speed twice.
    package let sets: [[ShutterSpeed]]
    /// Every frame that uses a different speed than planned, in plan order (indices into `sets`).
    package let substitutions: [SpeedSubstitution]
    /// Problems worth confirming before shooting: readings clamped to the camera, frames shot once because
    /// two became one speed, and (from `plan(_:shadow:highlight:offered:offersBulb:)`) the planner's own.
    package let warnings: [String]
}

/// Maps each planned frame to a speed a camera offers.
package enum SpeedMatcher {
    /// Resolves `plan` against `offered` (the camera's timed speeds): the same speed when offered, else the
    /// offered speed nearest in nominal stops (`nominalThirds`), a tie going to the longer exposure (better
    /// shadows than clipped ones). A bulb frame (past 30", or past every offered speed when the camera offers
    /// BULB) stays as planned: it is shot in BULB, or the caller reports that BULB is missing.
    ///
    /// Two frames of a set that become one speed are shot once, with a warning; with `dedupe`, a set's first
    /// frame that becomes the previous set's last speed is dropped the same way.
    package static func match(
        _ plan: BracketPlan, offered: [ShutterSpeed], offersBulb: Bool = false, dedupe: Bool = false
    ) throws(ExposureError) -> MatchedPlan {
        guard let longestOffered = offered.max() else { throw .noOfferedSpeeds }
        let candidates = offered.map { (speed: $0, thirds: $0.nominalThirds) }
        var sets: [[ShutterSpeed]] = []
        var substitutions: [SpeedSubstitution] = []
        var warnings: [String] = []

        for (setIndex, set) in plan.sets.enumerated() {
            var matched: [(planned: ShutterSpeed, used: ShutterSpeed)] = []
            for planned in set {
                let keepsPlanned = planned.isBulb || (offersBulb && planned > longestOffered)
                let used = keepsPlanned ? planned : nearest(to: planned, in: candidates)
                if let earlier = matched.first(where: { $0.used == used }) {
                    warnings.append(
                        "set \(setIndex + 1): \(earlier.planned.label) and \(planned.label) both become "
                            + "\(used.label) on this camera; it is shot once")
                    continue
                }
                if dedupe, matched.isEmpty, let previous = sets.last?.last, previous == used {
                    warnings.append(
                        "set \(setIndex + 1): \(planned.label) becomes \(used.label), the last frame of set "
                            + "\(sets.count) on this camera; it is shot once")
                    continue
                }
                matched.append((planned, used))
            }
            // Every frame of a set can only vanish into the previous set's last frame (with dedupe).
            guard !matched.isEmpty else { continue }
            for (frameIndex, frame) in matched.enumerated() where frame.used != frame.planned {
                substitutions.append(
                    SpeedSubstitution(setIndex: sets.count, frameIndex: frameIndex, planned: frame.planned, used: frame.used))
            }
            sets.append(matched.map(\.used))
        }
        return MatchedPlan(sets: sets, substitutions: substitutions, warnings: warnings)
    }

    /// The offered speed equal to `planned`, else the nearest in nominal thirds, longer on a tie.
    static func nearest(to planned: ShutterSpeed, in candidates: [(speed: ShutterSpeed, thirds: Int)]) -> ShutterSpeed {
        if let exact = candidates.first(where: { $0.speed == planned }) { return exact.speed }
        let target = planned.nominalThirds
        var best = candidates[0]
        var bestDistance = abs(best.thirds - target)
        for candidate in candidates.dropFirst() {
            let distance = abs(candidate.thirds - target)
            if distance < bestDistance || (distance == bestDistance && candidate.speed > best.speed) {
                best = candidate
                bestDistance = distance
            }
        }
        return best.speed
    }
}
