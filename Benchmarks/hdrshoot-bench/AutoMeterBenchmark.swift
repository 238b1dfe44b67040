// --auto metering benchmark: on every simulated scene, the readings AutoMeter finds from the body's meter, against
// the scene's true range (issue 22: within 1/3 EV, in 8 probes or fewer). Prints figures, asserts nothing.
// Each probe is a real baseline JPEG of the scene (SceneRenderer, 480x320) read back by the DC-only decoder, as
// `hdrshoot meter` reads the simulator's small JPEGs. Run: `swift run -c release hdrshoot-bench auto`.
import Exposure
import Foundation
import ImageLuminance

/// `hdrshoot-bench auto`.
enum AutoMeterBenchmark {
    static let benchmark = Benchmark(
        name: "auto",
        summary: "--auto metering per simulated scene: found vs true readings, EV error, probes, time"
    ) { _ in
        BenchmarkSupport.blocking { await run() }
        return 0
    }

    static func run() async {
        let speeds = ShutterScale.third.allSpeeds
        let meter = AutoMeter(speeds: speeds)
        let renderer = SceneRenderer()
        print("--auto metering (start: the meter's speed, 0xD1B5 model; third-stop scale 1/8000...30\"):")
        print(
            "  scene            true highlight/shadow   found highlight/shadow   error EV (h/s)   probes  converged  ms"
        )
        let clock = ContinuousClock()
        for scene in Scene.all {
            let start = speeds.min {
                abs(log2($0.seconds / scene.meteredSeconds)) < abs(log2($1.seconds / scene.meteredSeconds))
            }!
            let began = clock.now
            let result = try? await meter.search(from: start) { speed in
                try LumaReader.read(renderer.render(scene, exposure: speed))
            }
            let elapsed = clock.now - began
            guard let result else {
                print("  \(scene.name.rawValue): a probe could not be read")
                continue
            }
            let truth = scene.trueRange()
            func error(_ found: ShutterSpeed, _ truth: ShutterSpeed) -> String {
                String(format: "%+.2f", log2(found.seconds / truth.seconds))
            }
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            print(
                "  " + pad(scene.name.rawValue, 17) + pad("\(truth.highlight.label) / \(truth.shadow.label)", 24)
                    + pad("\(result.highlight.label) / \(result.shadow.label)", 25)
                    + pad("\(error(result.highlight, truth.highlight)) / \(error(result.shadow, truth.shadow))", 17)
                    + pad(String(result.probes.count), 8) + pad(result.converged ? "yes" : "no", 11)
                    + String(format: "%.0f", ms))
            print("    probes: " + result.probes.map(\.speed.label).joined(separator: ", "))
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
