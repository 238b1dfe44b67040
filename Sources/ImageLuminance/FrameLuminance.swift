import Exposure

/// The levels that decide whether a frame clips its highlights or blocks its shadows.
///
/// The defaults are Magic Lantern's (its HDR "Autodetect", `get_under_and_over_exposure(50, 235)`): a frame is
/// overexposed when more than 0.02 % of it is brighter than 235, underexposed when more than 10 % of it is
/// darker than 50. Magic Lantern counts pixels (max(R,G,B) for highlights, Y for shadows); hdrshoot counts the
/// luma means of 8x8 blocks, which soften a highlight smaller than a block: a block is clipped only when most of
/// it is, so the highlight figure reads low for pinpoint lights and true for windows and skies.
package struct RangeThresholds: Sendable, Equatable, Hashable, Codable {
    /// A sample above this level (0...255) is clipped.
    package var highlightLevel: Float
    /// The largest fraction (0...1) of clipped samples a frame may have and still hold its highlights.
    package var maximumClipped: Double
    /// A sample below this level is blocked (too dark to hold detail).
    package var shadowLevel: Float
    /// The largest fraction of blocked samples a frame may have and still open its shadows.
    package var maximumBlocked: Double

    /// Creates thresholds; levels are 0...255, fractions 0...1.
    package init(highlightLevel: Float, maximumClipped: Double, shadowLevel: Float, maximumBlocked: Double) {
        self.highlightLevel = highlightLevel
        self.maximumClipped = maximumClipped
        self.shadowLevel = shadowLevel
        self.maximumBlocked = maximumBlocked
    }

    /// Magic Lantern's: more than 0.02 % above 235 clips, more than 10 % below 50 blocks.
    package static let magicLantern = RangeThresholds(
        highlightLevel: 235, maximumClipped: 0.0002, shadowLevel: 50, maximumBlocked: 0.10)
}

/// What the range check needs to know about one frame: its exposure time, a 64-bin histogram of its luma,
/// and the fractions of it that are clipped and blocked.
package struct FrameLuminance: Sendable, Equatable, Codable {
    /// The number of histogram bins; bin `i` counts the samples from level `4i` up to (not including) `4i + 4`.
    package static let binCount = 64

    /// The frame's exposure time.
    package let speed: ShutterSpeed
    /// How many samples fall in each of the 64 bins (for the manifest; the fractions below are exact counts).
    package let histogram: [Int]
    /// The fraction (0...1) of samples above the thresholds' highlight level.
    package let clippedFraction: Double
    /// The fraction (0...1) of samples below the thresholds' shadow level.
    package let blockedFraction: Double
    /// The level below which exactly the thresholds' `maximumBlocked` fraction of samples lie (0...255): how
    /// dark the frame's shadows are where the check draws the line.
    package let shadowQuantileLevel: Float

    /// Measures `image`, the luma of a frame shot at `speed`, against `thresholds`.
    package init(speed: ShutterSpeed, image: LumaImage, thresholds: RangeThresholds = .magicLantern) {
        self.speed = speed
        var histogram = [Int](repeating: 0, count: Self.binCount)
        var clipped = 0
        var blocked = 0
        for sample in image.samples {
            histogram[min(Self.binCount - 1, max(0, Int(sample) / 4))] += 1
            if sample > thresholds.highlightLevel { clipped += 1 }
            if sample < thresholds.shadowLevel { blocked += 1 }
        }
        self.histogram = histogram
        let total = Double(max(1, image.samples.count))
        clippedFraction = Double(clipped) / total
        blockedFraction = Double(blocked) / total
        // The quantile from a histogram of quarter levels: exact to 0.25, and no sort of 375,000 samples.
        var fine = [Int](repeating: 0, count: 1024)
        for sample in image.samples { fine[min(1023, max(0, Int(sample * 4)))] += 1 }
        let rank = Int(thresholds.maximumBlocked * Double(image.samples.count))
        var below = 0
        var level = 1023
        for (bin, count) in fine.enumerated() {
            below += count
            if below > rank {
                level = bin
                break
            }
        }
        shadowQuantileLevel = Float(level) / 4
    }

    /// Creates a measurement from known figures (for tests and for frames read back from a manifest).
    package init(
        speed: ShutterSpeed, histogram: [Int], clippedFraction: Double, blockedFraction: Double,
        shadowQuantileLevel: Float
    ) {
        precondition(histogram.count == Self.binCount, "a histogram has \(Self.binCount) bins")
        self.speed = speed
        self.histogram = histogram
        self.clippedFraction = clippedFraction
        self.blockedFraction = blockedFraction
        self.shadowQuantileLevel = shadowQuantileLevel
    }
}
