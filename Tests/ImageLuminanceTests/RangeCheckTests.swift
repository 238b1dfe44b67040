import Exposure
import ImageLuminance
import Testing

/// The range check's findings and its one-line verdicts, on frames with known clipped and blocked fractions.
@Suite("RangeCheck")
struct RangeCheckTests {
    static func speed(_ numerator: Int, _ denominator: Int) -> ShutterSpeed {
        ShutterSpeed(numerator: numerator, denominator: denominator)
    }

    /// A frame with the given fractions (the histogram is not used by the check).
    static func frame(
        _ speed: ShutterSpeed, clipped: Double = 0, blocked: Double = 0, shadowLevel: Float = 80
    ) -> FrameLuminance {
        FrameLuminance(
            speed: speed, histogram: [Int](repeating: 0, count: 64), clippedFraction: clipped,
            blockedFraction: blocked, shadowQuantileLevel: shadowLevel)
    }

    @Test func frameMeasuresClippedAndBlockedSamplesWithMagicLanternThresholds() {
        // 10,000 samples: 3 above 235 (0.03 % > 0.02 %), 1,001 below 50 (10.01 % > 10 %).
        var samples = [Float](repeating: 128, count: 10_000)
        for index in 0..<3 { samples[index] = 236 }
        for index in 3..<1004 { samples[index] = 49.5 }
        samples[1004] = 235 // exactly 235 is not clipped
        let frame = FrameLuminance(
            speed: Self.speed(1, 100), image: LumaImage(width: 100, height: 100, samples: samples))
        #expect(frame.clippedFraction == 0.0003)
        #expect(frame.blockedFraction == 0.1001)
        #expect(frame.histogram[59] == 3 && frame.histogram[12] == 1001 && frame.histogram[32] == 8995)
        #expect(frame.histogram[58] == 1)
        #expect(frame.shadowQuantileLevel == 49.5)
        let verdict = RangeCheck.check([frame])
        #expect(verdict?.highlights.holds == false && verdict?.shadows.holds == false)
    }

    @Test func coveredRangeSaysOK() throws {
        let verdict = try #require(
            RangeCheck.check([
                Self.frame(Self.speed(1, 1000), clipped: 0.0001), Self.frame(Self.speed(1, 60)),
                Self.frame(Self.speed(4, 1), blocked: 0.03)
            ]))
        #expect(verdict.holds)
        #expect(
            verdict.line == "range ok: highlights hold at 1/1000 (0.01 % clipped), shadows open at 4\" (3 % blocked)")
    }

    @Test func clippedHighlightsWithOneFrameAssumeAQuarterPerStop() throws {
        // 0.6 % is 30 times the 0.02 % allowed: log2(30) / 2 = 2.45 EV, rounded up to 2 2/3 EV on the 1/3 scale.
        let verdict = try #require(
            RangeCheck.check(
                [Self.frame(Self.speed(1, 1000), clipped: 0.006), Self.frame(Self.speed(1, 15))],
                readings: MeterReadings(shadow: Self.speed(1, 4), highlight: Self.speed(1, 1000))))
        #expect(verdict.highlights.missing == EVAmount(sixths: 16))
        #expect(verdict.highlights.addition == Self.speed(1, 6400))
        #expect(verdict.shadows.holds)
        #expect(
            verdict.line
                == "highlights: 0.6 % still clipped at 1/1000; add 1/6400 (2.7 EV) or rerun with --highlight 1/6400")
    }

    @Test func clippedHighlightsUseTheRateTwoFramesShow() throws {
        // 1/500 clips 0.8 %, 1/1000 clips 0.1 %: 8x per EV (rate 3, within 1...4). 0.1 % is 5x the limit:
        // log2(5) / 3 = 0.77 EV, so 1 EV: 1/2000.
        let verdict = try #require(
            RangeCheck.check([
                Self.frame(Self.speed(1, 500), clipped: 0.008), Self.frame(Self.speed(1, 1000), clipped: 0.001)
            ]))
        #expect(verdict.highlights.missing == EVAmount(stops: 1))
        #expect(verdict.highlights.addition == Self.speed(1, 2000))
        #expect(verdict.line == "highlights: 0.1 % still clipped at 1/1000; add 1/2000 (1 EV)")
    }

    @Test func blockedShadowsUseTheToneCurve() throws {
        // The darkest 10 % sit at level 25: 2.2 x log2(50 / 25) = 2.2 EV, rounded up to 2 1/3 EV: 4" -> 20".
        let verdict = try #require(
            RangeCheck.check(
                [Self.frame(Self.speed(1, 250)), Self.frame(Self.speed(4, 1), blocked: 0.24, shadowLevel: 25)],
                readings: MeterReadings(shadow: Self.speed(1, 4), highlight: Self.speed(1, 250))))
        #expect(verdict.shadows.missing == EVAmount(sixths: 14))
        #expect(verdict.shadows.addition == Self.speed(20, 1))
        #expect(verdict.line == "shadows: 24 % still blocked at 4\"; add 20\" (2.3 EV) or rerun with --shadow 1.3\"")
    }

    @Test func bothEndsLackingAreJoined() throws {
        let verdict = try #require(
            RangeCheck.check([
                Self.frame(Self.speed(1, 60), clipped: 0.02), Self.frame(Self.speed(1, 4), blocked: 0.5, shadowLevel: 0)
            ]))
        #expect(!verdict.holds)
        #expect(verdict.line.hasPrefix("highlights: 2 % still clipped at 1/60; add "))
        #expect(verdict.line.contains("; shadows: 50 % still blocked at 1/4; add "))
    }

    @Test func theEndOfTheScaleAsksForApertureOrISO() throws {
        let verdict = try #require(RangeCheck.check([Self.frame(Self.speed(1, 8000), clipped: 0.01)]))
        #expect(verdict.highlights.addition == nil)
        #expect(verdict.line.hasSuffix("the scale ends there: shoot 3 EV more with a smaller aperture or a lower ISO"))
        let short = try #require(RangeCheck.check([Self.frame(Self.speed(1, 4000), clipped: 0.01)]))
        #expect(short.highlights.addition == Self.speed(1, 8000))
        #expect(short.line.hasSuffix("add 1/8000 (1 EV), the end of the scale; the rest needs aperture or ISO"))
    }

    @Test func halfStopScaleRoundsToHalves() throws {
        let verdict = try #require(
            RangeCheck.check([Self.frame(Self.speed(1, 1000), clipped: 0.0008)], scale: .half))
        // log2(4) / 2 = 1 EV exactly: two half steps, 1/2000.
        #expect(verdict.highlights.missing == EVAmount(stops: 1))
        #expect(verdict.highlights.addition == Self.speed(1, 2000))
    }

    @Test func thresholdsAreConfigurable() throws {
        let strict = RangeThresholds(highlightLevel: 200, maximumClipped: 0, shadowLevel: 100, maximumBlocked: 0.5)
        let samples = [Float](repeating: 120, count: 99) + [201]
        let frame = FrameLuminance(
            speed: Self.speed(1, 100), image: LumaImage(width: 10, height: 10, samples: samples), thresholds: strict)
        #expect(frame.clippedFraction == 0.01 && frame.blockedFraction == 0)
        let verdict = try #require(RangeCheck.check([frame], thresholds: strict))
        #expect(!verdict.highlights.holds && verdict.shadows.holds)
    }

    @Test func noFramesNoVerdict() {
        #expect(RangeCheck.check([]) == nil)
    }
}
