import Foundation
import Glibc

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
    /// Every benchmark, in usage order.
    static let all: [Benchmark] = [
        PlanBenchmark.benchmark,
        ShootBenchmark.benchmark,
        TripodBenchmark.benchmark,
        JournalBenchmark.benchmark,
        BracketBenchmark.benchmark,
        SessionLogBenchmark.benchmark,
        Benchmark(
            name: "codec", summary: "PTP/IP decode throughput: 1 MB Data packets (MB/s), small responses (packets/s)"
        ) { _ in
            runCodecBenchmark()
            return 0
        },
        Benchmark(
            name: "client", summary: "PTPIPClient round trip per empty operation on loopback, and data-in throughput"
        ) { _ in
            BenchmarkSupport.blocking { await runClientBenchmark() }
            return 0
        },
        NetworkMonitorBenchmark.benchmark,
        LumaBenchmark.benchmark,
        AutoMeterBenchmark.benchmark,
        Benchmark(
            name: "remote-api",
            summary: "Camera Remote API call on loopback: our HTTP client over Posix sockets vs URLSession [--calls N]"
        ) { arguments in
            let calls = BenchmarkSupport.option("calls", in: arguments).flatMap(Int.init) ?? 2000
            BenchmarkSupport.blocking { await runRemoteAPIBenchmark(calls: max(1, calls)) }
            return 0
        }
    ]
}

/// Timing helpers shared by the benchmarks.
enum BenchmarkSupport {
    /// Runs async benchmark code to completion from the synchronous entry point (main thread waits).
    static func blocking(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }

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

    /// Runs `executable` once with output discarded, as a shell would (posix_spawn + waitpid); returns its
    /// wall time and exit status.
    ///
    /// Not Foundation's `Process`: its `waitUntilExit` polls every 50 ms on Linux, which would dominate the figure.
    static func timeProcess(_ executable: URL, arguments: [String]) throws -> (Duration, Int32) {
        let strings = [executable.path] + arguments
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let argv = strings.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw SpawnError(code: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let elapsed = clock.now - start
        // WIFEXITED / WEXITSTATUS by hand (they are C macros).
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (elapsed, exitStatus)
    }

    /// posix_spawn failed with this errno.
    struct SpawnError: Error {
        /// The errno posix_spawn returned.
        let code: Int32
    }
}
