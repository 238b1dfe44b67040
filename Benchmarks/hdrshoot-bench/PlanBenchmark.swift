import Exposure
import Foundation

/// `hdrshoot-bench plan`: the median wall time of `hdrshoot plan` as a whole process, and of in-process plans.
///
/// Targets from the issue: under 20 ms per process run and under 5 µs per in-process plan.
enum PlanBenchmark {
    /// The command line both measurements plan (the README's example).
    static let planArguments = ["plan", "--shadow", "1/4", "--highlight", "1/1000", "--frames", "5"]

    /// The `plan` subcommand.
    static let benchmark = Benchmark(
        name: "plan",
        summary: "median time of 'hdrshoot plan' as a process and of 10,000 in-process plans",
        run: run
    )

    /// Options: `--runs <n>` process runs (default 50), `--plans <n>` plans per round (default 10000),
    /// `--rounds <n>` in-process rounds (default 15), `--binary <path>` (default: the sibling `hdrshoot`).
    static func run(_ arguments: [String]) -> Int32 {
        let runs = BenchmarkSupport.option("runs", in: arguments).flatMap(Int.init) ?? 50
        let plans = BenchmarkSupport.option("plans", in: arguments).flatMap(Int.init) ?? 10_000
        let rounds = BenchmarkSupport.option("rounds", in: arguments).flatMap(Int.init) ?? 15
        let binary =
            BenchmarkSupport.option("binary", in: arguments).map { URL(fileURLWithPath: $0) }
            ?? BenchmarkSupport.siblingExecutable("hdrshoot")

        print("hdrshoot-bench plan: hdrshoot \(planArguments.joined(separator: " "))")
        let status = measureProcess(binary: binary, runs: runs)
        measureInProcess(plans: plans, rounds: rounds)
        return status
    }

    /// Spawns the binary `runs` times (after one warm-up run) and prints the median wall time.
    static func measureProcess(binary: URL, runs: Int) -> Int32 {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            print("  process:    skipped, no executable at \(binary.path)")
            print("              build it first: swift build -c release --product hdrshoot")
            return 1
        }
        do {
            var samples: [Duration] = []
            for run in 0...runs {
                let (elapsed, status) = try BenchmarkSupport.timeProcess(binary, arguments: planArguments)
                guard status == 0 else {
                    print("  process:    hdrshoot exited with \(status)")
                    return 1
                }
                if run > 0 { samples.append(elapsed) } // run 0 warms the page cache
            }
            let median = BenchmarkSupport.median(samples)
            print(
                "  process:    median \(BenchmarkSupport.format(median, in: .milliseconds)) per run "
                    + "over \(runs) runs (min \(BenchmarkSupport.format(samples.min()!, in: .milliseconds)), "
                    + "target < 20 ms) [\(binary.path)]")
            return 0
        } catch {
            print("  process:    could not run \(binary.path): \(error)")
            return 1
        }
    }

    /// Plans the same readings `plans` times per round and prints the median time per plan over `rounds`.
    static func measureInProcess(plans: Int, rounds: Int) {
        // Force-try is fine here: constant, valid inputs.
        let planner = try! BracketPlanner(frames: 5)
        let shadow = ShutterSpeed(numerator: 1, denominator: 4)
        let highlight = ShutterSpeed(numerator: 1, denominator: 1000)
        let clock = ContinuousClock()
        var checksum = 0
        var samples: [Duration] = []
        for _ in 0..<rounds {
            let start = clock.now
            for _ in 0..<plans {
                checksum &+= (try? planner.plan(shadow: shadow, highlight: highlight))?.totalExposures ?? 0
            }
            samples.append((clock.now - start) / plans)
        }
        let median = BenchmarkSupport.median(samples)
        print(
            "  in-process: median \(BenchmarkSupport.format(median, in: .microseconds)) per plan "
                + "(\(plans) plans × \(rounds) rounds, target < 5 µs; checksum \(checksum))")
    }
}
