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

    /// The per-frame overhead the estimates assume unless told otherwise, in seconds: the shutter, the write and
    /// the command round trips of one frame (`hdrshoot plan --overhead` changes it).
    package static let defaultOverheadPerFrame = 0.25

    /// The estimated shoot time in seconds: every exposure plus `overheadPerFrame` seconds per frame
    /// (shutter, write and command round trips).
    package func estimatedSeconds(overheadPerFrame: Double = defaultOverheadPerFrame) -> Double {
        var total = 0.0
        for set in sets {
            for speed in set { total += speed.seconds + overheadPerFrame }
        }
        return total
    }
}

extension BracketPlan {
    /// The shortest exposure Long Exposure NR follows with a dark frame on Sony bodies (1 s).
    package static let noiseReductionThreshold = ShutterSpeed(numerator: 1, denominator: 1)

    /// The seconds Long Exposure NR adds: a dark frame as long as every exposure of 1 s or more, when NR is on
    /// (`true`) or not known (`nil`, assumed on: a body that does not say may well take them); none when off.
    package func noiseReductionSeconds(longExposureNR: Bool?) -> Double {
        guard longExposureNR ?? true else { return 0 }
        var total = 0.0
        for set in sets {
            for speed in set where speed >= Self.noiseReductionThreshold { total += speed.seconds }
        }
        return total
    }

    /// The estimated shoot time with Long Exposure NR counted (`longExposureNR`: on, off, or `nil` for not
    /// known and assumed on): `estimatedSeconds(overheadPerFrame:)` plus `noiseReductionSeconds`.
    package func estimatedSeconds(overheadPerFrame: Double = defaultOverheadPerFrame, longExposureNR: Bool?) -> Double {
        estimatedSeconds(overheadPerFrame: overheadPerFrame) + noiseReductionSeconds(longExposureNR: longExposureNR)
    }

    /// The plan's bulb frames (past 30"), each speed once, shortest first.
    package var bulbExposures: [ShutterSpeed] {
        var seen: [ShutterSpeed] = []
        for set in sets {
            for speed in set where speed.isBulb && !seen.contains(speed) { seen.append(speed) }
        }
        return seen.sorted()
    }
}
