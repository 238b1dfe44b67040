import Glibc
import NetworkMonitor
import Testing

@testable import HDRShootCLI
@testable import ShootKit

/// When the network watch pauses a shoot, with which sentence, and when it lets it go on.
@Suite("network verdict")
struct NetworkVerdictTests {
    static let camera = SSID("DIRECT-xxxx:ILCE-7M3")!
    static let home = SSID("HomeNet")!
    static let ipv4 = UInt8(AF_INET)

    static func wifi(
        _ wireless: WirelessStatus, usable: Bool = true, addresses: [String] = ["192.168.122.10"]
    ) -> NetworkSnapshot {
        NetworkSnapshot(
            interfaceName: "wlan0", interfaceIndex: 3, isUsable: usable,
            addresses: addresses.compactMap(IPAddress.init), wireless: wireless)
    }

    @Test func theCameraNetworkUpAndAddressedIsUsable() {
        #expect(
            NetworkVerdict.judge(Self.wifi(.connected(ssid: Self.camera)), cameraSSID: Self.camera, family: Self.ipv4)
                == .usable)
        // A wired or veth link (no Wi-Fi) only needs the link and an address.
        #expect(NetworkVerdict.judge(Self.wifi(.notWireless), cameraSSID: nil, family: Self.ipv4) == .usable)
        #expect(NetworkVerdict.judge(Self.wifi(.unavailable), cameraSSID: nil, family: Self.ipv4) == .usable)
    }

    @Test func anotherSSIDNamesBothNetworks() {
        let verdict = NetworkVerdict.judge(
            Self.wifi(.connected(ssid: Self.home)), cameraSSID: Self.camera, family: Self.ipv4)
        #expect(
            verdict
                == .lost(
                    message:
                        "Paused: the host left the camera's Wi-Fi 'DIRECT-xxxx:ILCE-7M3' for 'HomeNet'. Rejoin it to resume."
                ))
    }

    @Test func anotherSSIDWinsOverTheLinkBeingDownDuringARoam() {
        let verdict = NetworkVerdict.judge(
            Self.wifi(.connected(ssid: Self.home), usable: false), cameraSSID: Self.camera, family: Self.ipv4)
        #expect(
            verdict
                == .lost(
                    message:
                        "Paused: the host left the camera's Wi-Fi 'DIRECT-xxxx:ILCE-7M3' for 'HomeNet'. Rejoin it to resume."
                ))
    }

    @Test func aDisassociationSaysWhichNetworkToRejoin() {
        let verdict = NetworkVerdict.judge(
            Self.wifi(.disconnected, usable: false), cameraSSID: Self.camera, family: Self.ipv4)
        #expect(
            verdict
                == .lost(
                    message: "Paused: the host left the camera's Wi-Fi 'DIRECT-xxxx:ILCE-7M3'. Rejoin it to resume."))
        let unknown = NetworkVerdict.judge(Self.wifi(.disconnected, usable: false), cameraSSID: nil, family: Self.ipv4)
        #expect(
            unknown
                == .lost(
                    message: "Paused: the host's Wi-Fi (wlan0) disconnected. Rejoin the camera's network to resume."))
    }

    @Test func aLinkDownNamesTheInterface() {
        let verdict = NetworkVerdict.judge(Self.wifi(.notWireless, usable: false), cameraSSID: nil, family: Self.ipv4)
        #expect(
            verdict
                == .lost(message: "Paused: the network link to the camera (wlan0) went down. Reconnect it to resume."))
    }

    @Test func noAddressOfTheCameraFamilyIsLost() {
        let onlyIPv6 = Self.wifi(.connected(ssid: Self.camera), addresses: ["fe80::1"])
        guard case .lost(let message) = NetworkVerdict.judge(onlyIPv6, cameraSSID: Self.camera, family: Self.ipv4)
        else {
            Issue.record("an interface without IPv4 cannot reach an IPv4 camera")
            return
        }
        #expect(message.hasPrefix("Paused: the host has no IPv4 address on wlan0"))
        #expect(NetworkVerdict.judge(onlyIPv6, cameraSSID: Self.camera, family: UInt8(AF_INET6)) == .usable)
    }

    @Test func anUnreadableSSIDIsTakenAsTheCamerasSoTheReconnectDecides() {
        #expect(
            NetworkVerdict.judge(Self.wifi(.connected(ssid: nil)), cameraSSID: Self.camera, family: Self.ipv4)
                == .usable)
    }

    @Test func nonUTF8SSIDsAreComparedAsBytesAndPrintedEscaped() {
        let latin1 = SSID(bytes: [0x43, 0x61, 0x66, 0xE9])! // "Café" in Latin-1
        let verdict = NetworkVerdict.judge(
            Self.wifi(.connected(ssid: latin1)), cameraSSID: Self.camera, family: Self.ipv4)
        #expect(
            verdict
                == .lost(
                    message:
                        "Paused: the host left the camera's Wi-Fi 'DIRECT-xxxx:ILCE-7M3' for 'Caf\\xe9'. Rejoin it to resume."
                ))
    }

    @Test func theBackMessageNamesTheCamerasSSIDOrTheLink() {
        #expect(
            NetworkVerdict.backMessage(Self.wifi(.connected(ssid: Self.camera)), cameraSSID: Self.camera)
                == "The host is back on the camera's Wi-Fi 'DIRECT-xxxx:ILCE-7M3'; continuing once the camera answers.")
        #expect(
            NetworkVerdict.backMessage(Self.wifi(.notWireless), cameraSSID: nil)
                == "The network link to the camera (wlan0) is back; continuing once the camera answers.")
    }

    @Test func theWatchResolvesLiteralsWithoutALookup() async {
        #expect(await NetworkWatch.resolve("10.231.0.2")?.description == "10.231.0.2")
        #expect(await NetworkWatch.resolve("::1")?.description == "::1")
        #expect(await NetworkWatch.resolve("localhost") != nil) // /etc/hosts, no network traffic
    }

    @Test func theCameraAbsentFromTheHostsAccessPointIsLostButTheLinkDownSaysSoFirst() throws {
        let mac = try #require(MACAddress("02:00:00:00:01:00"))
        var snapshot = Self.wifi(.connected(ssid: Self.camera))
        snapshot.station = .absent(mac)
        #expect(
            NetworkVerdict.judge(snapshot, cameraSSID: Self.camera, family: Self.ipv4)
                == .lost(
                    message: "Paused: the camera (02:00:00:00:01:00) left the access point on wlan0. "
                        + "Bring it back in range, or turn its Wi-Fi on again, to resume."))
        snapshot.isUsable = false
        #expect(
            NetworkVerdict.judge(snapshot, cameraSSID: Self.camera, family: Self.ipv4)
                == .lost(message: "Paused: the network link to the camera (wlan0) went down. Reconnect it to resume."))
        snapshot.isUsable = true
        snapshot.station = .present(mac)
        #expect(NetworkVerdict.judge(snapshot, cameraSSID: Self.camera, family: Self.ipv4) == .usable)
        snapshot.station = .notFollowed
        #expect(NetworkVerdict.judge(snapshot, cameraSSID: Self.camera, family: Self.ipv4) == .usable)
    }
}
