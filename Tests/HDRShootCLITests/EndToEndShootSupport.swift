import CameraSimulator
import Foundation
import Glibc
import TestSupport
import Testing

/// A private corner of the file system for one end-to-end shoot: state, output, config, capture log.
struct ShootSandbox {
    /// The temporary root; removed by `remove()`.
    let root: URL

    /// Creates an empty sandbox.
    init() throws {
        root = TemporaryFolder.scratch.appendingPathComponent("hdrshoot-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    var stateDirectory: String { root.appendingPathComponent("state").path }
    var outputDirectory: String { root.appendingPathComponent("out").path }
    var captureLog: String { root.appendingPathComponent("captures.jsonl").path }

    /// The environment of the children: a private config home (host GUID, last camera) and state home (session
    /// logs, and the records of what each body taught, which every simulated body's one serial would otherwise
    /// carry from one test to the next), no state override, the default connect schedule.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = root.appendingPathComponent("state-home").path
        environment["HDRSHOOT_STATE_DIR"] = nil
        environment["HDRSHOOT_CONNECT_BACKOFF"] = nil
        environment["HDRSHOOT_SHORTEST_MARGIN"] = nil
        return environment
    }

    /// `--state-dir` and `--output` for a shoot command.
    var shootArguments: [String] { ["--state-dir", stateDirectory, "--output", outputDirectory] }

    /// Runs `hdrshoot <arguments>` to completion in the sandbox's environment, plus `extra`.
    func hdrshoot(
        _ arguments: [String], environment extra: [String: String] = [:], timeout: Duration = .seconds(120)
    ) async throws -> ProcessResult {
        try await ProcessRunner.run(
            try ProcessRunner.hdrshootBinary(), arguments: arguments, environment: environment.merging(extra) { $1 },
            timeout: timeout)
    }

    /// Starts `hdrshoot simulate` on a free loopback port (fast exposures, small images, capture log), runs
    /// `body` with its port, stops it (SIGTERM, so the log is flushed; SIGKILL after 10 s) and returns
    /// `body`'s result with the labels of every fired frame.
    func withSimulator<T>(
        faults: [String] = [], processingMilliseconds: Int = 20, extra: [String] = [],
        _ body: (UInt16) async throws -> T
    ) async throws -> (T, [String]) {
        var arguments = [
            "simulate", "--port", "0", "--exposure-cap", "0.02", "--processing-ms", String(processingMilliseconds),
            "--image-size", "4000", "--capture-log", captureLog
        ]
        arguments += extra
        if !faults.isEmpty { arguments += ["--fault", faults.joined(separator: ",")] }
        return try await withSimulatorProcess(arguments) { line in
            let port = try #require(line.split(separator: ":").last.flatMap { UInt16($0) })
            return try await body(port)
        }
    }

    /// Runs `body` with the simulated body of `withSimulator` (fast exposures, small images) in this process,
    /// changed by `adjust` (a slow link, a scene), and returns `body`'s result with the labels of every fired frame.
    /// In the process, `body` can make the link fast again (`setRoundTripDelay`, `setBandwidth`) once the slow part
    /// served it: a shoot kept under way while the test looks at it need not be waited out at the slow pace.
    func withSimulatorInProcess<T: Sendable>(
        _ adjust: (inout SimulatorConfiguration) -> Void, _ body: (CameraSimulator) async throws -> T
    ) async throws -> (T, [String]) {
        let configuration = SimulatorConfiguration.loopback {
            $0.exposureCap = .milliseconds(20)
            $0.imageSize = 4000
            adjust(&$0)
        }
        return try await CameraSimulator.withRunning(configuration: configuration) { simulator in
            (try await body(simulator), await simulator.captures.map(\.label))
        }
    }

    /// Starts `hdrshoot simulate --api` (the simulated legacy body, Camera Remote API) on a free loopback port
    /// with fast exposures, small images and the capture log, runs `body` with its `http://127.0.0.1:PORT`, stops
    /// it, and returns `body`'s result with the labels of every fired frame.
    func withLegacySimulator<T>(
        faults: [String] = [], processingMilliseconds: Int = 20, extra: [String] = [],
        _ body: (String) async throws -> T
    ) async throws -> (T, [String]) {
        var arguments = [
            "simulate", "--api", "--port", "0", "--exposure-cap", "0.02", "--processing-ms",
            String(processingMilliseconds), "--image-size", "4000", "--capture-log", captureLog
        ]
        arguments += extra
        if !faults.isEmpty { arguments += ["--fault", faults.joined(separator: ",")] }
        return try await withSimulatorProcess(arguments) { line in
            let url = try #require(
                line.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
            return try await body(url)
        }
    }

    /// Runs `hdrshoot <arguments>` (a simulator) until it says "listening on", runs `body` with that line, stops
    /// it (SIGTERM, so the capture log is flushed; SIGKILL after 10 s) and returns `body`'s result with the
    /// labels of every fired frame.
    private func withSimulatorProcess<T>(
        _ arguments: [String], _ body: (String) async throws -> T
    ) async throws -> (T, [String]) {
        let result = try await BackgroundProcess.with(
            try ProcessRunner.hdrshootBinary(), arguments: arguments, environment: environment
        ) { simulator in
            let line = try await simulator.waitForLine { $0.contains("listening on") }
            let value = try await body(line)
            simulator.send(SIGTERM)
            await simulator.waitForExit(timeout: .seconds(10))
            return value
        }
        return (result, try capturedLabels())
    }

    /// The labels of the frames the simulator fired, in order.
    func capturedLabels() throws -> [String] {
        guard let data = FileManager.default.contents(atPath: captureLog) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["label"] as? String)
        }
    }

    /// Waits until the simulator's capture log lists `count` fired frames (polling the file, which the
    /// simulator appends to as exposures end); throws after `timeout`.
    func waitForCaptures(_ count: Int, timeout: Duration = .seconds(60)) async throws {
        guard try await eventually(timeout: timeout, every: .milliseconds(10), { try capturedLabels().count >= count })
        else { throw CaptureLogTimeout(expected: count, found: try capturedLabels().count) }
    }

    /// The capture log did not reach the expected length in time.
    struct CaptureLogTimeout: Error {
        let expected: Int
        let found: Int
    }

    /// The manifest the shoot wrote.
    func manifest() throws -> [String: Any] {
        let url = URL(fileURLWithPath: outputDirectory).appendingPathComponent("manifest.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// Removes everything.
    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}

/// A 3 × 5 plan: `--shadow 1 --highlight 1/1000`, 1 EV apart.
enum ThreeByFive {
    /// Plan flags.
    static let flags = ["--shadow", "1", "--highlight", "1/1000"]
    /// The 15 speeds in shooting order, as the camera labels them.
    static let labels = [
        "1/1000", "1/500", "1/250", "1/125", "1/60",
        "1/60", "1/30", "1/15", "1/8", "1/4",
        "1/4", "0.5\"", "1\"", "2\"", "4\""
    ]

    /// Whether `fired` is every planned frame in order, with at most one frame fired twice in a row.
    static func isEveryFrameWithAtMostOneRepeat(_ fired: [String]) -> Bool {
        if fired == labels { return true }
        guard fired.count == labels.count + 1 else { return false }
        return (0..<labels.count).contains { index in
            Array(labels[...index]) + Array(labels[index...]) == fired
        }
    }
}

/// The JSON object of one `--json` line, or nil.
func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}

/// The binary's time-scale test hook: hdrshoot's waits for the camera's sake (`HDRSHOOT_TIME_SCALE`) and the
/// simulator's own time (`simulate --time-scale`) run `factor` times faster together, so a 40 s BULB hold or a
/// series every 20 s takes a tenth of that; the processing margins shrink as much but not below 2 s, and the
/// timeouts that say "not a hang" stay real.
enum ScaledTime {
    /// How many times faster.
    static let factor = 10
    /// The children's environment addition.
    static let environment = environment(factor: factor)
    /// The simulator's arguments.
    static let simulatorArguments = simulatorArguments(factor: factor)
    /// `environment` with the processing margins (and a set's or a notch step's read-back wait) at 1 s instead of
    /// the hook's 2 s floor: fifty times what the simulator needs on loopback, for a test that waits out such a
    /// margin on purpose (a body that takes no release while its buffer is full, a frame whose image the camera
    /// no longer has, a notch step past the end of the body's range).
    static let environmentWithOneSecondMargins = environment(factor: factor, shortestMargin: .seconds(1))

    /// The children's environment addition for `factor` times faster.
    static func environment(factor: Int) -> [String: String] { ["HDRSHOOT_TIME_SCALE": "\(factor)"] }
    /// The children's environment addition for `factor` times faster with the processing margins not below
    /// `shortestMargin` (`HDRSHOOT_SHORTEST_MARGIN`) instead of 2 s: only for a body that never shows what a
    /// margin waits for, since a loaded host can take longer than a short margin to deliver what a body does show.
    static func environment(factor: Int, shortestMargin: Duration) -> [String: String] {
        let milliseconds =
            shortestMargin.components.seconds * 1000 + shortestMargin.components.attoseconds / 1_000_000_000_000_000
        return environment(factor: factor).merging(["HDRSHOOT_SHORTEST_MARGIN": "\(milliseconds)ms"]) { $1 }
    }
    /// The simulator's arguments for `factor` times faster.
    static func simulatorArguments(factor: Int) -> [String] { ["--time-scale", "\(factor)"] }
}
