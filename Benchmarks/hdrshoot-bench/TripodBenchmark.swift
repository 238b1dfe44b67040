// Tripod benchmark: how long the camera must stay on the tripod (from the first release until the last frame
// has fired) on bodies unlike the reference, against the limit each body allows (issue 32). BracketRunner and
// SonyCamera over loopback TCP against the in-process simulator, whose data phases are throttled to a given
// bandwidth. Prints figures, asserts nothing. Run in release: `swift run -c release hdrshoot-bench tripod`.
import CameraSimulator
import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import Shooting
import SonyCamera

/// Registers `hdrshoot-bench tripod`.
enum TripodBenchmark {
    /// The benchmark's entry in `Benchmarks.all`.
    static let benchmark = Benchmark(
        name: "tripod",
        summary: "time at the tripod on a small-buffer body and on one that ignores speed changes while images wait; "
            + "target within 1.1 x the limit each body allows"
    ) { arguments in
        let scale = BenchmarkSupport.option("scale", in: arguments).flatMap(Int.init) ?? 10
        BenchmarkSupport.blocking { await run(scale: max(1, scale)) }
        return 0
    }

    /// A 3 x 5 bracket of short exposures (1/1000 ... 1/60, every frame a new speed).
    static let plan = BracketPlan(
        sets: (0..<3).map { _ in [1000, 500, 250, 125, 60].map { ShutterSpeed(numerator: 1, denominator: $0) } })

    /// The issue's own bracket, `--shadow 1/4 --highlight 1/1000 --frames 5` as the planner makes it: 15 frames
    /// from 1/1000 to 4", 13 speeds, so 12 speed changes (two sets share their end speed with the next).
    static let issuePlan: BracketPlan = {
        do {
            return try BracketPlanner(frames: 5).plan(
                shadow: ShutterSpeed(numerator: 1, denominator: 4),
                highlight: ShutterSpeed(numerator: 1, denominator: 1000))
        } catch {
            preconditionFailure("the issue's bracket plans: \(error)")
        }
    }()

    /// The sum of the plan's exposure times.
    static func exposureSum(of plan: BracketPlan) -> Duration {
        plan.sets.joined().reduce(Duration.zero) { $0 + Duration.seconds($1.numerator) / $1.denominator }
    }

    /// How many times the shutter speed changes from one frame to the next, in shooting order.
    static func speedChanges(in plan: BracketPlan) -> Int {
        let speeds = Array(plan.sets.joined())
        return zip(speeds, speeds.dropFirst()).filter { $0 != $1 }.count
    }

    static func run(scale: Int) async {
        let exposures = exposureSum(of: plan)
        print("Time at the tripod (BracketRunner + SonyCamera, loopback TCP, in-process simulator), 3 x 5 frames;")
        print("sizes scaled down \(scale)x at the same bandwidth, so every transfer takes 1/\(scale) of the real time.")

        // 1. 12 MB frames at 1.3 MB/s on a body that holds 10: limit = exposures + 5 images' transfer.
        let big = 12_000_000 / scale
        let bandwidth = 1_300_000
        let transfer = Duration.seconds(Double(big) / Double(bandwidth))
        let smallBufferLimit = exposures + transfer * 5
        for (name, known) in [("buffer learned in this shoot", nil), ("buffer known from an earlier shoot", 10)] {
            await report(
                "small buffer (10), \(name)", limit: smallBufferLimit, scale: scale,
                formula: "exposures + 5 x \(BenchmarkSupport.format(transfer, in: .milliseconds)) transfer"
            ) {
                $0.imageSize = big
                $0.bandwidth = bandwidth
                $0.bufferCapacity = 10
            } runner: {
                $0.knownBufferCapacity = known
            }
        }

        // 2. 2 MB frames on a body that ignores speed changes while images wait: limit = exposures + 12 x
        // (processing + one image's transfer), as the issue counts it for its own bracket (12 speed changes).
        // Shot twice: on the issue's bracket (1/1000 ... 4"), and on the short plan above (14 changes), whose
        // limit counts its own 14 changes.
        let small = 2_000_000 / scale
        let processing = Duration.milliseconds(300)
        let oneImage = processing + Duration.seconds(Double(small) / Double(bandwidth))
        for (name, shot) in [("the issue's bracket, 1/1000 ... 4\"", issuePlan), ("1/1000 ... 1/60", plan)] {
            let changes = speedChanges(in: shot)
            await report(
                "ignores speed changes while images wait, \(name)", plan: shot,
                limit: exposureSum(of: shot) + oneImage * changes, scale: scale,
                formula: "exposures \(BenchmarkSupport.format(exposureSum(of: shot), in: .milliseconds)) + \(changes) "
                    + "speed changes x \(BenchmarkSupport.format(oneImage, in: .milliseconds)) (processing + transfer)"
            ) {
                $0.imageSize = small
                $0.bandwidth = bandwidth
                $0.processingTime = processing
                $0.quirks = [.speedIgnoredWhileBuffered]
            } runner: { _ in
            }
        }
    }

    /// Shoots the plan once on the simulated body and prints the time until every frame fired against `limit`.
    static func report(
        _ name: String, plan: BracketPlan = plan, limit: Duration, scale: Int, formula: String,
        simulator adjust: (inout SimulatorConfiguration) -> Void,
        runner adjustRunner: (inout BracketRunner.Configuration) -> Void
    ) async {
        var configuration = SimulatorConfiguration()
        configuration.port = 0
        adjust(&configuration)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hdrshoot-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The wait for a fired frame's image (10 s beyond its exposure), scaled like the transfers.
        var runnerConfiguration = BracketRunner.Configuration(
            outputDirectory: folder, idleMargin: BracketRunner.Configuration.defaultIdleMargin / scale)
        adjustRunner(&runnerConfiguration)
        do {
            let (tripod, total, fired) = try await CameraSimulator.withRunning(configuration: configuration) {
                simulator in
                var cameraConfiguration = SonyCameraConfiguration(
                    host: "127.0.0.1", port: simulator.port,
                    identity: HostIdentity(guid: PTPIPGUID(bytes: Array(0..<16))!, friendlyName: "hdrshoot-bench"))
                // The window a release gets to show it fired, scaled like the transfers.
                cameraConfiguration.processingMargin = .seconds(10) / scale
                cameraConfiguration.shutterConfirmTimeout = .seconds(5) / scale
                cameraConfiguration.fetchBehindGrace = .milliseconds(500) / scale
                let camera = SonyCamera(configuration: cameraConfiguration)
                try await camera.connect()
                let runner = BracketRunner(camera: camera, plan: plan, configuration: runnerConfiguration)
                let clock = ContinuousClock()
                let start = clock.now
                let watcher = Task { () -> Duration? in
                    for await event in runner.events {
                        if case .allFired = event { return clock.now - start }
                    }
                    return nil
                }
                let result = await runner.run()
                let total = clock.now - start
                let tripod = await watcher.value ?? total
                await camera.disconnect()
                guard result.isComplete else {
                    throw ShootBenchmark.BenchmarkFailure(reason: "stopped: \(String(describing: result.stopReason))")
                }
                return (tripod, total, await simulator.framesFired)
            }
            let ratio = Double(tripod.components.seconds) + Double(tripod.components.attoseconds) / 1e18
            let limitSeconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
            print(
                "  \(name): at the tripod \(BenchmarkSupport.format(tripod, in: .milliseconds)), limit "
                    + "\(BenchmarkSupport.format(limit, in: .milliseconds)) (\(formula)), "
                    + String(format: "%.2f", ratio / limitSeconds) + " x the limit; \(fired) releases fired, "
                    + "all saved after \(BenchmarkSupport.format(total, in: .milliseconds))")
        } catch {
            print("  \(name): failed: \(error)")
        }
    }
}
