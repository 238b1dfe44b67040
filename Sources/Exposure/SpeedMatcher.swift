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
    /// The speeds to set, per set and frame, all offered by the camera.
    package let sets: [[ShutterSpeed]]
    /// Every frame that uses a different speed than planned, in plan order.
    package let substitutions: [SpeedSubstitution]
    /// Problems worth confirming before shooting (two frames of a set becoming one speed).
    package let warnings: [String]
}

/// Maps each planned frame to a speed a camera offers.
package enum SpeedMatcher {
    /// Resolves `plan` against `offered`: the same speed when offered, else the offered speed nearest in
    /// nominal stops (`nominalThirds`), a tie going to the longer exposure (better shadows than clipped ones).
    package static func match(_ plan: BracketPlan, offered: [ShutterSpeed]) throws(ExposureError) -> MatchedPlan {
        guard !offered.isEmpty else { throw .noOfferedSpeeds }
        let candidates = offered.map { (speed: $0, thirds: $0.nominalThirds) }
        var sets: [[ShutterSpeed]] = []
        var substitutions: [SpeedSubstitution] = []
        var warnings: [String] = []

        for (setIndex, set) in plan.sets.enumerated() {
            var matched: [ShutterSpeed] = []
            for (frameIndex, planned) in set.enumerated() {
                let used = nearest(to: planned, in: candidates)
                if used != planned {
                    substitutions.append(
                        SpeedSubstitution(setIndex: setIndex, frameIndex: frameIndex, planned: planned, used: used)
                    )
                }
                matched.append(used)
            }
            for (frameIndex, used) in matched.enumerated() {
                guard let earlier = matched[..<frameIndex].firstIndex(of: used),
                      set[earlier] != set[frameIndex] else { continue }
                warnings.append(
                    "set \(setIndex + 1): \(set[earlier].label) and \(set[frameIndex].label) both become "
                        + "\(used.label) on this camera"
                )
            }
            sets.append(matched)
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
