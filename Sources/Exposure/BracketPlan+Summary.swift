extension BracketPlan {
    /// The number of bracket sets; a plan of one single exposure (zero range) has none.
    package var bracketSetCount: Int {
        sets.count == 1 && sets[0].count == 1 ? 0 : sets.count
    }

    /// The number of different speeds in the plan (sets share frames unless deduplicated).
    package var distinctExposures: Int {
        var seen: [ShutterSpeed] = []
        for set in sets {
            for speed in set where !seen.contains(speed) { seen.append(speed) }
        }
        return seen.count
    }

    /// The longest exposure in the plan, or `nil` for an empty plan.
    package var longestExposure: ShutterSpeed? {
        sets.lazy.flatMap { $0 }.max()
    }

    /// The estimated shoot time in seconds: every exposure plus `overheadPerFrame` seconds per frame
    /// (shutter, write and command round trips).
    package func estimatedSeconds(overheadPerFrame: Double = 0.25) -> Double {
        var total = 0.0
        for set in sets {
            for speed in set { total += speed.seconds + overheadPerFrame }
        }
        return total
    }
}
