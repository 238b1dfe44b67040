import Exposure
import ImageLuminance
import Testing

/// Simulated scenes rendered into real JPEGs: djpeg reads them, and the range check agrees with each scene's
/// true range.
@Suite("SceneRenderer")
struct SceneRendererTests {
    static let renderer = SceneRenderer(width: 240, height: 160)

    @Test func toneCurveHitsTheCheckLevelsAndInvertsItself() {
        #expect(abs(ToneCurve.level(exposure: 0.18) - 112) < 1)
        #expect(abs(ToneCurve.exposure(level: 235) - 1.81) < 0.01)
        #expect(abs(ToneCurve.exposure(level: 50) - 0.0282) < 0.0005)
        for level in [1.0, 50, 128, 235, 254] {
            #expect(abs(ToneCurve.level(exposure: ToneCurve.exposure(level: level)) - level) < 1e-6)
        }
        #expect(ToneCurve.level(exposure: 0) == 0 && ToneCurve.level(exposure: 100) <= 255)
    }

    @Test func scenesSpanTheirAdvertisedRanges() {
        let ranges = Dictionary(uniqueKeysWithValues: Scene.all.map { ($0.name, $0.rangeEV) })
        #expect(abs(ranges[.interiorWindow]! - 14) < 0.1)
        #expect(abs(ranges[.sunset]! - 12.7) < 0.1)
        #expect(abs(ranges[.nightStreet]! - 14.6) < 0.1)
        #expect(ranges[.greyCard]! == 0)
    }

    @Test func trueRangesAreTheDocs() throws {
        // The table in docs/range-check.md, "How it works".
        let expected: [Scene.Name: (highlight: (Int, Int), shadow: (Int, Int))] = [
            .interiorWindow: ((1, 250), (13, 10)), .sunset: ((1, 2500), (1, 20)), .nightStreet: ((1, 60), (8, 1)),
            .greyCard: ((16, 10), (1, 30))
        ]
        for scene in Scene.all {
            let range = scene.trueRange()
            let want = try #require(expected[scene.name])
            #expect(range.highlight == ShutterSpeed(numerator: want.highlight.0, denominator: want.highlight.1))
            #expect(range.shadow == ShutterSpeed(numerator: want.shadow.0, denominator: want.shadow.1))
        }
    }

    @Test(
        .enabled(if: LibJPEG.hasDJPEG, "djpeg (libjpeg-turbo-progs) is not installed"), arguments: Scene.Name.allCases)
    func djpegDecodesARenderedScene(_ name: Scene.Name) async throws {
        let scene = Scene.named(name)
        let exposure = scene.trueRange().highlight
        let levels = Self.renderer.levels(scene, exposure: exposure)
        let decoded = try await LibJPEG.djpeg(Self.renderer.render(scene, exposure: exposure))
        #expect(decoded.width == 240 && decoded.height == 160 && decoded.channels == 1)
        let errors = zip(decoded.samples, levels).map { abs(Int($0) - Int($1)) }
        // Hard-edged shapes ring a little at quality 90; on average the pixels are the rendered ones.
        #expect(Double(errors.reduce(0, +)) / Double(errors.count) < 1.5)
    }

    @Test(arguments: Scene.Name.allCases)
    func rangeCheckAgreesWithTheTrueRange(_ name: Scene.Name) throws {
        // A bracket from one stop inside each end of the true range misses both ends; one stop outside holds both.
        let scene = Scene.named(name)
        let (highlight, shadow) = scene.trueRange()
        let speeds = ShutterScale.third.allSpeeds
        let bright = try #require(ShutterScale.third.index(of: highlight))
        let dark = try #require(ShutterScale.third.index(of: shadow))
        let outside = try #require(try verdict(scene, speeds[bright - 3], speeds[dark + 3]))
        #expect(outside.holds, "\(name): \(outside.line)")
        guard name != .greyCard else { return } // a flat card has no ends to miss
        let inside = try #require(try verdict(scene, speeds[bright + 3], speeds[dark - 3]))
        #expect(!inside.highlights.holds && !inside.shadows.holds, "\(name): \(inside.line)")
        // The fix it proposes reaches at least back to the true range.
        #expect(try #require(inside.highlights.addition) <= highlight, "\(name): \(inside.line)")
        #expect(try #require(inside.shadows.addition) >= speeds[dark - 1], "\(name): \(inside.line)")
    }

    @Test func flatCardIsOneFlatLevel() throws {
        let luma = try JPEGLumaDecoder.decode(
            Self.renderer.render(Scene.named(.greyCard), exposure: ShutterSpeed(numerator: 1, denominator: 4)))
        #expect(luma.samples.allSatisfy { abs($0 - 128.5) < 0.6 })
    }

    /// The range check's verdict on the scene shot at the two speeds, through encoder and decoder.
    private func verdict(_ scene: Scene, _ short: ShutterSpeed, _ long: ShutterSpeed) throws -> RangeVerdict? {
        let frames = try [short, long].map { speed in
            FrameLuminance(
                speed: speed, image: try JPEGLumaDecoder.decode(Self.renderer.render(scene, exposure: speed)))
        }
        return RangeCheck.check(frames)
    }
}
