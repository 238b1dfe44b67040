// Shoot benchmark: the per-frame overhead of a real shoot (BracketRunner + SonyCamera over loopback TCP)
// against the in-process simulator with no added latency. Prints figures, asserts nothing.
// Run in release: `swift run -c release hdrshoot-bench shoot [--frames N]`.
import CameraSimulator
import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import Shooting
import SonyCamera

/// Registers `hdrshoot-bench shoot`.
enum ShootBenchmark {
    /// The benchmark's entry in `Benchmarks.all`.
    static let benchmark = Benchmark(
        name: "shoot",
        summary:
            "per-frame overhead of a shoot against the simulator (total minus exposure time, per frame); target < 30 ms"
    ) { arguments in
        let frames = BenchmarkSupport.option("frames", in: arguments).flatMap(Int.init) ?? 60
        BenchmarkSupport.blocking { await run(frames: max(5, frames)) }
        return 0
    }

    /// One measured configuration.
    struct Case {
        let name: String
        let imageSize: Int
        let journal: Bool
    }

    static func run(frames: Int) async {
        print(
            "Shoot overhead (BracketRunner + SonyCamera, loopback TCP, in-process simulator, no added latency, no processing delay):"
        )
        print(
            "  \(frames) frames at 1/8000 ... 1/1000 per case; overhead = (wall time - planned exposure time) / frames")
        let cases = [
            Case(name: "1 KB images, no journal", imageSize: 1_000, journal: false),
            Case(name: "1 KB images, journal (2 fsync'd writes per frame)", imageSize: 1_000, journal: true),
            Case(name: "200 KB images, journal (image transfer included)", imageSize: 200_000, journal: true)
        ]
        for benchmarkCase in cases {
            do {
                let (overhead, total) = try await measure(benchmarkCase, frames: frames)
                print(
                    "  \(benchmarkCase.name): \(BenchmarkSupport.format(overhead, in: .milliseconds)) per frame "
                        + "(total \(BenchmarkSupport.format(total, in: .milliseconds)))")
            } catch {
                print("  \(benchmarkCase.name): failed: \(error)")
            }
        }
    }

    /// Shoots `frames` frames once to warm up, then again measured; returns (overhead per frame, total).
    static func measure(_ benchmarkCase: Case, frames: Int) async throws -> (Duration, Duration) {
        var configuration = SimulatorConfiguration()
        configuration.port = 0
        configuration.imageSize = benchmarkCase.imageSize
        configuration.processingTime = .zero
        let speeds = [8000, 4000, 2000, 1000].map { ShutterSpeed(numerator: 1, denominator: $0) }
        let set = (0..<5).map { speeds[$0 % speeds.count] }
        let plan = BracketPlan(sets: Array(repeating: set, count: (frames + 4) / 5))
        let exposure = plan.sets.joined().reduce(Duration.zero) { $0 + Duration.seconds($1.numerator) / $1.denominator }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hdrshoot-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        return try await CameraSimulator.withRunning(configuration: configuration) { simulator in
            var result: (Duration, Duration) = (.zero, .zero)
            for round in 0..<2 {
                let camera = SonyCamera(
                    configuration: SonyCameraConfiguration(
                        host: "127.0.0.1", port: simulator.port,
                        identity: HostIdentity(guid: PTPIPGUID(bytes: Array(0..<16))!, friendlyName: "hdrshoot-bench")))
                try await camera.connect()
                let output = folder.appendingPathComponent("round-\(round)")
                var recorder: any ShootRecorder = NoRecorder()
                if benchmarkCase.journal {
                    let store = JournalStore(directory: folder.appendingPathComponent("state-\(round)"))
                    let journal = ShootJournal(plan: plan, camera: await camera.identity, outputDirectory: output.path)
                    try await store.create(journal)
                    recorder = JournalRecorder(journal: journal, store: store)
                }
                let runner = BracketRunner(
                    camera: camera, plan: plan, configuration: .init(outputDirectory: output), recorder: recorder)
                let clock = ContinuousClock()
                let start = clock.now
                let shot = await runner.run()
                let total = clock.now - start
                await camera.disconnect()
                guard shot.isComplete else {
                    throw BenchmarkFailure(reason: "the shoot stopped: \(String(describing: shot.stopReason))")
                }
                result = ((total - exposure) / plan.totalExposures, total)
            }
            return result
        }
    }

    /// A shoot that did not complete.
    struct BenchmarkFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }
}
