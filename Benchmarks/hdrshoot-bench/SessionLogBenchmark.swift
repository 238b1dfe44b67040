import CameraSimulator
import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import SessionLog
import Shooting
import SonyCamera
import Synchronization

/// `hdrshoot-bench session-log`: the cost of the session log per frame (issue 21's goal: under 1 ms).
///
/// Shoots a 3 x 5 bracket in-process against an in-process simulator with the session log's PTP/IP observer
/// attached, timing every call into the observer: what the log costs the shooting path (encoding a line and
/// appending it to the buffer; the writes run on the log's own queue). Also prints the lines and bytes a frame
/// writes and the time `close()` took to write what was left.
enum SessionLogBenchmark {
    /// The `session-log` subcommand.
    static let benchmark = Benchmark(
        name: "session-log",
        summary: "session log cost per frame of a 3 x 5 bracket against the in-process simulator [--rounds N]",
        run: run
    )

    static func run(_ arguments: [String]) -> Int32 {
        let rounds = BenchmarkSupport.option("rounds", in: arguments).flatMap(Int.init) ?? 3
        let status = Mutex<Int32>(0)
        BenchmarkSupport.blocking {
            for round in 1...rounds {
                let code = await shoot(round: round)
                status.withLock { $0 = max($0, code) }
            }
        }
        return status.withLock { $0 }
    }

    /// One bracket with the log on; prints one line of figures.
    private static func shoot(round: Int) async -> Int32 {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hdrshoot-bench-log-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SessionLogStore(directory: folder.appendingPathComponent("logs").path)
        guard
            let writer = SessionLogWriter.start(
                in: store, command: "bench", arguments: [], version: "bench",
                warn: { FileHandle.standardError.write(Data($0.utf8)) })
        else { return 1 }
        let observer = TimedObserver(SessionLogObserver(writer: writer))
        var simulator = SimulatorConfiguration()
        simulator.port = 0
        simulator.exposureCap = .milliseconds(5)
        simulator.processingTime = .milliseconds(5)
        simulator.imageSize = 50_000
        do {
            let plan = try BracketPlanner(frames: 5).plan(
                shadow: ShutterSpeed(numerator: 1, denominator: 4),
                highlight: ShutterSpeed(numerator: 1, denominator: 1000))
            let frames = plan.sets.reduce(0) { $0 + $1.count }
            return try await CameraSimulator.withRunning(configuration: simulator) { running in
                var configuration = SonyCameraConfiguration(
                    host: "127.0.0.1", port: running.port, identity: HostIdentity(guid: PTPIPGUID.random()))
                configuration.connectBackoff = []
                configuration.ptpipObserver = observer
                let camera = SonyCamera(configuration: configuration)
                try await camera.connect()
                let runner = BracketRunner(
                    camera: camera, plan: plan,
                    configuration: .init(outputDirectory: folder.appendingPathComponent("out")))
                let result = await runner.run()
                await camera.disconnect()
                let clock = ContinuousClock()
                let closing = clock.now
                writer.close()
                let closed = closing.duration(to: clock.now)
                let size = (try? FileManager.default.attributesOfItem(atPath: writer.path)[.size] as? Int) ?? 0
                let (calls, spent, longest) = observer.totals
                let perFrame = spent / frames
                print(
                    "session-log round \(round): \(result.isComplete ? "OK" : "FAILED") \(frames) frames, "
                        + "\(calls) lines (\(calls / frames) a frame), \(size / frames) bytes a frame; "
                        + "logging cost \(BenchmarkSupport.format(perFrame, in: .microseconds)) a frame on the "
                        + "shooting path (longest line \(BenchmarkSupport.format(longest, in: .microseconds))); "
                        + "close wrote the rest in \(BenchmarkSupport.format(closed, in: .microseconds))")
                return result.isComplete ? 0 : 1
            }
        } catch {
            print("session-log round \(round): FAILED: \(error)")
            return 1
        }
    }
}

/// Times every call into the wrapped observer (the cost on the caller's path).
private final class TimedObserver: PTPIPObserver {
    private let base: SessionLogObserver
    private let state = Mutex<(calls: Int, spent: Duration, longest: Duration)>((0, .zero, .zero))
    private let clock = ContinuousClock()

    init(_ base: SessionLogObserver) { self.base = base }

    var totals: (calls: Int, spent: Duration, longest: Duration) { state.withLock { $0 } }

    private func timed(_ body: () -> Void) {
        let start = clock.now
        body()
        let spent = start.duration(to: clock.now)
        state.withLock {
            $0.calls += 1
            $0.spent += spent
            $0.longest = max($0.longest, spent)
        }
    }

    func observe(_ record: PTPIPOperationRecord) { timed { base.observe(record) } }
    func observe(_ event: PTPEvent) { timed { base.observe(event) } }
    func observeConnect(address: String, duration: Duration, error: (any Error)?) {
        timed { base.observeConnect(address: address, duration: duration, error: error) }
    }
}
