import Exposure
import ImageLuminance
import Testing

@testable import ShootKit

@Suite("--check extend: which frames an extension adds")
struct RangeExtensionTests {
    static func frame(_ speed: ShutterSpeed, clipped: Double, blocked: Double, shadowLevel: Float) -> FrameLuminance {
        FrameLuminance(
            speed: speed, histogram: [Int](repeating: 0, count: FrameLuminance.binCount), clippedFraction: clipped,
            blockedFraction: blocked, shadowQuantileLevel: shadowLevel)
    }

    static let s250 = ShutterSpeed(numerator: 1, denominator: 250)
    static let s15 = ShutterSpeed(numerator: 1, denominator: 15)

    /// 5 % clipped at 1/250 lacks 4 EV (the check's estimate): 1 EV apart towards 1/4000, but the body's fastest
    /// is 1/2000, so only what it offers is added, shortest first.
    @Test func highlightFramesStopAtTheBodysFastestSpeed() throws {
        let verdict = try #require(
            RangeCheck.check([
                Self.frame(Self.s250, clipped: 0.05, blocked: 0.5, shadowLevel: 10),
                // No more clipped than the shortest: the check assumes the area quarters per stop.
                Self.frame(Self.s15, clipped: 0.05, blocked: 0.01, shadowLevel: 80)
            ]))
        #expect(verdict.highlights.addition == ShutterSpeed(numerator: 1, denominator: 4000))
        let offered = OfferedSpeeds(
            ShutterScale.third.allSpeeds.filter { $0 >= ShutterSpeed(numerator: 1, denominator: 2000) },
            offersBulb: false)
        let speeds = RangeExtension.speeds(
            verdict, scale: .third, spacing: EVAmount(stops: 1), offered: offered, longest: nil)
        #expect(speeds.map(\.label) == ["1/2000", "1/1000", "1/500"])
    }

    /// A longest frame of 1" whose darkest 10 % sit at level 10 lacks about 5 EV; nothing past --longest 8".
    @Test func shadowFramesStopAtLongest() throws {
        let second = ShutterSpeed(numerator: 1, denominator: 1)
        let verdict = try #require(
            RangeCheck.check([
                Self.frame(Self.s250, clipped: 0, blocked: 0.5, shadowLevel: 2),
                Self.frame(second, clipped: 0.2, blocked: 0.3, shadowLevel: 10)
            ]))
        #expect(verdict.highlights.holds)
        #expect(!verdict.shadows.holds)
        let speeds = RangeExtension.speeds(
            verdict, scale: .third, spacing: EVAmount(stops: 1), offered: nil,
            longest: ShutterSpeed(numerator: 8, denominator: 1))
        #expect(speeds.map(\.label) == ["2\"", "4\"", "8\""])
    }

    /// A verdict that holds adds nothing.
    @Test func aHoldingBracketAddsNothing() throws {
        let verdict = try #require(
            RangeCheck.check([
                Self.frame(Self.s250, clipped: 0, blocked: 0.5, shadowLevel: 2),
                Self.frame(Self.s15, clipped: 0.3, blocked: 0.01, shadowLevel: 80)
            ]))
        #expect(verdict.holds)
        #expect(
            RangeExtension.speeds(
                verdict, scale: .third, spacing: EVAmount(stops: 1), offered: nil, longest: nil
            ).isEmpty)
    }
}
