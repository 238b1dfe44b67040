import Foundation
import TestSupport
import Testing

@testable import NetworkMonitor

/// The nl80211 path end to end: the monitor's generic netlink sockets talk NETLINK_USERSOCK to a fake
/// kernel; rtnetlink is the real kernel's, watching `lo` (ifindex 1) read-only.
@Suite("nl80211 against a fake kernel on NETLINK_USERSOCK", .serialized)
struct NL80211FakeKernelTests {
    let camera = SSID("DIRECT-ab:ILCE-7M3")!
    let home = SSID("HomeNet")!

    private func monitor(
        for kernel: FakeNL80211Kernel, clock: any Clock<Duration> = ContinuousClock()
    ) -> NetworkMonitor {
        var configuration = NetworkMonitorConfiguration(target: .interface(name: "lo"), clock: clock)
        configuration.genericEndpoint = kernel.endpoint
        // The fake kernel is a task of this process: under the parallel run its answer can wait seconds for a
        // thread, which a real kernel's never does. These tests are about what the answers say; the timeout has
        // its own test on the test clock (`aSilentPeerTimesOutOnTheInjectedClock`).
        if clock is ContinuousClock { configuration.requestTimeout = TimingBounds.notAHang }
        return NetworkMonitor(configuration: configuration)
    }

    @Test func followsDisconnectAndConnectToAnotherNetworkThroughTheScanFallback() async throws {
        let kernel = try FakeNL80211Kernel(interfaceIndex: 1, script: .init(interfaceSSID: camera))
        let monitor = monitor(for: kernel)
        let log = EventLog()
        let collector = collect(monitor, into: log)
        do {
            let initial = try await monitor.start()
            #expect(initial.wireless == .connected(ssid: camera))

            // An event for another interface is ignored; ours is reported with its reason.
            kernel.sendDisconnect(interfaceIndex: 42, reason: 1)
            kernel.sendDisconnect(interfaceIndex: 1, reason: 3)
            let disconnected = await log.waitFor { if case .disconnected = $0 { true } else { false } }
            let events = await log.events
            #expect(disconnected.map { events[$0] } == .disconnected(reason: 3))
            #expect(await log.events.filter { if case .disconnected = $0 { true } else { false } }.count == 1)
            #expect(monitor.snapshot.wireless == .disconnected)

            // The host joins another network; GET_INTERFACE leaves the SSID out, the scan dump has it
            // (after one interrupted dump), and the event carries no SSID element at all.
            kernel.script.withLock {
                $0.interfaceSSID = nil
                $0.scan = [(camera, false), (home, true)]
                $0.interruptNextScan = true
            }
            kernel.sendConnect(interfaceIndex: 1, status: 0)
            #expect(await log.waitFor { $0 == .ssidChanged(from: camera, to: home) } != nil)
            #expect(await log.events.contains(.connected(ssid: home)))
            #expect(kernel.script.withLock { $0.scanRequests } == 2)
            #expect(monitor.snapshot.ssid == home)

            // A failed attempt (status 17) leaves us unassociated; then back to the camera, SSID from REQ_IE only.
            kernel.sendDisconnect(interfaceIndex: 1, reason: 3)
            kernel.sendConnect(interfaceIndex: 1, status: 17)
            kernel.script.withLock { $0.scan = [] }
            kernel.sendConnect(interfaceIndex: 1, status: 0, requestSSID: camera)
            #expect(await log.waitFor { $0 == .ssidChanged(from: home, to: camera) } != nil)
            #expect(monitor.snapshot.wireless == .connected(ssid: camera))
        } catch {
            await monitor.stop()
            await kernel.stop()
            throw error
        }
        await monitor.stop()
        await kernel.stop()
        await collector.value
        let events = await log.events
        #expect(!events.contains(.wirelessUnavailable))
        #expect(events.filter { $0 == .connected(ssid: camera) }.count == 1)
    }

    @Test func roamToAnotherSSIDIsAnSSIDChange() async throws {
        let kernel = try FakeNL80211Kernel(interfaceIndex: 1, script: .init(interfaceSSID: camera))
        let monitor = monitor(for: kernel)
        let log = EventLog()
        let collector = collect(monitor, into: log)
        do {
            _ = try await monitor.start()
            kernel.sendRoam(interfaceIndex: 1) // same SSID: nothing to report
            kernel.script.withLock { $0.interfaceSSID = home }
            kernel.sendRoam(interfaceIndex: 1)
            #expect(await log.waitFor { $0 == .ssidChanged(from: camera, to: home) } != nil)
            #expect(await log.events.filter { if case .ssidChanged = $0 { true } else { false } }.count == 1)
        } catch {
            await monitor.stop()
            await kernel.stop()
            throw error
        }
        await monitor.stop()
        await kernel.stop()
        await collector.value
    }

    @Test func missingNL80211FamilyMeansRtnetlinkOnlySaidOnce() async throws {
        let kernel = try FakeNL80211Kernel(interfaceIndex: 1, script: .init(familyMissing: true))
        let monitor = monitor(for: kernel)
        let log = EventLog()
        let collector = collect(monitor, into: log)
        let started: Result<NetworkSnapshot, any Error>
        do { started = .success(try await monitor.start()) } catch { started = .failure(error) }
        await monitor.stop()
        await kernel.stop()
        await collector.value
        let initial = try started.get()
        #expect(initial.wireless == .unavailable)
        #expect(initial.interfaceName == "lo")
        #expect(await log.events == [.wirelessUnavailable])
    }

    @Test func aSilentPeerTimesOutOnTheInjectedClock() async throws {
        let kernel = try FakeNL80211Kernel(interfaceIndex: 1, script: .init(silent: true))
        let clock = TestClock()
        let monitor = monitor(for: kernel, clock: clock)
        let start = Task { try await monitor.start() }
        // The request waits on the I/O loop with its 2 s bound on the test clock: no real time passes.
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(1999))
        #expect(clock.sleeperCount == 1, "the request gave up before its 2 s")
        clock.advance(by: .milliseconds(1))
        let outcome = await start.result
        await monitor.stop()
        await kernel.stop()
        #expect(throws: NetworkMonitorError.requestTimedOut(request: "CTRL_CMD_GETFAMILY nl80211")) {
            try outcome.get()
        }
    }
}
