import ByteCoding

/// rtnetlink wire constants (include/uapi/linux/rtnetlink.h, if_link.h, if_addr.h, if.h).
package enum Rtnetlink {
    /// RTM_NEWLINK: a link was created or changed (also each part of a GETLINK dump).
    package static let newLink: UInt16 = 16
    /// RTM_DELLINK: a link was removed.
    package static let deleteLink: UInt16 = 17
    /// RTM_GETLINK.
    package static let getLink: UInt16 = 18
    /// RTM_NEWADDR: an address was added (also each part of a GETADDR dump).
    package static let newAddress: UInt16 = 20
    /// RTM_DELADDR: an address was removed.
    package static let deleteAddress: UInt16 = 21
    /// RTM_GETADDR.
    package static let getAddress: UInt16 = 22
    /// RTM_NEWROUTE: the answer to RTM_GETROUTE.
    package static let newRoute: UInt16 = 24
    /// RTM_GETROUTE.
    package static let getRoute: UInt16 = 26
    /// RTM_NEWNEIGH: a neighbour table entry (also each part of a GETNEIGH dump).
    package static let newNeighbour: UInt16 = 28
    /// RTM_GETNEIGH.
    package static let getNeighbour: UInt16 = 30

    /// RTNLGRP_LINK multicast group.
    package static let groupLink: UInt32 = 1
    /// RTNLGRP_IPV4_IFADDR multicast group.
    package static let groupIPv4Address: UInt32 = 5
    /// RTNLGRP_IPV6_IFADDR multicast group.
    package static let groupIPv6Address: UInt32 = 9

    /// IFLA_IFNAME (string).
    package static let linkName: UInt16 = 3
    /// IFLA_OPERSTATE (u8, RFC 2863 state).
    package static let linkOperationalState: UInt16 = 16
    /// IFLA_LINKMODE (u8; 1 = dormant mode, set by a Wi-Fi supplicant).
    package static let linkMode: UInt16 = 17
    /// IFLA_CARRIER (u8).
    package static let linkCarrier: UInt16 = 33

    /// IFA_ADDRESS.
    package static let addressAddress: UInt16 = 1
    /// IFA_LOCAL (the local address on point-to-point links).
    package static let addressLocal: UInt16 = 2

    /// RTA_DST.
    package static let routeDestination: UInt16 = 1
    /// RTA_OIF (u32 ifindex).
    package static let routeOutputInterface: UInt16 = 4

    /// NDA_DST (the neighbour's IP address).
    package static let neighbourDestination: UInt16 = 1
    /// NDA_LLADDR (its link-layer address).
    package static let neighbourLinkAddress: UInt16 = 2
    /// NUD_INCOMPLETE: resolution in progress, no link-layer address yet.
    package static let neighbourIncomplete: UInt16 = 0x01
    /// NUD_FAILED: resolution failed.
    package static let neighbourFailed: UInt16 = 0x20

    /// IFF_UP: administratively up.
    package static let flagUp: UInt32 = 0x1
    /// IFF_RUNNING: operationally up (operstate UP or UNKNOWN).
    package static let flagRunning: UInt32 = 0x40
    /// IFF_LOWER_UP: the driver reports carrier.
    package static let flagLowerUp: UInt32 = 0x10000

    /// Size of `struct ifinfomsg`.
    package static let linkHeaderSize = 16
    /// Size of `struct ifaddrmsg`.
    package static let addressHeaderSize = 8
    /// Size of `struct rtmsg`.
    package static let routeHeaderSize = 12
    /// Size of `struct ndmsg`.
    package static let neighbourHeaderSize = 12
}

/// IFLA_OPERSTATE values (RFC 2863, include/uapi/linux/if.h `IF_OPER_*`).
package enum OperationalState: UInt8, Sendable, Equatable {
    /// IF_OPER_UNKNOWN (drivers that do not report it: counts as up when IFF_RUNNING is set).
    case unknown = 0
    /// IF_OPER_NOTPRESENT.
    case notPresent = 1
    /// IF_OPER_DOWN.
    case down = 2
    /// IF_OPER_LOWERLAYERDOWN (no carrier).
    case lowerLayerDown = 3
    /// IF_OPER_TESTING.
    case testing = 4
    /// IF_OPER_DORMANT (a Wi-Fi link that is not associated/authenticated).
    case dormant = 5
    /// IF_OPER_UP.
    case up = 6
}

/// A decoded RTM_NEWLINK / RTM_DELLINK.
package struct LinkMessage: Sendable, Equatable {
    /// `ifi_index`.
    package var index: Int32
    /// `ifi_flags` (IFF_*).
    package var flags: UInt32
    /// IFLA_IFNAME.
    package var name: String?
    /// IFLA_OPERSTATE (nil when absent or out of range).
    package var operationalState: OperationalState?
    /// IFLA_LINKMODE.
    package var linkMode: UInt8?
    /// Whether this was RTM_DELLINK.
    package var isRemoval: Bool

    /// Whether traffic can flow: IFF_UP and IFF_RUNNING, and the operstate (when sent) is UP or UNKNOWN.
    package var isUsable: Bool {
        guard !isRemoval, flags & Rtnetlink.flagUp != 0, flags & Rtnetlink.flagRunning != 0 else { return false }
        switch operationalState {
        case nil, .up?, .unknown?: return true
        default: return false
        }
    }

    /// Decodes `struct ifinfomsg` and its attributes.
    package init(message: NetlinkMessage) throws {
        var reader = ByteReader(message.payload, order: .host)
        _ = try reader.readInteger(UInt8.self, field: "ifi_family")
        _ = try reader.readInteger(UInt8.self, field: "ifi_pad")
        _ = try reader.readInteger(UInt16.self, field: "ifi_type")
        index = try reader.readInteger(Int32.self, field: "ifi_index")
        flags = try reader.readInteger(UInt32.self, field: "ifi_flags")
        _ = try reader.readInteger(UInt32.self, field: "ifi_change")
        let attributes = try NetlinkAttributes(reading: &reader)
        name = attributes[Rtnetlink.linkName]?.string()
        operationalState = try attributes[Rtnetlink.linkOperationalState].flatMap {
            OperationalState(rawValue: try $0.uint8("IFLA_OPERSTATE"))
        }
        linkMode = try attributes[Rtnetlink.linkMode]?.uint8("IFLA_LINKMODE")
        isRemoval = message.type == Rtnetlink.deleteLink
    }
}

/// A decoded RTM_NEWADDR / RTM_DELADDR.
package struct AddressMessage: Sendable, Equatable {
    /// `ifa_index`.
    package var index: Int32
    /// `ifa_prefixlen`.
    package var prefixLength: UInt8
    /// IFA_LOCAL, or IFA_ADDRESS when there is no IFA_LOCAL.
    package var address: IPAddress?
    /// Whether this was RTM_DELADDR.
    package var isRemoval: Bool

    /// Decodes `struct ifaddrmsg` and its attributes.
    package init(message: NetlinkMessage) throws {
        var reader = ByteReader(message.payload, order: .host)
        let family = try reader.readInteger(UInt8.self, field: "ifa_family")
        prefixLength = try reader.readInteger(UInt8.self, field: "ifa_prefixlen")
        _ = try reader.readInteger(UInt8.self, field: "ifa_flags")
        _ = try reader.readInteger(UInt8.self, field: "ifa_scope")
        index = Int32(bitPattern: try reader.readInteger(UInt32.self, field: "ifa_index"))
        let attributes = try NetlinkAttributes(reading: &reader)
        let raw = (attributes[Rtnetlink.addressLocal] ?? attributes[Rtnetlink.addressAddress])?.payload
        address = raw.flatMap { IPAddress(family: family, bytes: $0) }
        isRemoval = message.type == Rtnetlink.deleteAddress
    }
}

/// A decoded RTM_NEWNEIGH: one entry of the neighbour (ARP/NDP) table.
package struct NeighbourMessage: Sendable, Equatable {
    /// `ndm_ifindex`.
    package var index: Int32
    /// `ndm_state` (NUD_*).
    package var state: UInt16
    /// NDA_DST.
    package var address: IPAddress?
    /// NDA_LLADDR when it is a 6-byte hardware address.
    package var mac: MACAddress?

    /// Whether the entry has a usable link-layer address (not INCOMPLETE or FAILED).
    package var isResolved: Bool {
        mac != nil && state & (Rtnetlink.neighbourIncomplete | Rtnetlink.neighbourFailed) == 0
    }

    /// Decodes `struct ndmsg` and its attributes.
    package init(message: NetlinkMessage) throws {
        var reader = ByteReader(message.payload, order: .host)
        let family = try reader.readInteger(UInt8.self, field: "ndm_family")
        _ = try reader.readInteger(UInt8.self, field: "ndm_pad1")
        _ = try reader.readInteger(UInt16.self, field: "ndm_pad2")
        index = try reader.readInteger(Int32.self, field: "ndm_ifindex")
        state = try reader.readInteger(UInt16.self, field: "ndm_state")
        _ = try reader.readInteger(UInt8.self, field: "ndm_flags")
        _ = try reader.readInteger(UInt8.self, field: "ndm_type")
        let attributes = try NetlinkAttributes(reading: &reader)
        address = attributes[Rtnetlink.neighbourDestination].flatMap { IPAddress(family: family, bytes: $0.payload) }
        mac = attributes[Rtnetlink.neighbourLinkAddress].flatMap { MACAddress(bytes: $0.payload) }
    }
}

/// Builders for the rtnetlink requests the monitor sends.
package enum RtnetlinkRequest {
    /// RTM_GETLINK dump of every link.
    package static func dumpLinks(sequence: UInt32) -> NetlinkMessage {
        NetlinkMessage(
            type: Rtnetlink.getLink, flags: [.request, .dump], sequence: sequence,
            payload: [UInt8](repeating: 0, count: Rtnetlink.linkHeaderSize))
    }

    /// RTM_GETADDR dump of every address of every family.
    package static func dumpAddresses(sequence: UInt32) -> NetlinkMessage {
        NetlinkMessage(
            type: Rtnetlink.getAddress, flags: [.request, .dump], sequence: sequence,
            payload: [UInt8](repeating: 0, count: Rtnetlink.addressHeaderSize))
    }

    /// RTM_GETNEIGH dump of the neighbour tables of every family.
    package static func dumpNeighbours(sequence: UInt32) -> NetlinkMessage {
        NetlinkMessage(
            type: Rtnetlink.getNeighbour, flags: [.request, .dump], sequence: sequence,
            payload: [UInt8](repeating: 0, count: Rtnetlink.neighbourHeaderSize))
    }

    /// RTM_GETROUTE for one destination: the kernel answers with the route it would use (RTA_OIF).
    package static func route(to destination: IPAddress, sequence: UInt32) -> NetlinkMessage {
        var header = ByteWriter(order: .host)
        header.writeInteger(destination.family) // rtm_family
        header.writeInteger(UInt8(destination.bytes.count * 8)) // rtm_dst_len
        header.writeZeros(Rtnetlink.routeHeaderSize - 2) // src_len, tos, table, protocol, scope, type, flags
        var attributes = NetlinkAttributeWriter(prefix: header.bytes)
        attributes.append(Rtnetlink.routeDestination, destination.bytes)
        return NetlinkMessage(
            type: Rtnetlink.getRoute, flags: [.request], sequence: sequence, payload: attributes.bytes)
    }

    /// The RTA_OIF of an RTM_NEWROUTE answer.
    package static func outputInterface(of message: NetlinkMessage) throws -> Int32? {
        var reader = ByteReader(message.payload, order: .host)
        try reader.skip(Rtnetlink.routeHeaderSize, field: "rtmsg")
        let attributes = try NetlinkAttributes(reading: &reader)
        return try attributes[Rtnetlink.routeOutputInterface].map { Int32(bitPattern: try $0.uint32("RTA_OIF")) }
    }
}
