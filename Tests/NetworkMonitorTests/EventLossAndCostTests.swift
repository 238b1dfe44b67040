import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import NetworkMonitor

/// Moves a thread-confined object between the dedicated threads of one test (never used concurrently).
final class ThreadHandoff<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

@Suite(
    "lost events (ENOBUFS) and the monitor's cost, on the real kernel", .serialized, .realTime,
    .enabled(if: TestHost.canMakeNetworkNamespaces, TestHost.networkNamespacesReason))
struct EventLossAndCostTests {
    /// Writes an `ip -batch` file toggling `link` `count` times, ending with it down.
    private func floodFile(link: String, count: Int) throws -> URL {
        let lines =
            (0..<count).map { _ in "link set \(link) down\nlink set \(link) up\n" }.joined() + "link set \(link) down\n"
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("netmon-flood-\(getpid()).batch")
        try lines.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func tinyReceiveBufferOverflowsIntoEventsLost() async throws {
        try await VethNamespaces.with { pair in
            let socket = try await onThread(inNamespace: pair.hostNamespace) {
                let socket = try NetlinkSocket(netlinkProtocol: NetlinkProtocol.route, receiveBufferSize: 1)
                try socket.join(group: Rtnetlink.groupLink)
                return ThreadHandoff(socket)
            }
            let file = try floodFile(link: pair.hostLink, count: 20)
            defer { try? FileManager.default.removeItem(at: file) }
            try await pair.ip(["-n", pair.hostNamespace, "-batch", file.path])
            let lost = try await onThread(inNamespace: nil) { () -> Bool in
                while true {
                    do {
                        guard try socket.value.receive(wait: false) != nil else { return false }
                    } catch {
                        return (error as? NetworkMonitorError) == .eventsLost
                    }
                }
            }
            #expect(lost, "a full netlink socket must report ENOBUFS as eventsLost")
        }
    }

    @Test func monitorRereadsTheStateAfterLosingEvents() async throws {
        try await VethNamespaces.with { pair in
            var configuration = NetworkMonitorConfiguration(target: .interface(name: pair.hostLink))
            configuration.eventReceiveBufferSize = 1
            let settings = configuration
            let sink = LockedLog<NetworkEvent>()
            let engine = try await onThread(inNamespace: pair.hostNamespace) {
                ThreadHandoff(try MonitorEngine(configuration: settings) { sink.append($0) })
            }
            // Wait for the link to settle (carrier up) so the flood starts from a usable link.
            for _ in 0..<100 where !engine.value.snapshot.isUsable {
                try await onThread(inNamespace: nil) { try engine.value.handlePendingEvents() }
                try await ContinuousClock().sleep(for: .milliseconds(10))
            }
            #expect(engine.value.snapshot.isUsable)
            sink.removeAll()

            let file = try floodFile(link: pair.hostLink, count: 50)
            defer { try? FileManager.default.removeItem(at: file) }
            try await pair.ip(["-n", pair.hostNamespace, "-batch", file.path])
            try await onThread(inNamespace: nil) { try engine.value.handlePendingEvents() }

            let events = sink.all
            #expect(events.first == .eventsLost)
            #expect(
                events.last(where: {
                    $0 == .linkUp(interface: pair.hostLink) || $0 == .linkDown(interface: pair.hostLink)
                })
                    == .linkDown(interface: pair.hostLink))
            #expect(engine.value.snapshot.isUsable == false)
            #expect(events.count < 10, "after a loss the state is re-read, not replayed: \(events)")
        }
    }

    @Test func idleMonitorUsesNoCPUAndLittleMemory() async throws {
        try await VethNamespaces.with { pair in
            let cpuClock = Mutex<clockid_t?>(nil)
            let rssBefore = residentBytes()
            var configuration = NetworkMonitorConfiguration(target: .interface(name: pair.hostLink))
            configuration.prepareThread = {
                try pair.enterHostNamespace()
                var clock = clockid_t()
                if pthread_getcpuclockid(pthread_self(), &clock) == 0 { cpuClock.withLock { $0 = clock } }
            }
            let monitor = NetworkMonitor(configuration: configuration)
            let log = EventLog()
            let collector = collect(monitor, into: log)
            _ = try await monitor.start()

            // Idle: nothing changes on the link, so the thread must sleep in poll the whole second.
            // (IPv6 duplicate address detection may still send a late address event or two; each costs
            // tens of microseconds, while a polling loop would cost milliseconds.)
            let clock = try #require(cpuClock.withLock { $0 })
            let cpuStart = threadCPUNanoseconds(clock)
            try await ContinuousClock().sleep(for: .seconds(1))
            let idleCPU = threadCPUNanoseconds(clock) - cpuStart

            for _ in 0..<20 { // some traffic: 40 link events, each fully handled
                try await pair.setCameraLink(up: false)
                try await pair.setCameraLink(up: true)
            }
            // The kernel may coalesce quick toggles; wait until the last "up" has been seen.
            _ = try await eventually(timeout: .seconds(3)) { monitor.snapshot.isUsable }
            let handled = await log.events.count
            let rssAfter = residentBytes()
            let busyCPU = threadCPUNanoseconds(clock) - cpuStart - idleCPU
            await monitor.stop()
            await collector.value

            let growth = rssAfter - rssBefore
            print(
                "netmon: monitor thread CPU idle over 1 s: \(idleCPU) ns; for 40 link toggles (\(handled) events): \(busyCPU) ns; "
                    + "RSS growth after start + 40 link events: \(growth / 1024) KiB")
            #expect(idleCPU < 5_000_000, "an idle monitor must sleep in poll, not spin")
            // Memory is a figure, not an assertion: the whole test process's RSS moves with the other suites.
        }
    }

    private func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    private func threadCPUNanoseconds(_ clock: clockid_t) -> Int {
        var time = timespec()
        clock_gettime(clock, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }
}
