import Exposure

/// Which end of a bracket's range a finding is about.
package enum RangeEnd: String, Sendable, Hashable, Codable {
    /// The bright end: the shortest frame must hold the highlights.
    case highlights
    /// The dark end: the longest frame must open the shadows.
    case shadows
}

/// What the range check found at one end of a bracket.
package struct RangeFinding: Sendable, Equatable {
    /// Which end.
    package let end: RangeEnd
    /// The frame looked at: the shortest for the highlights, the longest for the shadows.
    package let speed: ShutterSpeed
    /// The fraction (0...1) of that frame clipped (highlights) or blocked (shadows).
    package let fraction: Double
    /// How much exposure the bracket lacks at this end, rounded up to steps of the scale; nil when it holds.
    package let missing: EVAmount?
    /// The frame to add (the checked speed moved by `missing`, within the scale), nil when the end holds or the
    /// scale has no stop beyond the checked speed.
    package let addition: ShutterSpeed?

    /// Whether this end of the range is covered.
    package var holds: Bool { missing == nil }
}

/// The meter readings a plan was made from, so a verdict can say which readings to rerun with.
package struct MeterReadings: Sendable, Equatable {
    /// The `--shadow` reading.
    package let shadow: ShutterSpeed
    /// The `--highlight` reading.
    package let highlight: ShutterSpeed

    /// Creates readings.
    package init(shadow: ShutterSpeed, highlight: ShutterSpeed) {
        self.shadow = shadow
        self.highlight = highlight
    }
}

/// The range check's answer for a set or a whole bracket: both ends, and one line for a person.
package struct RangeVerdict: Sendable, Equatable {
    /// The highlight end (the shortest frame).
    package let highlights: RangeFinding
    /// The shadow end (the longest frame).
    package let shadows: RangeFinding
    /// One line: what holds, or what is still clipped/blocked and the fix.
    package let line: String

    /// Whether both ends hold.
    package var holds: Bool { highlights.holds && shadows.holds }
}

/// Decides whether a bracket covered its scene: the shortest frame must not clip the highlights and the longest
/// must not block the shadows (thresholds: `RangeThresholds`, Magic Lantern's by default).
///
/// **How much is missing** (a simple estimate, which the rerun's own check confirms or extends):
/// - Highlights. The clipped area of a scene shrinks as the exposure shortens; with two frames that clip, the
///   rate is measured from them as a power law (clipped fraction ∝ exposure^k, k in fraction-doublings per EV);
///   with one, k = 2 (the area a quarter per stop, typical of lamps and sun glints). The exposure that brings
///   the clipped fraction down to the threshold is log2(clipped / threshold) / k EV shorter, with k kept to
///   1...4 so that a measurement of noise cannot claim more than log2(clipped / threshold) EV or less than a
///   quarter of it.
/// - Shadows. The level the darkest `maximumBlocked` of the longest frame sits at must reach the shadow level;
///   through a camera's tone curve (about gamma 2.2 in the shadows) that is 2.2 × log2(shadow level / that
///   level) EV longer, the level taken as at least 2 (true black says little about how dark the scene is).
/// - Either way at least one step of the scale and at most 6 EV, rounded up to steps of the scale.
package enum RangeCheck {
    /// The most EV a verdict asks for at one end: beyond it the estimate is a guess.
    package static let maximumMissing = EVAmount(stops: 6)

    /// Checks the frames of a set (or of a whole bracket); nil when there are none. The frames must have been
    /// measured with the same `thresholds` (their fractions and shadow level depend on them).
    package static func check(
        _ frames: [FrameLuminance], scale: ShutterScale = .third, thresholds: RangeThresholds = .magicLantern,
        readings: MeterReadings? = nil
    ) -> RangeVerdict? {
        let sorted = frames.sorted { $0.speed < $1.speed }
        guard let longest = sorted.last else { return nil }
        let highlights = highlightFinding(sorted, scale: scale, thresholds: thresholds)
        let shadows = shadowFinding(longest, scale: scale, thresholds: thresholds)
        return RangeVerdict(
            highlights: highlights, shadows: shadows,
            line: RangeVerdictText.line(highlights: highlights, shadows: shadows, scale: scale, readings: readings))
    }

    private static func highlightFinding(
        _ sorted: [FrameLuminance], scale: ShutterScale, thresholds: RangeThresholds
    ) -> RangeFinding {
        let shortest = sorted[0]
        let clipped = shortest.clippedFraction
        guard clipped > thresholds.maximumClipped else {
            return RangeFinding(end: .highlights, speed: shortest.speed, fraction: clipped, missing: nil, addition: nil)
        }
        // The rate from the next longer frame that clips more, when there is one.
        var rate = 2.0
        if let next = sorted.first(where: { $0.speed > shortest.speed }), next.clippedFraction > clipped {
            let stops = Math.log2(next.speed.seconds / shortest.speed.seconds)
            rate = min(4, max(1, Math.log2(next.clippedFraction / clipped) / stops))
        }
        // A threshold of 0 (no clipping at all) is measured against one sample in a million.
        let ev = Math.log2(clipped / max(thresholds.maximumClipped, 1e-6)) / rate
        return finding(.highlights, shortest, fraction: clipped, ev: ev, scale: scale)
    }

    private static func shadowFinding(
        _ longest: FrameLuminance, scale: ShutterScale, thresholds: RangeThresholds
    ) -> RangeFinding {
        let blocked = longest.blockedFraction
        guard blocked > thresholds.maximumBlocked else {
            return RangeFinding(end: .shadows, speed: longest.speed, fraction: blocked, missing: nil, addition: nil)
        }
        let level = Double(max(2, longest.shadowQuantileLevel))
        let ev = 2.2 * Math.log2(Double(thresholds.shadowLevel) / level)
        return finding(.shadows, longest, fraction: blocked, ev: ev, scale: scale)
    }

    /// A finding that lacks `ev` EV, rounded up to whole steps of `scale` (1 step ... 6 EV).
    private static func finding(
        _ end: RangeEnd, _ frame: FrameLuminance, fraction: Double, ev: Double, scale: ShutterScale
    ) -> RangeFinding {
        let steps = min(
            maximumMissing.sixths * scale.stepsPerEV / 6,
            max(1, Int((ev * Double(scale.stepsPerEV) - 1e-9).rounded(.up))))
        let missing = EVAmount(sixths: steps * 6 / scale.stepsPerEV)
        let speeds = scale.allSpeeds
        let position = nearestPosition(of: frame.speed, in: speeds)
        let target = end == .highlights ? max(0, position - steps) : min(speeds.count - 1, position + steps)
        let addition = target == position ? nil : speeds[target]
        return RangeFinding(end: end, speed: frame.speed, fraction: fraction, missing: missing, addition: addition)
    }

    /// The index of the stop nearest to `speed` (speeds off the scale are placed by their nominal third).
    static func nearestPosition(of speed: ShutterSpeed, in speeds: [ShutterSpeed]) -> Int {
        var best = 0
        var bestDistance = Int.max
        for (index, stop) in speeds.enumerated() {
            let distance = abs(stop.nominalThirds - speed.nominalThirds)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }
}
