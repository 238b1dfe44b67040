import Foundation
import Glibc
import NetworkMonitor
import Posix
import Synchronization

/// `hdrshoot-bench netmon`: what a running `NetworkMonitor` costs while nothing changes on the network.
///
/// Watches the route to 127.0.0.1 (the loopback interface, always there, needs no privileges) and prints:
/// the time `start()` takes (sockets, route lookup, link/address dumps, nl80211 family lookup), the CPU time
/// of the I/O loop thread the monitor waits on over N idle seconds (the monitor has no thread of its own; in
/// this process nothing else waits there), how often a datagram woke the monitor, the process's CPU over the
/// same seconds, and the resident-memory growth of starting it. Targets from issue 7: idle CPU ~0 (the loop
/// sleeps in poll(2) without a timeout), memory under 1 MB.
enum NetworkMonitorBenchmark {
    /// The `netmon` subcommand.
    static let benchmark = Benchmark(
        name: "netmon",
        summary: "NetworkMonitor cost: start time, I/O loop CPU over idle seconds, RSS growth of starting it",
        run: run
    )

    /// Options: `--seconds <n>` idle seconds (default 5), `--address <ip>` the route to watch (default 127.0.0.1).
    static func run(_ arguments: [String]) -> Int32 {
        let seconds = BenchmarkSupport.option("seconds", in: arguments).flatMap(Int.init) ?? 5
        let text = BenchmarkSupport.option("address", in: arguments) ?? "127.0.0.1"
        guard let address = IPAddress(text) else {
            print("hdrshoot-bench netmon: '\(text)' is not an IP address")
            return 64
        }
        let status = Mutex<Int32>(0)
        BenchmarkSupport.blocking {
            status.withLock { $0 = 1 }
            let ok = await measure(address: address, idleSeconds: seconds)
            status.withLock { $0 = ok ? 0 : 1 }
        }
        return status.withLock { $0 }
    }

    private static func measure(address: IPAddress, idleSeconds: Int) async -> Bool {
        print("hdrshoot-bench netmon: watching the route to \(address), \(idleSeconds) s idle")
        // A first monitor pays one-time costs that are not the monitor's (the I/O loop's thread,
        // lazily bound symbols, the first /proc read, the clock's sleep): print it, then measure a second.
        let coldBefore = residentBytes()
        let cold = NetworkMonitor(configuration: NetworkMonitorConfiguration(target: .routeTo(address)))
        _ = try? await cold.start()
        try? await ContinuousClock().sleep(for: .milliseconds(200))
        await cold.stop()
        print(
            "  first monitor in the process (start, 200 ms, stop): RSS +\(kibibytes(residentBytes() - coldBefore)) KiB, "
                + "one-time runtime costs included")
        let monitor = NetworkMonitor(configuration: NetworkMonitorConfiguration(target: .routeTo(address)))
        let wall = ContinuousClock()
        let rssBefore = residentBytes()
        let startedAt = wall.now
        let initial: NetworkSnapshot
        do {
            initial = try await monitor.start()
        } catch {
            print("  cannot start the monitor here: \(error)")
            await monitor.stop()
            return false
        }
        let startTime = wall.now - startedAt
        let rssAfterStart = residentBytes()

        let loop = IOEventLoop.shared
        let loopBefore = loop.threadCPUTime
        let wakeupsBefore = monitor.wakeups
        let processBefore = cpuNanoseconds(CLOCK_PROCESS_CPUTIME_ID)
        try? await wall.sleep(for: .seconds(idleSeconds))
        let threadIdle = nanoseconds(loop.threadCPUTime - loopBefore)
        let wakeups = monitor.wakeups - wakeupsBefore
        let processIdle = cpuNanoseconds(CLOCK_PROCESS_CPUTIME_ID) - processBefore
        let rssAfterIdle = residentBytes()
        await monitor.stop()

        let wireless: String
        switch initial.wireless {
        case .unavailable: wireless = "no nl80211 in this kernel"
        case .notWireless: wireless = "not a Wi-Fi interface"
        case .disconnected: wireless = "Wi-Fi, not associated"
        case .connected(let ssid): wireless = "Wi-Fi '\(ssid.map(String.init(describing:)) ?? "?")'"
        }
        print(
            "  interface:             \(initial.interfaceName ?? "?") (\(initial.isUsable ? "up" : "down"), \(wireless))"
        )
        print("  start():               \(BenchmarkSupport.format(startTime, in: .milliseconds))")
        print(
            "  I/O loop thread CPU:   \(threadIdle) ns over \(idleSeconds) s idle "
                + String(format: "(%.4f%% of one core); ", Double(threadIdle) / Double(idleSeconds) / 1e7)
                + "the monitor woke \(wakeups) times")
        print("  whole process CPU:     \(processIdle) ns over the same \(idleSeconds) s")
        print("  RSS growth, start:     \(kibibytes(rssAfterStart - rssBefore)) KiB")
        print("  RSS growth, +idle:     \(kibibytes(rssAfterIdle - rssBefore)) KiB (target: under 1024 KiB)")
        return true
    }

    /// The process's resident set from /proc/self/statm, in bytes.
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    private static func kibibytes(_ bytes: Int) -> Int { bytes / 1024 }

    private static func nanoseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
    }

    /// The CPU time `clock` has counted, in nanoseconds.
    private static func cpuNanoseconds(_ clock: clockid_t) -> Int {
        var time = timespec()
        clock_gettime(clock, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }
}
