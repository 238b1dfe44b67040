import ByteCoding
import Foundation
import TestSupport
import Testing

@testable import NetworkMonitor

@Suite("rtnetlink decoding of real messages", .enabled(if: Fixtures.available, Fixtures.skipReason))
struct RtnetlinkDecoderTests {
    @Test(
        arguments: [
            ("linux-6.18-netns/rtm_newlink_created_down.hex", OperationalState.down, false),
            ("linux-6.18-netns/rtm_newlink_admin_up_no_carrier.hex", .lowerLayerDown, false),
            ("linux-6.18-netns/rtm_newlink_carrier_up_running.hex", .up, true),
            ("linux-6.18-netns/rtm_newlink_linkmode_dormant_still_up.hex", .up, true),
            ("linux-6.18-netns/rtm_newlink_operstate_dormant.hex", .dormant, false),
            ("linux-6.18-netns/rtm_newlink_carrier_lost.hex", .lowerLayerDown, false),
            ("pyroute2/rtm_newlink_wifi_wlp0s20f3_from_nl0pcap.hex", .up, true)
        ] as [(String, OperationalState, Bool)])
    func newLinkGivesOperstateAndUsability(path: String, state: OperationalState, usable: Bool) throws {
        let link = try LinkMessage(message: try fixtureMessage(path))
        #expect(link.operationalState == state)
        #expect(link.isUsable == usable)
        #expect(!link.isRemoval)
        #expect(link.name == (path.hasPrefix("pyroute2") ? "wlp0s20f3" : "veth0"))
    }

    @Test func dormantWiFiKeepsLowerUpButLosesRunning() throws {
        let link = try LinkMessage(message: try fixtureMessage("linux-6.18-netns/rtm_newlink_operstate_dormant.hex"))
        #expect(link.flags & Rtnetlink.flagLowerUp != 0)
        #expect(link.flags & Rtnetlink.flagRunning == 0)
        #expect(link.linkMode == 1)
    }

    @Test func supplicantManagedWiFiIsInDormantLinkMode() throws {
        let link = try LinkMessage(message: try fixtureMessage("pyroute2/rtm_newlink_wifi_wlp0s20f3_from_nl0pcap.hex"))
        #expect(link.linkMode == 1)
        #expect(link.index == 2)
    }

    @Test func delLinkIsARemovalAndNeverUsable() throws {
        let link = try LinkMessage(message: try fixtureMessage("linux-6.18-netns/rtm_dellink_veth0.hex"))
        #expect(link.isRemoval)
        #expect(!link.isUsable)
        #expect(link.index == 3)
    }

    @Test func newAndDelAddressGiveTheIPv4Address() throws {
        let added = try AddressMessage(message: try fixtureMessage("linux-6.18-netns/rtm_newaddr_ipv4.hex"))
        #expect(added == AddressMessage.make(index: 3, prefix: 24, address: "192.0.2.1", removal: false))
        let removed = try AddressMessage(message: try fixtureMessage("linux-6.18-netns/rtm_deladdr_ipv4.hex"))
        #expect(removed == AddressMessage.make(index: 3, prefix: 24, address: "192.0.2.1", removal: true))
        let loopback = try AddressMessage(message: try fixtureMessage("pyroute2/rtm_newaddr_lo.hex"))
        #expect(loopback.address?.description == "127.0.0.1")
    }

    @Test func getLinkDumpEndsWithDoneInItsOwnDatagram() throws {
        let url = Fixtures.root.appendingPathComponent("netlink/linux-6.18-netns/rtm_getlink_dump_netns.json")
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: url)) as? [String: Any]
        let request = try #require(json?["request_hex"] as? String)
        #expect(RtnetlinkRequest.dumpLinks(sequence: 0x309).encoded() == Fixtures.hexBytes(request))
        let datagrams = try #require(json?["reply_datagrams_hex"] as? [String]).map(Fixtures.hexBytes)
        let parsed = try datagrams.map { try NetlinkMessage.parseAll(datagram: $0) }
        #expect(parsed.last?.map(\.type) == [NetlinkMessageType.done])
        let links = try parsed.dropLast().joined().map { try LinkMessage(message: $0) }
        #expect(links.map(\.name).contains("lo"))
        #expect(parsed.dropLast().joined().allSatisfy { $0.flags.contains(.multi) })
    }
}

extension AddressMessage {
    /// An expected value built field by field (the struct has only a decoding initialiser).
    static func make(index: Int32, prefix: UInt8, address: String, removal: Bool) -> AddressMessage? {
        var writer = ByteWriter(order: .host)
        writer.writeBytes([2, prefix, 0, 0])
        writer.writeInteger(UInt32(index))
        var attributes = NetlinkAttributeWriter(prefix: writer.bytes)
        attributes.append(Rtnetlink.addressLocal, IPAddress(address)?.bytes ?? [])
        let type = removal ? Rtnetlink.deleteAddress : Rtnetlink.newAddress
        return try? AddressMessage(message: NetlinkMessage(type: type, flags: [], payload: attributes.bytes))
    }
}
