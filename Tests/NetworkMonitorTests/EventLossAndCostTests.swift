import Foundation
import Glibc
import Posix
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
            var lost = false
            do { while try socket.value.receive() != nil {} } catch {
                lost = (error as? NetworkMonitorError) == .eventsLost
            }
            #expect(lost, "a full netlink socket must report ENOBUFS as eventsLost")
        }
    }

    @Test func monitorRereadsTheStateAfterLosingEvents() async throws {
        try await VethNamespaces.with { pair in
            var configuration = NetworkMonitorConfiguration(target: .interface(name: pair.hostLink))
            configuration.eventReceiveBufferSize = 1
            configuration.prepareSocketThread = { try pair.enterHostNamespace() }
            let sink = LockedLog<NetworkEvent>()
            let sockets = try await MonitorSockets.open(preparing: configuration)
            let engine = try await MonitorEngine.open(configuration: configuration, sockets: sockets) {
                sink.append($0)
            }
            // Wait for the link to settle (carrier up) so the flood starts from a usable link.
            let settled = try await eventually(timeout: .seconds(3)) {
                try await engine.handlePendingEvents()
                return await engine.snapshot.isUsable
            }
            #expect(settled)
            sink.removeAll()

            let file = try floodFile(link: pair.hostLink, count: 50)
            defer { try? FileManager.default.removeItem(at: file) }
            try await pair.ip(["-n", pair.hostNamespace, "-batch", file.path])
            try await engine.handlePendingEvents()

            let events = sink.all
            #expect(events.first == .eventsLost)
            #expect(
                events.last(where: {
                    $0 == .linkUp(interface: pair.hostLink) || $0 == .linkDown(interface: pair.hostLink)
                })
                    == .linkDown(interface: pair.hostLink))
            #expect(await engine.snapshot.isUsable == false)
            #expect(events.count < 10, "after a loss the state is re-read, not replayed: \(events)")
        }
    }

    @Test func idleMonitorIsParkedOnTheLoopAndUsesLittleMemory() async throws {
        try await VethNamespaces.with { pair in
            let rssBefore = residentBytes()
            var configuration = NetworkMonitorConfiguration(target: .interface(name: pair.hostLink))
            configuration.prepareSocketThread = { try pair.enterHostNamespace() }
            let monitor = NetworkMonitor(configuration: configuration)
            let log = EventLog()
            let collector = collect(monitor, into: log)
            let initial = try await monitor.start()
            if !initial.isUsable { _ = await log.waitFor { $0 == .linkUp(interface: pair.hostLink) } }

            // Idle: nothing changes on the link, so the monitor's task stays parked on the I/O loop the whole
            // second. (IPv6 duplicate address detection may still send a late address event or two; a polling
            // monitor would wake hundreds of times.) The wake count does not depend on the host's load; the loop
            // thread's CPU is printed as a figure (other suites may use the same loop at the same time).
            let loop = IOEventLoop.shared
            let wakeupsBefore = monitor.wakeups
            let loopCPUBefore = loop.threadCPUTime
            try await ContinuousClock().sleep(for: .seconds(1))
            let idleWakeups = monitor.wakeups - wakeupsBefore
            let idleCPU = loop.threadCPUTime - loopCPUBefore

            for _ in 0..<20 { // some traffic: 40 link events, each fully handled
                try await pair.setCameraLink(up: false)
                try await pair.setCameraLink(up: true)
            }
            // The kernel may coalesce quick toggles; wait until the last "up" has been seen.
            _ = try await eventually(timeout: .seconds(3)) { monitor.snapshot.isUsable }
            let handled = await log.events.count
            let busyWakeups = monitor.wakeups - wakeupsBefore - idleWakeups
            let rssAfter = residentBytes()
            await monitor.stop()
            await collector.value

            let growth = rssAfter - rssBefore
            print(
                "netmon: idle over 1 s: \(idleWakeups) wake-ups, I/O loop thread CPU \(idleCPU); "
                    + "40 link toggles (\(handled) events): \(busyWakeups) wake-ups; "
                    + "RSS growth after start + 40 link events: \(growth / 1024) KiB")
            #expect(idleWakeups <= 5, "an idle monitor must stay parked on the loop, not poll")
            #expect(busyWakeups > 0, "the toggles must wake the monitor")
            // Memory is a figure, not an assertion: the whole test process's RSS moves with the other suites.
        }
    }

    private func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}
