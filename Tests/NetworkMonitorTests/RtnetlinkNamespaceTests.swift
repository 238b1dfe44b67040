import Foundation
import Glibc
import Posix
import TestSupport
import Testing

@testable import NetworkMonitor

/// The monitor against the real kernel's rtnetlink, in namespaces the test creates and always deletes.
@Suite(
    "rtnetlink on the real kernel, in a network namespace", .serialized, .realTime,
    .enabled(if: TestHost.canMakeNetworkNamespaces, TestHost.networkNamespacesReason))
struct RtnetlinkNamespaceTests {
    @Test func reportsLinkDownAndLinkUpAfter() async throws {
        try await VethNamespaces.with { pair in
            var configuration = NetworkMonitorConfiguration(
                target: .routeTo(try #require(IPAddress(pair.cameraAddress))))
            configuration.prepareSocketThread = { try pair.enterHostNamespace() }
            let monitor = NetworkMonitor(configuration: configuration)
            let log = EventLog()
            let collector = collect(monitor, into: log)
            defer { collector.cancel() }
            do {
                let initial = try await monitor.start()
                #expect(initial.interfaceName == pair.hostLink)
                #expect(initial.addresses.map(\.description).contains(pair.hostAddress))
                // This kernel may or may not have cfg80211; on a veth, Wi-Fi is never there.
                #expect(initial.wireless == .unavailable || initial.wireless == .notWireless)
                if !initial.isUsable { // carrier may still be settling right after creation
                    #expect(await log.waitFor { $0 == .linkUp(interface: pair.hostLink) } != nil)
                }

                let clock = ContinuousClock()
                let before = await log.events.count
                let downAt = clock.now
                try await pair.setCameraLink(up: false)
                let down = await log.waitFor(after: before) { $0 == .linkDown(interface: pair.hostLink) }
                let downLatency = clock.now - downAt
                // The latency is a figure (the 1 s pause target is measured, not asserted: on a loaded host the
                // same code took 3 s), the event itself is the check.
                #expect(down != nil, "no linkDown")
                #expect(monitor.snapshot.isUsable == false)
                print("netmon: linkDown reported \(downLatency) after starting `ip link set down`")

                let afterDown = await log.events.count
                try await pair.setCameraLink(up: true)
                #expect(await log.waitFor(after: afterDown) { $0 == .linkUp(interface: pair.hostLink) } != nil)
                #expect(monitor.snapshot.isUsable)

                let extra = try #require(IPAddress("10.231.0.9"))
                try await pair.ip(["-n", pair.hostNamespace, "addr", "add", "10.231.0.9/24", "dev", pair.hostLink])
                #expect(await log.waitFor { $0 == .addressGained(interface: pair.hostLink, address: extra) } != nil)
                try await pair.ip(["-n", pair.hostNamespace, "addr", "del", "10.231.0.9/24", "dev", pair.hostLink])
                #expect(await log.waitFor { $0 == .addressLost(interface: pair.hostLink, address: extra) } != nil)
            } catch {
                await monitor.stop()
                throw error
            }
            await monitor.stop()
            await collector.value
        }
    }

    @Test func reportsRemovalAsLinkDownAndFollowsTheLinkWhenItReturns() async throws {
        try await VethNamespaces.with { pair in
            var configuration = NetworkMonitorConfiguration(target: .interface(name: pair.hostLink))
            configuration.prepareSocketThread = { try pair.enterHostNamespace() }
            let monitor = NetworkMonitor(configuration: configuration)
            let log = EventLog()
            let collector = collect(monitor, into: log)
            do {
                let initial = try await monitor.start()
                if !initial.isUsable { _ = await log.waitFor { $0 == .linkUp(interface: pair.hostLink) } }
                try await pair.ip(["-n", pair.hostNamespace, "link", "del", pair.hostLink])
                #expect(await log.waitFor { $0 == .linkDown(interface: pair.hostLink) } != nil)
                let monitorAddress = try #require(IPAddress(pair.hostAddress))
                #expect(
                    await log.waitFor { $0 == .addressLost(interface: pair.hostLink, address: monitorAddress) } != nil)

                // A new link with the same name (new ifindex) is adopted: an unplugged adapter coming back.
                let before = await log.events.count
                try await pair.ip([
                    "-n", pair.hostNamespace, "link", "add", pair.hostLink, "type", "veth",
                    "peer", "name", "nm2"
                ])
                try await pair.ip(["-n", pair.hostNamespace, "link", "set", "nm2", "up"])
                try await pair.ip(["-n", pair.hostNamespace, "link", "set", pair.hostLink, "up"])
                #expect(await log.waitFor(after: before) { $0 == .linkUp(interface: pair.hostLink) } != nil)
                #expect(monitor.snapshot.interfaceIndex != initial.interfaceIndex)
            } catch {
                await monitor.stop()
                throw error
            }
            await monitor.stop()
            await collector.value
        }
    }

    @Test func findsTheInterfaceFromTheConnectedSocketsLocalAddress() async throws {
        try await VethNamespaces.with { pair in
            var configuration = NetworkMonitorConfiguration(
                target: .localAddress(try #require(IPAddress(pair.hostAddress))))
            configuration.prepareSocketThread = { try pair.enterHostNamespace() }
            let monitor = NetworkMonitor(configuration: configuration)
            let initial = try await monitor.start()
            await monitor.stop()
            #expect(initial.interfaceName == pair.hostLink)
            #expect(initial.interfaceIndex == 5)
        }
    }

    @Test func refusesToStartWithoutARouteToTheCamera() async throws {
        try await VethNamespaces.with { pair in
            var configuration = NetworkMonitorConfiguration(target: .routeTo(try #require(IPAddress("198.51.100.7"))))
            configuration.prepareSocketThread = { try pair.enterHostNamespace() }
            let monitor = NetworkMonitor(configuration: configuration)
            await #expect(throws: NetworkMonitorError.interfaceNotFound("route to 198.51.100.7")) {
                try await monitor.start()
            }
            await monitor.stop()
        }
    }

    @Test func findsTheCamerasHardwareAddressInTheNeighbourTable() async throws {
        // What the watch does to follow the camera as a station of the host's access point: its IP address
        // to its MAC through RTM_GETNEIGH, on the interface that routes to it (a veth here; no cfg80211).
        try await VethNamespaces.with { pair in
            try await pair.ip([
                "-n", pair.hostNamespace, "neigh", "replace", pair.cameraAddress, "lladdr", "02:00:00:00:01:00",
                "dev", pair.hostLink, "nud", "permanent"
            ])
            let raw = try await onThread(inNamespace: pair.hostNamespace) {
                try monitorCall { () throws(SocketFailure) in try RawNetlinkSocket(netlinkProtocol: 0) }
            }
            let requests = NetlinkRequester(
                socket: NetlinkSocket(raw), endpoint: .route, timeout: TimingBounds.notAHang)
            defer { raw.close() }
            let camera = try #require(IPAddress(pair.cameraAddress))
            #expect(
                try await MonitorEngine.neighbourMAC(of: camera, on: 5, using: requests)
                    == MACAddress("02:00:00:00:01:00"))
            // Not on another interface, and not for another address.
            #expect(try await MonitorEngine.neighbourMAC(of: camera, on: 1, using: requests) == nil)
            let other = try #require(IPAddress("10.231.0.67"))
            #expect(try await MonitorEngine.neighbourMAC(of: other, on: 5, using: requests) == nil)
        }
    }
}
