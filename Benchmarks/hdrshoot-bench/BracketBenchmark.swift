import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import Shooting
import SonyCamera

/// `hdrshoot-bench bracket`: one bracket shot in-process (SonyCamera + BracketRunner, no journal) against a
/// running camera or simulator; prints wall time, frames saved and PTP operations.
///
/// What `hdrshoot run --confirm` does minus the CLI, the journal and the terminal: it isolates the library's
/// cost for profiling (`valgrind --tool=callgrind hdrshoot-bench bracket ...`) and stands in for `run` in
/// `Benchmarks/gphoto2-compare.sh --in-process`.
enum BracketBenchmark {
    /// The `bracket` subcommand.
    static let benchmark = Benchmark(
        name: "bracket",
        summary:
            "one 3 x 5 bracket in-process against --port <n> (a running 'hdrshoot simulate'), images to --out <dir>",
        run: run
    )

    /// Options: `--port <n>` (required), `--host <address>` (127.0.0.1), `--out <dir>` (a temporary folder),
    /// `--shadow`, `--highlight` (1/4, 1/1000), `--frames` (5). Exits 0 only when every frame was saved.
    static func run(_ arguments: [String]) -> Int32 {
        guard let port = BenchmarkSupport.option("port", in: arguments).flatMap(UInt16.init) else {
            FileHandle.standardError.write(Data("hdrshoot-bench bracket: --port <n> is required\n".utf8))
            return 64
        }
        let host = BenchmarkSupport.option("host", in: arguments) ?? "127.0.0.1"
        let output =
            BenchmarkSupport.option("out", in: arguments).map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("hdrshoot-bench-\(getpid())")
        let plan: BracketPlan
        do {
            let frames = BenchmarkSupport.option("frames", in: arguments).flatMap(Int.init) ?? 5
            let shadow = try ShutterScale.third.parseSpeed(BenchmarkSupport.option("shadow", in: arguments) ?? "1/4")
                .speed
            let highlight = try ShutterScale.third.parseSpeed(
                BenchmarkSupport.option("highlight", in: arguments) ?? "1/1000"
            ).speed
            plan = try BracketPlanner(frames: frames).plan(shadow: shadow, highlight: highlight)
        } catch {
            FileHandle.standardError.write(Data("hdrshoot-bench bracket: cannot plan: \(error)\n".utf8))
            return 64
        }
        let status = Mutex32(1)
        BenchmarkSupport.blocking {
            status.set(await shoot(plan: plan, host: host, port: port, output: output))
        }
        return status.value
    }

    /// Connects, runs the plan, disconnects; prints one summary line.
    private static func shoot(plan: BracketPlan, host: String, port: UInt16, output: URL) async -> Int32 {
        var configuration = SonyCameraConfiguration(
            host: host, port: port, identity: HostIdentity(guid: PTPIPGUID.random()))
        configuration.connectBackoff = []
        let camera = SonyCamera(configuration: configuration)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try await camera.connect()
        } catch {
            print("shoot: FAILED to connect: \(error)")
            return 1
        }
        let runner = BracketRunner(camera: camera, plan: plan, configuration: .init(outputDirectory: output))
        let result = await runner.run()
        let operations = await camera.operationCount
        await camera.disconnect()
        let elapsed = start.duration(to: clock.now)
        let total = plan.sets.reduce(0) { $0 + $1.count }
        let verdict = result.isComplete ? "OK" : "FAILED (\(result.stopReason.map { "\($0)" } ?? "incomplete"))"
        print(
            "shoot: \(verdict) \(result.saved)/\(total) frames in \(BenchmarkSupport.format(elapsed, in: .milliseconds)), "
                + "\(operations) PTP operations, images in \(output.path)")
        return result.isComplete ? 0 : 1
    }
}

/// An `Int32` shared between the benchmark task and the waiting main thread.
private final class Mutex32: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int32

    init(_ value: Int32) { stored = value }

    var value: Int32 { lock.withLock { stored } }

    func set(_ value: Int32) { lock.withLock { stored = value } }
}
