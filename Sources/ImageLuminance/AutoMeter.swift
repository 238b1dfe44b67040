import Exposure

/// `--auto`: finds the highlight and shadow readings of a scene by shooting small probe frames.
///
/// The readings are the range check's own: the highlight reading is the longest speed whose frame holds the
/// highlights (at most `maximumClipped` above `highlightLevel`), the shadow reading the shortest whose frame
/// opens the shadows (at most `maximumBlocked` below `shadowLevel`). Both are monotonic in the exposure, so each
/// is a boundary on the shutter scale, found by a search that keeps, per end, the nearest speed known to pass and
/// the nearest known to fail:
/// - **Predict.** A probe whose brightest `maximumClipped` of blocks sit below white (or whose darkest
///   `maximumBlocked` sit above black) says how far that end is: the level is turned back into exposure through
///   `ToneCurve` (a camera-like curve; a real body's differs a little, which the confirmation corrects), and the
///   speed that puts it at the threshold level is the next probe.
/// - **Gallop.** A probe clipped (or black) at that end says only "further": the next probe jumps 4 EV.
/// - **Bisect.** Once both a passing and a failing speed are known, the next probe is the prediction when it
///   falls between them, else the middle.
/// An end is found when a passing speed and a failing one are neighbours on the scale (or the scale ends). Each
/// probe informs both ends; with a good prediction each end needs two probes, so a scene takes about five, never
/// more than `maximumProbes`.
package struct AutoMeter: Sendable {
    /// The most probes a search shoots.
    package static let maximumProbes = 8
    /// How far a probe that sees nothing at an end jumps, in steps of the scale (4 EV on the third scale).
    static let gallopSteps = 12

    /// What one probe measured.
    package struct Probe: Sendable, Equatable {
        /// Its exposure time.
        package let speed: ShutterSpeed
        /// Whether it holds the highlights.
        package let holdsHighlights: Bool
        /// Whether it opens the shadows.
        package let opensShadows: Bool
        /// The level of its brightest `maximumClipped` of samples (0...255).
        package let highlightLevel: Float
        /// The level of its darkest `maximumBlocked` of samples.
        package let shadowLevel: Float
    }

    /// The readings found and how.
    package struct Result: Sendable, Equatable {
        /// The longest speed that holds the highlights (the scale's shortest when none does).
        package let highlight: ShutterSpeed
        /// The shortest speed that opens the shadows (the scale's longest when none does).
        package let shadow: ShutterSpeed
        /// Every probe, in the order shot.
        package let probes: [Probe]
        /// Whether both ends were pinned to neighbouring speeds (false: the probes ran out, or the scale ended
        /// before an end held; the readings are then the nearest passing speeds known).
        package let converged: Bool
    }

    /// The speeds to search, shortest first (the camera's timed speeds on the scale).
    package let speeds: [ShutterSpeed]
    /// The range check's thresholds.
    package let thresholds: RangeThresholds

    /// A search over `speeds` (sorted here, shortest first; at least one) with `thresholds`.
    package init(speeds: [ShutterSpeed], thresholds: RangeThresholds = .magicLantern) {
        precondition(!speeds.isEmpty, "a search needs speeds")
        self.speeds = speeds.sorted()
        self.thresholds = thresholds
    }

    /// Measures `image`, a probe shot at `speed`.
    package func probe(_ image: LumaImage, speed: ShutterSpeed) -> Probe {
        let sorted = image.samples.sorted()
        let count = sorted.count
        guard count > 0 else {
            return Probe(speed: speed, holdsHighlights: true, opensShadows: false, highlightLevel: 0, shadowLevel: 0)
        }
        let frame = FrameLuminance(speed: speed, image: image, thresholds: thresholds)
        let allowedAbove = Int(thresholds.maximumClipped * Double(count))
        let allowedBelow = Int(thresholds.maximumBlocked * Double(count))
        return Probe(
            speed: speed, holdsHighlights: frame.clippedFraction <= thresholds.maximumClipped,
            opensShadows: frame.blockedFraction <= thresholds.maximumBlocked,
            highlightLevel: sorted[max(0, count - 1 - allowedAbove)], shadowLevel: sorted[min(count - 1, allowedBelow)])
    }

    /// Runs the search from `start` (the body's metered speed, or any): `shoot` takes a probe at a speed and
    /// returns its luma image. Throws what `shoot` throws.
    package func search(
        from start: ShutterSpeed, shoot: (ShutterSpeed) async throws -> LumaImage
    ) async rethrows -> Result {
        var state = SearchState(count: speeds.count)
        var probes: [Probe] = []
        var next: Int? = nearestIndex(start)
        while let index = next, probes.count < Self.maximumProbes {
            let probe = probe(try await shoot(speeds[index]), speed: speeds[index])
            probes.append(probe)
            state.record(probe, at: index, meter: self)
            next = state.nextIndex()
        }
        let highlight = state.highlightPass ?? 0
        let shadow = state.shadowPass ?? speeds.count - 1
        return Result(
            highlight: speeds[highlight], shadow: speeds[shadow], probes: probes,
            converged: state.highlightFound && state.shadowFound)
    }

    /// The index of the speed nearest `speed` in nominal thirds.
    func nearestIndex(_ speed: ShutterSpeed) -> Int {
        var best = 0
        for (index, candidate) in speeds.enumerated()
        where abs(candidate.nominalThirds - speed.nominalThirds) < abs(speeds[best].nominalThirds - speed.nominalThirds)
        {
            best = index
        }
        return best
    }

    /// Steps of the scale between two exposures `ratio` apart (positive: longer), from the speeds' spacing
    /// around `index` (a third of a stop on the usual scale).
    func steps(forRatio ratio: Double, at index: Int) -> Double {
        let neighbour = index + 1 < speeds.count ? index + 1 : max(0, index - 1)
        let stepEV = neighbour == index ? 1.0 / 3 : abs(Math.log2(speeds[neighbour].seconds / speeds[index].seconds))
        return Math.log2(ratio) / max(stepEV, 0.01)
    }
}

/// The bounds a search knows per end, and its predictions.
private struct SearchState {
    let count: Int
    /// Highlights: the longest index known to hold, the shortest known to clip.
    var highlightPass: Int?
    var highlightFail: Int?
    /// Shadows: the shortest index known to open, the longest known to block.
    var shadowPass: Int?
    var shadowFail: Int?
    /// The predictions (indices): from the probe measured nearest its threshold (the tone curve is read over the
    /// shortest distance there), a gallop only while no probe measured the end.
    var highlightGuess: Int?
    var shadowGuess: Int?
    /// How far (EV) from the threshold the probe behind each prediction was; infinity for a gallop.
    var highlightDistance = Double.infinity
    var shadowDistance = Double.infinity
    var probed: Set<Int> = []

    init(count: Int) { self.count = count }

    var highlightFound: Bool {
        if let pass = highlightPass, let fail = highlightFail { return fail == pass + 1 }
        // The scale ends: the longest speed holds, or the shortest clips.
        return highlightPass == count - 1 || highlightFail == 0
    }

    var shadowFound: Bool {
        if let pass = shadowPass, let fail = shadowFail { return pass == fail + 1 }
        return shadowPass == 0 || shadowFail == count - 1
    }

    mutating func record(_ probe: AutoMeter.Probe, at index: Int, meter: AutoMeter) {
        probed.insert(index)
        let thresholds = meter.thresholds
        if probe.holdsHighlights {
            highlightPass = max(highlightPass ?? index, index)
        } else {
            highlightFail = min(highlightFail ?? index, index)
        }
        if probe.opensShadows {
            shadowPass = min(shadowPass ?? index, index)
        } else {
            shadowFail = max(shadowFail ?? index, index)
        }
        // Predictions from levels the tone curve can be read at (not clipped white, not black).
        let top = Double(probe.highlightLevel)
        if top > 8, top < Double(thresholds.highlightLevel) + 10, top < 254 {
            let ratio = ToneCurve.exposure(level: Double(thresholds.highlightLevel)) / ToneCurve.exposure(level: top)
            let distance = abs(Math.log2(ratio))
            if distance <= highlightDistance {
                highlightDistance = distance
                highlightGuess = index + Int(meter.steps(forRatio: ratio, at: index).rounded(.down))
            }
        } else if highlightDistance.isInfinite {
            highlightGuess =
                top >= 254 || !probe.holdsHighlights ? index - AutoMeter.gallopSteps : index + AutoMeter.gallopSteps
        }
        let bottom = Double(probe.shadowLevel)
        if bottom > 4, bottom < 250 {
            let ratio = ToneCurve.exposure(level: Double(thresholds.shadowLevel)) / ToneCurve.exposure(level: bottom)
            let distance = abs(Math.log2(ratio))
            if distance <= shadowDistance {
                shadowDistance = distance
                shadowGuess = index + Int(meter.steps(forRatio: ratio, at: index).rounded(.up))
            }
        } else if shadowDistance.isInfinite {
            shadowGuess = bottom <= 4 ? index + AutoMeter.gallopSteps : index - AutoMeter.gallopSteps
        }
    }

    /// The next index to probe, nil when both ends are found (or nothing new is left to probe).
    func nextIndex() -> Int? {
        if !highlightFound,
            let index = candidate(pass: highlightPass, fail: highlightFail, guess: highlightGuess, passBelow: true)
        {
            return index
        }
        if !shadowFound, let index = candidate(pass: shadowPass, fail: shadowFail, guess: shadowGuess, passBelow: false)
        {
            return index
        }
        return nil
    }

    /// A probe between the known bounds of one end: the guess when it is strictly between them (moved one step
    /// off a bound it lands on, to confirm the neighbour), else the middle. `passBelow`: passing indices are the
    /// shorter ones (highlights).
    private func candidate(pass: Int?, fail: Int?, guess: Int?, passBelow: Bool) -> Int? {
        // The open interval where the boundary's far side can still be.
        var low = 0
        var high = count - 1
        if passBelow {
            if let pass { low = pass + 1 }
            if let fail { high = fail - 1 }
        } else {
            if let fail { low = fail + 1 }
            if let pass { high = pass - 1 }
        }
        // For the highlights the unknown indices are low...high; the boundary pair is (x, x + 1) for some x.
        // Probing any unknown index narrows it; prefer the guess (and its neighbour that would confirm it).
        guard low <= high else {
            // Nothing unknown is left inside: probe the scale's end when it is still unknown.
            return nil
        }
        var choice = (low + high) / 2
        if let guess {
            let clamped = min(high, max(low, guess))
            choice = clamped
            // A guess that a known pass already covers: confirm with the next step outward.
            if passBelow, let pass, guess <= pass { choice = min(high, pass + 1) }
            if !passBelow, let pass, guess >= pass { choice = max(low, pass - 1) }
        }
        return probed.contains(choice) ? (low + high) / 2 : choice
    }
}
