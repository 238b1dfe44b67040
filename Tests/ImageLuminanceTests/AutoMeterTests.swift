import Exposure
import ImageLuminance
import Testing

@Suite("AutoMeter: probes rendered scenes and finds their true range")
struct AutoMeterTests {
    /// On every scene, from the speed its meter calls correct: both readings within one step (1/3 EV) of the
    /// scene's true range, in at most 8 probes; every probe is a real JPEG read back by the DC decoder.
    @Test(arguments: Scene.Name.allCases)
    func findsTheTrueRangeWithinAThirdInEightProbesOrFewer(name: Scene.Name) async throws {
        let scene = Scene.named(name)
        let renderer = SceneRenderer()
        let speeds = ShutterScale.third.allSpeeds
        let meter = AutoMeter(speeds: speeds)
        let start = speeds.min {
            abs($0.seconds / scene.meteredSeconds - 1) < abs($1.seconds / scene.meteredSeconds - 1)
        }!
        let result = try await meter.search(from: start) { speed in
            try LumaReader.read(renderer.render(scene, exposure: speed))
        }
        let truth = scene.trueRange()
        func steps(_ a: ShutterSpeed, _ b: ShutterSpeed) -> Int {
            abs(speeds.firstIndex(of: a)! - speeds.firstIndex(of: b)!)
        }
        let shot = result.probes.map(\.speed.label)
        #expect(result.probes.count <= AutoMeter.maximumProbes, "\(shot)")
        #expect(
            steps(result.highlight, truth.highlight) <= 1,
            "\(name): \(result.highlight.label) vs \(truth.highlight.label) \(shot)")
        #expect(
            steps(result.shadow, truth.shadow) <= 1, "\(name): \(result.shadow.label) vs \(truth.shadow.label) \(shot)")
        #expect(result.converged, "\(shot)")
    }

    /// The search starts anywhere: from the scale's ends too it finds the interior's range in 8 probes or fewer.
    @Test(arguments: [ShutterSpeed(numerator: 1, denominator: 8000), ShutterSpeed(numerator: 30, denominator: 1)])
    func findsTheRangeFromEitherEndOfTheScale(start: ShutterSpeed) async throws {
        let scene = Scene.named(.interiorWindow)
        let renderer = SceneRenderer()
        let meter = AutoMeter(speeds: ShutterScale.third.allSpeeds)
        let result = try await meter.search(from: start) { speed in
            try LumaReader.read(renderer.render(scene, exposure: speed))
        }
        let truth = scene.trueRange()
        #expect(result.probes.count <= AutoMeter.maximumProbes)
        #expect(result.highlight == truth.highlight, "\(result.probes.map(\.speed.label))")
        #expect(result.shadow == truth.shadow, "\(result.probes.map(\.speed.label))")
    }
}
