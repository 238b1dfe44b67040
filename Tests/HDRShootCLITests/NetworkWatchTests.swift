import Exposure
import Foundation
import Glibc
import NetworkMonitor
import Shooting
import Synchronization
import TestSupport
import Testing

@testable import HDRShootCLI
@testable import ShootKit

/// The watch's wiring: monitor events (scripted, with the snapshot the monitor would hold after each) into a
/// real `BracketRunner`'s `.network` hold and its journal. The real kernel is covered by
/// `NetworkPauseEndToEndTests`; Wi-Fi cannot be made in a namespace, so its sequences are scripted here.
@Suite("network watch wiring")
struct NetworkWatchTests {
    static let camera = SSID("DIRECT-xxxx:ILCE-7M3")!
    static let home = SSID("HomeNet")!
    static let leftForHome =
        "Paused: the host left the camera's Wi-Fi 'DIRECT-xxxx:ILCE-7M3' for 'HomeNet'. Rejoin it to resume."
    static let left = "Paused: the host left the camera's Wi-Fi 'DIRECT-xxxx:ILCE-7M3'. Rejoin it to resume."
    static let back =
        "The host is back on the camera's Wi-Fi 'DIRECT-xxxx:ILCE-7M3'; continuing once the camera answers."

    static func wifi(_ wireless: WirelessStatus, usable: Bool = true) -> NetworkSnapshot {
        NetworkSnapshot(
            interfaceName: "wlan0", interfaceIndex: 3, isUsable: usable,
            addresses: [IPAddress("192.168.122.10")!], wireless: wireless)
    }

    /// A runner (never started: holds and their journal entries work before `run`) with a journal on disk.
    struct Rig {
        let runner: BracketRunner
        let recorder: JournalRecorder
        let folder: URL

        init() async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "hdrshoot-watch-\(UUID().uuidString)")
            let store = JournalStore(directory: folder.appendingPathComponent("state"))
            let plan = BracketPlan(sets: [
                [ShutterSpeed(numerator: 1, denominator: 1000), ShutterSpeed(numerator: 1, denominator: 500)]
            ])
            let journal = ShootJournal(
                plan: plan, camera: CameraIdentity(model: "ILCE-7M3", address: "192.168.122.1:15740"),
                outputDirectory: folder.appendingPathComponent("out").path)
            try await store.create(journal)
            recorder = JournalRecorder(journal: journal, store: store)
            runner = makeRunner(
                InMemoryCamera(), plan: plan, recorder: recorder, outputDirectory: folder.appendingPathComponent("out"))
        }

        /// The journal's pause and resume entries, as (paused?, detail).
        func holds() async -> [(paused: Bool, detail: String?)] {
            await recorder.journal.log.compactMap { entry in
                switch entry.event {
                case .paused(let reason) where reason.kind == .network: (true, reason.detail)
                case .resumed(let reason) where reason.kind == .network: (false, reason.detail)
                default: nil
                }
            }
        }
    }

    /// Runs the watch over `steps` (each event with the snapshot the monitor holds once it is reported,
    /// `initial` first); ends the events with `ending` (nil: finish normally). Returns notes and failures.
    static func follow(
        _ rig: Rig, initial: NetworkSnapshot, steps: [(NetworkEvent, NetworkSnapshot)], ending: (any Error)? = nil
    ) async -> (notes: [String], failures: [String]) {
        let snapshots = Mutex([initial] + steps.filter { $0.0 != .wirelessUnavailable }.map(\.1))
        let (events, sink) = AsyncThrowingStream.makeStream(of: NetworkEvent.self)
        for (event, _) in steps { sink.yield(event) }
        sink.finish(throwing: ending)
        var notes: [String] = []
        var failures: [String] = []
        await NetworkWatch.follow(
            events, snapshot: { snapshots.withLock { $0.removeFirst() } }, cameraSSID: camera, family: UInt8(AF_INET),
            into: rig.runner, note: { notes.append($0) }, failed: { failures.append("\($0)") })
        #expect(snapshots.withLock { $0.isEmpty }, "one judgement per event")
        return (notes, failures)
    }

    @Test func aRoamToAnotherSSIDPausesWithBothNamesAndTheWayBackResumes() async throws {
        let rig = try await Rig()
        defer { try? FileManager.default.removeItem(at: rig.folder) }
        let (notes, failures) = await Self.follow(
            rig, initial: Self.wifi(.connected(ssid: Self.camera)),
            steps: [
                (.ssidChanged(from: Self.camera, to: Self.home), Self.wifi(.connected(ssid: Self.home))),
                (
                    .addressLost(interface: "wlan0", address: IPAddress("192.168.122.10")!),
                    Self.wifi(.connected(ssid: Self.home))
                ),
                (.ssidChanged(from: Self.home, to: Self.camera), Self.wifi(.connected(ssid: Self.camera)))
            ])
        var shown = rig.runner.events.makeAsyncIterator()
        guard case .paused(let paused)? = await shown.next(), case .resumed(let resumed)? = await shown.next() else {
            Issue.record("expected paused then resumed")
            return
        }
        #expect(paused == PauseReason(.network, detail: Self.leftForHome))
        #expect(resumed == PauseReason(.network, detail: Self.back))
        #expect(notes.isEmpty && failures.isEmpty)
        #expect(await rig.holds().map(\.paused) == [true, false])
        #expect(await rig.holds().map(\.detail) == [Self.leftForHome, Self.back])
        #expect(await rig.runner.activeHolds.isEmpty)
    }

    @Test func theCameraLeavingTheHostsAccessPointPausesAndItsReturnResumes() async throws {
        // The Pi is the access point: its own link and SSID never change, only the camera's station does.
        let rig = try await Rig()
        defer { try? FileManager.default.removeItem(at: rig.folder) }
        let mac = try #require(MACAddress("02:00:00:00:01:00"))
        func accessPoint(_ station: StationStatus) -> NetworkSnapshot {
            var snapshot = Self.wifi(.connected(ssid: Self.camera))
            snapshot.station = station
            return snapshot
        }
        let (notes, failures) = await Self.follow(
            rig, initial: accessPoint(.present(mac)),
            steps: [
                (.stationLeft(mac: mac), accessPoint(.absent(mac))),
                (.stationJoined(mac: mac), accessPoint(.present(mac)))
            ])
        let left =
            "Paused: the camera (02:00:00:00:01:00) left the access point on wlan0. "
            + "Bring it back in range, or turn its Wi-Fi on again, to resume."
        let back = "The camera is back on the access point (wlan0); continuing once the camera answers."
        #expect(await rig.holds().map(\.paused) == [true, false])
        #expect(await rig.holds().map(\.detail) == [left, back])
        #expect(notes.isEmpty && failures.isEmpty)
        #expect(await rig.runner.activeHolds.isEmpty)
    }

    @Test func disconnectThenAnotherNetworkPausesOnceAndNotesTheNewNetwork() async throws {
        let rig = try await Rig()
        defer { try? FileManager.default.removeItem(at: rig.folder) }
        let (notes, _) = await Self.follow(
            rig, initial: Self.wifi(.connected(ssid: Self.camera)),
            steps: [
                (.disconnected(reason: 3), Self.wifi(.disconnected, usable: true)),
                (.linkDown(interface: "wlan0"), Self.wifi(.disconnected, usable: false)),
                (.connected(ssid: Self.home), Self.wifi(.connected(ssid: Self.home), usable: false)),
                (.ssidChanged(from: Self.camera, to: Self.home), Self.wifi(.connected(ssid: Self.home), usable: false)),
                (.linkUp(interface: "wlan0"), Self.wifi(.connected(ssid: Self.home)))
            ])
        #expect(notes == [Self.leftForHome])
        #expect(await rig.holds().map(\.paused) == [true])
        #expect(await rig.holds().first?.detail == Self.left)
        #expect(await rig.runner.activeHolds == [PauseReason(.network, detail: Self.left)])
    }

    @Test func lostEventsAreAnsweredFromTheReReadState() async throws {
        let rig = try await Rig()
        defer { try? FileManager.default.removeItem(at: rig.folder) }
        // The kernel dropped the link-down/link-up events: the re-read state after ENOBUFS decides.
        _ = await Self.follow(
            rig, initial: Self.wifi(.notWireless),
            steps: [
                (.wirelessUnavailable, Self.wifi(.notWireless)),
                (.eventsLost, Self.wifi(.notWireless, usable: false)),
                (.eventsLost, Self.wifi(.notWireless))
            ])
        #expect(
            await rig.holds().map(\.detail) == [
                "Paused: the network link to the camera (wlan0) went down. Reconnect it to resume.",
                "The network link to the camera (wlan0) is back; continuing once the camera answers."
            ])
    }

    @Test func aMonitorThatDiesReleasesItsHoldSoTheReconnectDecides() async throws {
        let rig = try await Rig()
        defer { try? FileManager.default.removeItem(at: rig.folder) }
        let (_, failures) = await Self.follow(
            rig, initial: Self.wifi(.connected(ssid: Self.camera)),
            steps: [
                (.linkDown(interface: "wlan0"), Self.wifi(.connected(ssid: Self.camera), usable: false))
            ], ending: NetworkMonitorError.closed)
        #expect(failures == ["network monitor closed"])
        #expect(await rig.holds().map(\.paused) == [true, false])
        #expect(await rig.runner.activeHolds.isEmpty)
    }

    @Test func aCameraWithNoNeighbourEntryIsSaidOnceAndTheLinkStillPauses() async throws {
        // The Pi is the access point but the camera's address has no neighbour entry: its station cannot be
        // followed. That is said once (a note: the terminal's line and the page's), and the link is still watched.
        let rig = try await Rig()
        defer { try? FileManager.default.removeItem(at: rig.folder) }
        func accessPoint(usable: Bool) -> NetworkSnapshot {
            var snapshot = Self.wifi(.connected(ssid: Self.camera), usable: usable)
            snapshot.station = .unresolved
            return snapshot
        }
        let (notes, failures) = await Self.follow(
            rig, initial: accessPoint(usable: true),
            steps: [
                (.addressGained(interface: "wlan0", address: IPAddress("192.168.122.11")!), accessPoint(usable: true)),
                (.linkDown(interface: "wlan0"), accessPoint(usable: false)),
                (.linkUp(interface: "wlan0"), accessPoint(usable: true))
            ])
        #expect(
            notes == [
                "Network watch: wlan0 is the camera's access point, but the camera has no neighbour entry there, "
                    + "so its leaving is not seen; pausing only if wlan0 itself drops."
            ])
        #expect(failures.isEmpty)
        #expect(await rig.holds().map(\.paused) == [true, false])
        #expect(await rig.runner.activeHolds.isEmpty)
    }

    @Test func aHostAlreadyOffTheCameraNetworkPausesAtOnce() async throws {
        let rig = try await Rig()
        defer { try? FileManager.default.removeItem(at: rig.folder) }
        _ = await Self.follow(rig, initial: Self.wifi(.connected(ssid: Self.home)), steps: [])
        #expect(await rig.holds().map(\.detail) == [Self.leftForHome])
    }

    @Test func aMonitorThatCannotStartPrintsOneWarningAndNothingElse() async throws {
        let output = CapturedOutput()
        // An address nothing routes to in a namespace of its own would need root; an unknown interface name
        // fails the same way (interface lookup) without touching any network.
        let watch = await NetworkWatch.start(
            watching: NetworkMonitorConfiguration(target: .interface(name: "hdrshoot-none0")),
            cameraAddress: IPAddress("10.231.0.2")!, messages: CLIMessages(), warn: { output.writeError($0 + "\n") })
        #expect(watch == nil)
        #expect(output.standardError.split(separator: "\n").count == 1)
        #expect(output.standardError.hasPrefix("warning: not watching the network to the camera ("))
        // The reason is NetworkMonitorError's line: what was looked for (or, without netlink, that it is missing).
        #expect(
            output.standardError.contains("(no network interface for the interface hdrshoot-none0)")
                || output.standardError.contains("(netlink is not available here: "), "\(output.standardError)")
        #expect(output.standardError.hasSuffix("the shoot goes on without pausing when the network drops\n"))
        #expect(output.standardOutput.isEmpty)
    }
}
