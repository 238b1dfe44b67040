import Foundation

/// One benchmark subcommand of `hdrshoot-bench`.
struct Benchmark: Sendable {
    /// The subcommand name (`plan`).
    let name: String
    /// One line for the benchmark list.
    let summary: String
    /// Runs the benchmark with its own arguments, prints figures, returns the exit status.
    let run: @Sendable ([String]) -> Int32
}

/// The registry: add a benchmark by writing its file and listing it here.
enum Benchmarks {
    static let all: [Benchmark] = [
        PlanBenchmark.benchmark,
    ]
}

/// Timing helpers shared by the benchmarks.
enum BenchmarkSupport {
    /// The median of `samples` (the mean of the middle two for an even count).
    static func median(_ samples: [Duration]) -> Duration {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// `duration` in milliseconds or microseconds with two decimals.
    static func format(_ duration: Duration, in unit: Unit) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        switch unit {
        case .milliseconds: return String(format: "%.2f ms", seconds * 1e3)
        case .microseconds: return String(format: "%.3f µs", seconds * 1e6)
        }
    }

    /// Units figures are printed in.
    enum Unit { case milliseconds, microseconds }

    /// The value of `--name <value>` in `arguments`, if present.
    static func option(_ name: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    /// The `hdrshoot` executable built in the same configuration as this benchmark (same folder).
    static func siblingExecutable(_ name: String) -> URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Runs `executable` once with output discarded; returns its wall time and exit status.
    static func timeProcess(_ executable: URL, arguments: [String]) throws -> (Duration, Int32) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        process.waitUntilExit()
        return (clock.now - start, process.terminationStatus)
    }
}
