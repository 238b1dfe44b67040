import Foundation
import TestSupport
import Testing

@testable import NetworkMonitor

/// The camera as a station of the host's own access point, end to end through the monitor: its generic
/// netlink sockets talk NETLINK_USERSOCK to a fake kernel that answers GET_INTERFACE with NL80211_IFTYPE_AP
/// and GET_STATION from its station table, and multicasts NEW_STATION/DEL_STATION on `mlme` as
/// cfg80211 does for hostapd; rtnetlink is the real kernel's, watching `lo` read-only.
@Suite("nl80211 stations of an access point, against a fake kernel", .serialized)
struct NL80211StationFakeKernelTests {
    let camera = MACAddress("02:00:00:00:01:00")!
    let phone = MACAddress("02:00:00:00:02:00")!
    let accessPoint = SSID("hdrshoot-pi")!

    private func monitor(for kernel: FakeNL80211Kernel, station: StationTarget?) -> NetworkMonitor {
        var configuration = NetworkMonitorConfiguration(target: .interface(name: "lo"), station: station)
        configuration.genericEndpoint = kernel.endpoint
        configuration.requestTimeout = TimingBounds.notAHang // see NL80211FakeKernelTests
        return NetworkMonitor(configuration: configuration)
    }

    private func script(
        stations: Set<MACAddress>, type: UInt32? = NL80211.interfaceTypeAccessPoint
    )
        -> FakeNL80211Kernel.Script
    {
        var script = FakeNL80211Kernel.Script(interfaceSSID: accessPoint)
        script.interfaceType = type
        script.stations = stations
        return script
    }

    @Test func followsTheCameraLeavingAndRejoiningTheAccessPointAndNoOtherStation() async throws {
        let kernel = try FakeNL80211Kernel(interfaceIndex: 1, script: script(stations: [camera, phone]))
        let monitor = monitor(for: kernel, station: .mac(camera))
        let log = EventLog()
        let collector = collect(monitor, into: log)
        do {
            let initial = try await monitor.start()
            #expect(initial.station == .present(camera))
            #expect(initial.wireless == .connected(ssid: accessPoint))

            // The phone leaves, the camera leaves another interface's AP: nothing about our camera.
            kernel.sendStation(added: false, interfaceIndex: 1, mac: phone)
            kernel.sendStation(added: false, interfaceIndex: 42, mac: camera)
            // The camera walks out of range: DEL_STATION on our interface.
            kernel.sendStation(added: false, interfaceIndex: 1, mac: camera)
            #expect(await log.waitFor { $0 == .stationLeft(mac: camera) } != nil)
            #expect(monitor.snapshot.station == .absent(camera))
            // The AP itself stays up: no Wi-Fi or link event came with it.
            #expect(monitor.snapshot.wireless == .connected(ssid: accessPoint))

            kernel.sendStation(added: true, interfaceIndex: 1, mac: phone)
            kernel.sendStation(added: true, interfaceIndex: 1, mac: camera)
            #expect(await log.waitFor { $0 == .stationJoined(mac: camera) } != nil)
            #expect(monitor.snapshot.station == .present(camera))
        } catch {
            await monitor.stop()
            await kernel.stop()
            throw error
        }
        await monitor.stop()
        await kernel.stop()
        await collector.value
        let events = await log.events
        #expect(events == [.stationLeft(mac: camera), .stationJoined(mac: camera)])
    }

    @Test func aCameraNotOnTheAccessPointAtStartIsAbsent() async throws {
        let kernel = try FakeNL80211Kernel(interfaceIndex: 1, script: script(stations: [phone]))
        let monitor = monitor(for: kernel, station: .mac(camera))
        let started: Result<NetworkSnapshot, any Error>
        do { started = .success(try await monitor.start()) } catch { started = .failure(error) }
        await monitor.stop()
        await kernel.stop()
        #expect(try started.get().station == .absent(camera))
        #expect(kernel.script.withLock { $0.stationRequests } == 1)
    }

    @Test(arguments: [NL80211.interfaceTypeAccessPoint, 2]) func stationsAreFollowedOnlyOnAnAccessPoint(
        type: UInt32
    ) async throws {
        // On a station interface (type 2), or with no station asked for, GET_STATION is never sent.
        for station in [StationTarget.mac(camera), nil] {
            let kernel = try FakeNL80211Kernel(interfaceIndex: 1, script: script(stations: [camera], type: type))
            let monitor = monitor(for: kernel, station: station)
            let started: Result<NetworkSnapshot, any Error>
            do { started = .success(try await monitor.start()) } catch { started = .failure(error) }
            await monitor.stop()
            await kernel.stop()
            let followed = type == NL80211.interfaceTypeAccessPoint && station != nil
            #expect(try started.get().station == (followed ? .present(camera) : .notFollowed))
            #expect(kernel.script.withLock { $0.stationRequests } == (followed ? 1 : 0))
        }
    }

    @Test func aStationWhoseAddressIsNotInTheNeighbourTableIsUnresolved() async throws {
        // `lo` has no neighbour entries: the camera's MAC cannot be found, so nothing is judged by it, and the
        // snapshot says so (the watch tells the photographer once that only the link is watched).
        let kernel = try FakeNL80211Kernel(interfaceIndex: 1, script: script(stations: [camera]))
        let monitor = monitor(for: kernel, station: .neighbour(IPAddress("127.0.0.1")!))
        let started: Result<NetworkSnapshot, any Error>
        do { started = .success(try await monitor.start()) } catch { started = .failure(error) }
        await monitor.stop()
        await kernel.stop()
        #expect(try started.get().station == .unresolved)
        #expect(kernel.script.withLock { $0.stationRequests } == 0)
    }
}
