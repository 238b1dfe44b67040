/// The order frames are shot in.
package enum BracketOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// Shortest exposure first, the reference order: sets run from the highlights to the shadows.
    case fastFirst = "fast-first"
    /// Longest exposure first: the whole sequence reversed (sets and frames).
    case slowFirst = "slow-first"
}

/// Turns two meter readings into bracket sets, using HDR Calc's rule with its defects fixed.
///
/// The rule, on scale positions (index 0 = 1/8000): bright = the highlight reading, dark = the shadow reading.
/// Each frame of a set is `ceil(spacing × steps per EV)` positions after the previous one (1.5 EV on the
/// 1/3-stop scale is 5 thirds). If the range fits in one set's span, one set starts at the highlight;
/// otherwise each next set starts on the previous set's last frame until a set ends strictly slower than the
/// shadow reading. Fixes over the reference: frames past the longest timed speed are not clamped to it one
/// after another (the reference repeated 30" and, with a 30" shadow, chained sets forever); the last set is
/// shortened instead, ends on the longest speed once if the shadow still needs it, and a warning says so.
///
/// Bulb: the ladder continues past 30" (`ShutterScale.bulbSpeeds`) and the same rule runs on it up to `longest`,
/// but only when the shadow reading itself is past 30". A shadow the camera can time is bracketed within the
/// timed speeds exactly as before: a bulb frame beyond such a shadow would cost minutes (doubled by Long
/// Exposure NR) and need mode M for nothing the shadows lack. A shadow past `longest` is an error, not a plan
/// that leaves the shadows dark.
package struct BracketPlanner: Sendable, Hashable {
    /// The allowed number of frames per set.
    package static let frameRange = 2...15

    /// Frames per set.
    package let frames: Int
    /// The EV between neighbouring frames of a set.
    package let spacing: EVAmount
    /// The scale both readings and all frames are on.
    package let scale: ShutterScale
    /// Whether to drop the frame a set shares with the previous set (it is shot once, not twice).
    package let dedupe: Bool
    /// Whether to shoot fastest or slowest first.
    package let order: BracketOrder
    /// The longest exposure a plan may hold (`--longest`); past 30" it allows bulb frames.
    package let longest: ShutterSpeed

    /// The `--longest` of the CLI when none is given: 4', long enough for most night interiors, short enough
    /// that a set of bulb frames (and their Long Exposure NR) stays within minutes.
    package static let defaultLongest = ShutterSpeed(numerator: 240, denominator: 1)

    /// Creates a planner; throws when `frames` or `spacing` is not allowed or `longest` is not a stop of
    /// `scale`. Without `longest` plans stay within the timed speeds (30").
    package init(
        frames: Int = 5,
        spacing: EVAmount = EVAmount(stops: 1),
        scale: ShutterScale = .third,
        dedupe: Bool = false,
        order: BracketOrder = .fastFirst,
        longest: ShutterSpeed? = nil
    ) throws(ExposureError) {
        guard Self.frameRange.contains(frames) else {
            throw .frameCountOutOfRange(frames, allowed: Self.frameRange)
        }
        guard EVAmount.allowedSpacings.contains(spacing) else {
            throw .invalidSpacing(text: spacing.label, allowed: EVAmount.allowedSpacings)
        }
        let longest = longest ?? scale.longest
        guard scale.index(of: longest) != nil else { throw .speedNotOnScale(longest, scale: scale) }
        self.longest = longest
        self.frames = frames
        self.spacing = spacing
        self.scale = scale
        self.dedupe = dedupe
        self.order = order
    }

    /// Scale positions between neighbouring frames: the spacing rounded up to whole steps of the scale.
    package var stepPositions: Int {
        let numerator = spacing.sixths * scale.stepsPerEV
        return (numerator + 5) / 6
    }

    /// Plans the sets for a shadow and a highlight reading, both stops of `scale`.
    package func plan(shadow: ShutterSpeed, highlight: ShutterSpeed) throws(ExposureError) -> BracketPlan {
        guard let bright = scale.index(of: highlight) else { throw .speedNotOnScale(highlight, scale: scale) }
        guard let dark = scale.index(of: shadow) else { throw .speedNotOnScale(shadow, scale: scale) }
        guard dark >= bright else { throw .shadowFasterThanHighlight(shadow: shadow, highlight: highlight) }
        guard shadow <= longest else { throw .shadowBeyondLongest(shadow: shadow, longest: longest) }

        let speeds = scale.allSpeeds
        if dark == bright {
            return BracketPlan(sets: [[speeds[bright]]])
        }
        // Bulb stops only for a shadow past the timed speeds (see the type's notes); `longest` caps either way.
        let cap = shadow > scale.longest ? longest : min(longest, scale.longest)
        guard let longestIndex = scale.index(of: cap) else { preconditionFailure("the cap is a stop of the scale") }
        let step = stepPositions
        // Rule 4 compares with the spacing actually shot (rounded up to whole scale steps): a range one set
        // reaches is one set, even when the nominal spacing (1.5 EV, or 1/3 EV on the half scale) is shorter.
        let singleSet = dark - bright <= (frames - 1) * step

        var sets: [[Int]] = []
        var shortened = false
        var endsEarlyOnLongest = false
        var stoppedAtLongest = false
        var start = bright
        while true {
            var set: [Int] = []
            set.reserveCapacity(frames)
            var position = start
            for _ in 0..<frames where position <= longestIndex {
                set.append(position)
                position += step
            }
            let last = set[set.count - 1]
            if set.count < frames {
                // Past the longest timed speed: end on it once if the shadow is not yet covered.
                if last <= dark && last < longestIndex {
                    set.append(longestIndex)
                    endsEarlyOnLongest = true
                }
                shortened = true
            }
            sets.append(set)
            let end = set[set.count - 1]
            if shortened || singleSet || end > dark { break }
            if end >= longestIndex {
                // The reference would start another set past 30"; there is nothing slower to shoot.
                stoppedAtLongest = true
                break
            }
            start = end
        }

        // Counted before deduplication, which drops a shared frame, not a planned one.
        let lastSetFrames = sets[sets.count - 1].count
        if dedupe {
            for index in sets.indices.dropFirst() where sets[index].first == sets[index - 1].last {
                sets[index].removeFirst()
            }
        }
        var speedSets = sets.map { $0.map { speeds[$0] } }
        if order == .slowFirst {
            speedSets = speedSets.reversed().map { $0.reversed() }
        }

        var warnings: [String] = []
        let effective = EVAmount(sixths: step * (6 / scale.stepsPerEV))
        if effective != spacing {
            warnings.append(
                "frames are \(effective.label) EV apart: \(spacing.label) EV rounded up to whole "
                    + "\(scale.displayName) steps"
            )
        }
        let limit =
            cap == scale.longest
            ? "\(cap.label) is the longest timed speed (bulb frames are planned only for a shadow reading past it)"
            : "\(cap.label) is the longest exposure allowed (--longest)"
        if shortened {
            let setNumber = order == .fastFirst ? speedSets.count : 1
            let longest = cap.label
            let what: String
            if lastSetFrames == frames {
                what = "ends on \(longest) after a shorter step"
            } else if endsEarlyOnLongest {
                what = "has \(lastSetFrames) frames instead of \(frames), the last one \(longest)"
            } else {
                what = "has \(lastSetFrames) frames instead of \(frames)"
            }
            warnings.append("set \(setNumber) \(what): \(limit)")
        }
        if stoppedAtLongest {
            warnings.append("no set goes past the shadow reading: \(limit)")
        }
        return BracketPlan(sets: speedSets, warnings: warnings)
    }
}
