import ByteCoding
import TestSupport
import Testing

@testable import NetworkMonitor

/// Station events of an access point (the Pi as the camera's access point), decoded from a real capture and
/// from messages built byte for byte in the kernel's layout (include/uapi/linux/nl80211.h; this test host's
/// kernel has no cfg80211, so none could be captured here).
@Suite(
    "nl80211 station messages and the neighbour table, decoded", .enabled(if: Fixtures.available, Fixtures.skipReason))
struct NL80211StationDecoderTests {
    let camera = MACAddress("02:00:00:00:01:00")!

    /// The real CTRL_CMD_NEWFAMILY reply for nl80211 (a USB adapter's host): family id 28, `mlme` group 7.
    func realFamily() throws -> GenericFamily {
        try GenericFamily(message: try fixtureMessage("pureswift-netlink/genl_getfamily_nl80211_reply.hex"))
    }

    /// DEL_STATION as the kernel multicasts it on `mlme` when a station leaves hostapd's access point
    /// (cfg80211_del_sta_sinfo -> nl80211_send_station), seq 0 and pid 0, for family id 28 (0x1c).
    static let deleteStationEvent: [UInt8] = [
        0x34, 0x00, 0x00, 0x00, // nlmsg_len 52
        0x1c, 0x00, // nlmsg_type: the nl80211 family id (28, resolved by name)
        0x00, 0x00, // nlmsg_flags
        0x00, 0x00, 0x00, 0x00, // nlmsg_seq 0 (a multicast event)
        0x00, 0x00, 0x00, 0x00, // nlmsg_pid 0 (the kernel)
        0x14, 0x01, 0x00, 0x00, // genlmsghdr: cmd 20 NL80211_CMD_DEL_STATION, version 1, reserved
        0x08, 0x00, 0x03, 0x00, 0x05, 0x00, 0x00, 0x00, // NL80211_ATTR_IFINDEX (3) = 5, the AP's wlan0
        0x0a, 0x00, 0x06, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, // NL80211_ATTR_MAC (6), padded
        0x08, 0x00, 0x2e, 0x00, 0xcc, 0x00, 0x00, 0x00, // NL80211_ATTR_GENERATION (46) = 204
        0x04, 0x00, 0x15, 0x00 // NL80211_ATTR_STA_INFO (21), empty: a departed station has no counters
    ]

    /// NEW_STATION as the kernel multicasts it when a station associates (cfg80211_new_sta), same shape with
    /// cmd 19 and a STA_INFO holding NL80211_STA_INFO_CONNECTED_TIME (16) = 0.
    static let newStationEvent: [UInt8] = [
        0x3c, 0x00, 0x00, 0x00, // nlmsg_len 60
        0x1c, 0x00, 0x00, 0x00, // nlmsg_type 28, flags 0
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // seq 0, pid 0
        0x13, 0x01, 0x00, 0x00, // genlmsghdr: cmd 19 NL80211_CMD_NEW_STATION, version 1
        0x08, 0x00, 0x03, 0x00, 0x05, 0x00, 0x00, 0x00, // NL80211_ATTR_IFINDEX = 5
        0x0a, 0x00, 0x06, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, // NL80211_ATTR_MAC
        0x08, 0x00, 0x2e, 0x00, 0xcd, 0x00, 0x00, 0x00, // NL80211_ATTR_GENERATION = 205
        0x0c, 0x00, 0x15, 0x00, // NL80211_ATTR_STA_INFO (21), nested:
        0x08, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00 //   NL80211_STA_INFO_CONNECTED_TIME (16) = 0 s
    ]

    @Test func aRealStationReplyNamesTheStationAndItsInterface() throws {
        // A GET_STATION dump part from a laptop (pyroute2's nl0.pcap): the same NEW_STATION command an AP
        // multicasts when a station joins, with 2.4 KB of STA_INFO the monitor skips.
        let event = try NL80211Event(
            message: try fixtureMessage("pyroute2/nl80211_new_station_dump_reply_from_nl0pcap.hex"))
        #expect(event == .stationAdded(interfaceIndex: 2, mac: MACAddress("04:f0:21:32:42:ca")))
    }

    @Test func stationEventsBuiltInTheKernelsLayoutDecodeUnderTheResolvedFamily() throws {
        let family = try realFamily()
        #expect(family.id == 28)
        #expect(family.multicastGroups[NL80211.groupMLME] == 7)
        for (bytes, expected) in [
            (Self.deleteStationEvent, NL80211Event.stationRemoved(interfaceIndex: 5, mac: camera)),
            (Self.newStationEvent, NL80211Event.stationAdded(interfaceIndex: 5, mac: camera))
        ] {
            let messages = try NetlinkMessage.parseAll(datagram: bytes)
            try #require(messages.count == 1)
            #expect(messages[0].type == family.id)
            #expect(try NL80211Event(message: messages[0]) == expected)
        }
    }

    @Test func theEncoderWritesTheSameBytesAsTheKernelLayout() {
        // Our attribute writer and the hand-laid bytes agree, so the fake kernel's events are the kernel's shape.
        var writer = NetlinkAttributeWriter(prefix: [NL80211.commandDeleteStation, 1, 0, 0])
        writer.append(NL80211.attributeInterfaceIndex, integer: UInt32(5))
        writer.append(NL80211.attributeMAC, camera.bytes)
        writer.append(46, integer: UInt32(204))
        writer.append(21, [])
        #expect(NetlinkMessage(type: 28, flags: [], payload: writer.bytes).encoded() == Self.deleteStationEvent)
    }

    @Test func aTruncatedStationEventThrowsAndAShortMACIsNoStation() throws {
        let cut = Array(Self.deleteStationEvent.prefix(30))
        #expect(throws: (any Error).self) { try NetlinkMessage.parseAll(datagram: cut) }
        var writer = NetlinkAttributeWriter(prefix: [NL80211.commandDeleteStation, 1, 0, 0])
        writer.append(NL80211.attributeInterfaceIndex, integer: UInt32(5))
        writer.append(NL80211.attributeMAC, [2, 0, 0])
        let event = try NL80211Event(message: NetlinkMessage(type: 28, flags: [], payload: writer.bytes))
        #expect(event == .stationRemoved(interfaceIndex: 5, mac: nil))
    }

    @Test func getInterfaceOfAStationIsNoAccessPoint() throws {
        let interface = try NL80211Interface(
            message: try fixtureMessage("pyroute2/nl80211_get_interface_reply_wlo1.hex"))
        #expect(interface.type == 2) // NL80211_IFTYPE_STATION
        #expect(!interface.isAccessPoint)
    }

    @Test func aNeighbourEntryGivesTheCamerasHardwareAddress() throws {
        // RTM_NEWNEIGH as `ip neigh` reads it: struct ndmsg, then NDA_DST and NDA_LLADDR.
        let payload: [UInt8] = [
            0x02, 0x00, 0x00, 0x00, // ndm_family AF_INET, pads
            0x05, 0x00, 0x00, 0x00, // ndm_ifindex 5
            0x02, 0x00, // ndm_state NUD_REACHABLE
            0x00, 0x01, // ndm_flags, ndm_type RTN_UNICAST
            0x08, 0x00, 0x01, 0x00, 192, 168, 4, 20, // NDA_DST 192.168.4.20
            0x0a, 0x00, 0x02, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00 // NDA_LLADDR, padded
        ]
        let entry = try NeighbourMessage(message: NetlinkMessage(type: 28, flags: [], payload: payload))
        #expect(entry.index == 5)
        #expect(entry.address == IPAddress("192.168.4.20"))
        #expect(entry.mac == camera)
        #expect(entry.isResolved)
        var failed = payload
        failed[8] = 0x20 // NUD_FAILED
        #expect(!(try NeighbourMessage(message: NetlinkMessage(type: 28, flags: [], payload: failed))).isResolved)
        #expect(throws: (any Error).self) {
            try NeighbourMessage(message: NetlinkMessage(type: 28, flags: [], payload: Array(payload.prefix(9))))
        }
    }

    @Test(arguments: ["02:00:00:00:01:00", "02-00-00-00-01-00", "02:00:00:00:01:0"]) func macText(text: String) {
        let mac = MACAddress(text)
        #expect(mac == (text.count == 17 ? camera : nil))
        #expect(mac.map(\.description) == (text.count == 17 ? "02:00:00:00:01:00" : nil))
    }
}
