/// A planned speed the camera does not offer, and the speed shot instead.
///
/// The one substitution type: the matched plan lists them, the confirmation and `resume` print them, and the
/// shoot journal records them (its keys, `planned` and `used`, are those of journals written by older versions).
package struct SpeedSubstitution: Sendable, Hashable, Codable {
    /// The speed the plan asked for.
    package var planned: ShutterSpeed
    /// The nearest speed the camera offers.
    package var used: ShutterSpeed

    /// Creates a substitution record.
    package init(planned: ShutterSpeed, used: ShutterSpeed) {
        self.planned = planned
        self.used = used
    }
}

/// A plan resolved against the speeds one camera offers.
package struct MatchedPlan: Sendable, Hashable, Codable {
    /// The speeds to set, per set and frame, all offered by the camera (bulb frames as planned); no set holds
    /// the same speed twice.
    package let sets: [[ShutterSpeed]]
    /// What each frame of `sets` was planned at (the same shape as `sets`).
    package let plannedSets: [[ShutterSpeed]]
    /// Problems worth confirming before shooting: readings clamped to the camera, frames shot once because
    /// two became one speed, and (from `plan(_:shadow:highlight:offered:offersBulb:)`) the planner's own.
    package let warnings: [String]

    /// A matched plan: `sets` to shoot, `plannedSets` what each frame was planned at.
    package init(sets: [[ShutterSpeed]], plannedSets: [[ShutterSpeed]], warnings: [String]) {
        precondition(sets.map(\.count) == plannedSets.map(\.count), "one planned speed per matched frame")
        self.sets = sets
        self.plannedSets = plannedSets
        self.warnings = warnings
    }

    /// The substitution of frame `frame` of set `set` (both from 0, into `sets`), or nil when it is shot as planned.
    package func substitution(set: Int, frame: Int) -> SpeedSubstitution? {
        let planned = plannedSets[set][frame]
        let used = sets[set][frame]
        return planned == used ? nil : SpeedSubstitution(planned: planned, used: used)
    }

    /// Every planned speed replaced by another, once each, in plan order.
    package var substitutions: [SpeedSubstitution] {
        var found: [SpeedSubstitution] = []
        for (set, frames) in sets.enumerated() {
            for frame in frames.indices {
                if let substitution = substitution(set: set, frame: frame), !found.contains(substitution) {
                    found.append(substitution)
                }
            }
        }
        return found
    }
}

/// Maps each planned frame to a speed a camera offers.
package enum SpeedMatcher {
    /// Resolves `plan` against `offered` (the camera's timed speeds) with `OfferedSpeeds.choice(for:substituting:)`:
    /// the same speed when offered, else the offered speed nearest in nominal stops. A bulb frame (past 30", or
    /// past every offered speed when the camera offers BULB) stays as planned: it is shot in BULB, or the caller
    /// reports that BULB is missing.
    ///
    /// Two frames of a set that become one speed are shot once, with a warning; with `dedupe`, a set's first
    /// frame that becomes the previous set's last speed is dropped the same way.
    package static func match(
        _ plan: BracketPlan, offered: [ShutterSpeed], offersBulb: Bool = false, dedupe: Bool = false
    ) throws(ExposureError) -> MatchedPlan {
        let offers = OfferedSpeeds(offered, offersBulb: offersBulb)
        guard !offers.isEmpty else { throw .noOfferedSpeeds }
        var sets: [[ShutterSpeed]] = []
        var plannedSets: [[ShutterSpeed]] = []
        var warnings: [String] = []

        for (setIndex, set) in plan.sets.enumerated() {
            var matched: [(planned: ShutterSpeed, used: ShutterSpeed)] = []
            for planned in set {
                let used: ShutterSpeed =
                    switch offers.choice(for: planned, substituting: true) {
                    case let .offered(speed)?: speed
                    // Shot in BULB, or a bulb frame whose missing BULB the caller reports.
                    case .bulb?, nil: planned
                    }
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
            sets.append(matched.map(\.used))
            plannedSets.append(matched.map(\.planned))
        }
        return MatchedPlan(sets: sets, plannedSets: plannedSets, warnings: warnings)
    }
}
