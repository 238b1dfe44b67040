import ByteCoding

/// nl80211 wire constants (include/uapi/linux/nl80211.h); the family id itself is dynamic.
package enum NL80211 {
    /// The generic netlink family name.
    package static let familyName = "nl80211"
    /// The multicast group with connect/roam/disconnect/deauth events.
    package static let groupMLME = "mlme"
    /// The multicast group with interface changes.
    package static let groupConfig = "config"

    /// NL80211_CMD_GET_INTERFACE.
    package static let commandGetInterface: UInt8 = 5
    /// NL80211_CMD_NEW_INTERFACE (the kernel's answer to GET_INTERFACE).
    package static let commandNewInterface: UInt8 = 7
    /// NL80211_CMD_GET_STATION (one station by NL80211_ATTR_MAC, or a dump).
    package static let commandGetStation: UInt8 = 17
    /// NL80211_CMD_NEW_STATION: a station associated with our access point (also the GET_STATION answer).
    package static let commandNewStation: UInt8 = 19
    /// NL80211_CMD_DEL_STATION: a station left our access point (`iw event`: "del station").
    package static let commandDeleteStation: UInt8 = 20
    /// NL80211_CMD_GET_SCAN (dump).
    package static let commandGetScan: UInt8 = 32
    /// NL80211_CMD_NEW_SCAN_RESULTS (each part of the GET_SCAN dump).
    package static let commandNewScanResults: UInt8 = 34
    /// NL80211_CMD_DEAUTHENTICATE.
    package static let commandDeauthenticate: UInt8 = 39
    /// NL80211_CMD_DISASSOCIATE.
    package static let commandDisassociate: UInt8 = 40
    /// NL80211_CMD_CONNECT.
    package static let commandConnect: UInt8 = 46
    /// NL80211_CMD_ROAM.
    package static let commandRoam: UInt8 = 47
    /// NL80211_CMD_DISCONNECT.
    package static let commandDisconnect: UInt8 = 48

    /// NL80211_ATTR_IFINDEX (u32).
    package static let attributeInterfaceIndex: UInt16 = 3
    /// NL80211_ATTR_IFNAME (string).
    package static let attributeInterfaceName: UInt16 = 4
    /// NL80211_ATTR_IFTYPE (u32, enum nl80211_iftype).
    package static let attributeInterfaceType: UInt16 = 5
    /// NL80211_ATTR_MAC (6 bytes).
    package static let attributeMAC: UInt16 = 6
    /// NL80211_ATTR_BSS (nested NL80211_BSS_*).
    package static let attributeBSS: UInt16 = 47
    /// NL80211_ATTR_FRAME (an 802.11 management frame).
    package static let attributeFrame: UInt16 = 51
    /// NL80211_ATTR_SSID (raw bytes).
    package static let attributeSSID: UInt16 = 52
    /// NL80211_ATTR_REASON_CODE (u16).
    package static let attributeReasonCode: UInt16 = 54
    /// NL80211_ATTR_TIMED_OUT (flag).
    package static let attributeTimedOut: UInt16 = 65
    /// NL80211_ATTR_DISCONNECTED_BY_AP (flag).
    package static let attributeDisconnectedByAP: UInt16 = 71
    /// NL80211_ATTR_STATUS_CODE (u16; 0 = success).
    package static let attributeStatusCode: UInt16 = 72
    /// NL80211_ATTR_REQ_IE (the association request's information elements).
    package static let attributeRequestIEs: UInt16 = 77

    /// NL80211_BSS_BSSID.
    package static let bssBSSID: UInt16 = 1
    /// NL80211_BSS_FREQUENCY (u32 MHz).
    package static let bssFrequency: UInt16 = 2
    /// NL80211_BSS_INFORMATION_ELEMENTS.
    package static let bssInformationElements: UInt16 = 6
    /// NL80211_BSS_STATUS (u32).
    package static let bssStatus: UInt16 = 9
    /// NL80211_BSS_BEACON_IES.
    package static let bssBeaconIEs: UInt16 = 11
    /// NL80211_BSS_STATUS_ASSOCIATED.
    package static let bssStatusAssociated: UInt32 = 1

    /// NL80211_IFTYPE_AP: the interface is an access point (hostapd).
    package static let interfaceTypeAccessPoint: UInt32 = 3
    /// NL80211_IFTYPE_P2P_GO: a Wi-Fi Direct group owner, an access point too.
    package static let interfaceTypeP2PGroupOwner: UInt32 = 9

    /// IEEE 802.11 element id of the SSID.
    package static let elementSSID: UInt8 = 0
    /// Size of the 802.11 management header before a deauth/disassoc reason code.
    package static let managementHeaderSize = 24
}

/// An nl80211 multicast event the monitor reacts to.
package enum NL80211Event: Sendable, Equatable {
    /// CONNECT: `status` 0 is success; nil when the attempt timed out.
    case connect(interfaceIndex: Int32?, status: UInt16?, requestSSID: SSID?)
    /// ROAM: same network, possibly another access point (or, rarely, another SSID).
    case roam(interfaceIndex: Int32?, requestSSID: SSID?)
    /// DISCONNECT.
    case disconnect(interfaceIndex: Int32?, reason: UInt16?, byAccessPoint: Bool)
    /// DEAUTHENTICATE or DISASSOCIATE: a hint that DISCONNECT follows.
    case dropHint(interfaceIndex: Int32?, reason: UInt16?)
    /// NEW_STATION: a station (`mac`) associated with the access point on `interfaceIndex`.
    case stationAdded(interfaceIndex: Int32?, mac: MACAddress?)
    /// DEL_STATION: a station (`mac`) left the access point on `interfaceIndex`.
    case stationRemoved(interfaceIndex: Int32?, mac: MACAddress?)
    /// Any other command (scan, CQM, ...): ignored.
    case other(command: UInt8)

    /// Decodes a generic netlink message already known to come from the nl80211 family.
    package init(message: NetlinkMessage) throws {
        let body = try GenericMessage(message: message)
        let attributes = body.attributes
        let index = try attributes[NL80211.attributeInterfaceIndex].map {
            Int32(bitPattern: try $0.uint32("NL80211_ATTR_IFINDEX"))
        }
        switch body.command {
        case NL80211.commandConnect:
            let status = try attributes[NL80211.attributeStatusCode]?.uint16("NL80211_ATTR_STATUS_CODE")
            self = .connect(
                interfaceIndex: index, status: status,
                requestSSID: try attributes[NL80211.attributeRequestIEs].flatMap {
                    try InformationElements.ssid(in: $0.payload)
                })
        case NL80211.commandRoam:
            self = .roam(
                interfaceIndex: index,
                requestSSID: try attributes[NL80211.attributeRequestIEs].flatMap {
                    try InformationElements.ssid(in: $0.payload)
                })
        case NL80211.commandDisconnect:
            self = .disconnect(
                interfaceIndex: index,
                reason: try attributes[NL80211.attributeReasonCode]?.uint16("NL80211_ATTR_REASON_CODE"),
                byAccessPoint: attributes[NL80211.attributeDisconnectedByAP] != nil)
        case NL80211.commandNewStation, NL80211.commandDeleteStation:
            let mac = attributes[NL80211.attributeMAC].flatMap { MACAddress(bytes: $0.payload) }
            self =
                body.command == NL80211.commandNewStation
                ? .stationAdded(interfaceIndex: index, mac: mac) : .stationRemoved(interfaceIndex: index, mac: mac)
        case NL80211.commandDeauthenticate, NL80211.commandDisassociate:
            self = .dropHint(
                interfaceIndex: index,
                reason: try attributes[NL80211.attributeFrame].flatMap {
                    try Self.reasonCode(inFrame: $0.payload)
                })
        default:
            self = .other(command: body.command)
        }
    }

    /// The reason code after the 24-byte management header (802.11 fields are little-endian).
    private static func reasonCode(inFrame frame: [UInt8]) throws -> UInt16? {
        var reader = ByteReader(frame, order: .littleEndian)
        guard reader.remaining >= NL80211.managementHeaderSize + 2 else { return nil }
        try reader.skip(NL80211.managementHeaderSize, field: "802.11 header")
        return try reader.readInteger(UInt16.self, field: "reason code")
    }
}

/// The parts of a GET_INTERFACE answer (NEW_INTERFACE) the monitor needs.
package struct NL80211Interface: Sendable, Equatable {
    /// NL80211_ATTR_IFINDEX.
    package var index: Int32?
    /// NL80211_ATTR_IFNAME.
    package var name: String?
    /// NL80211_ATTR_SSID: present only while associated (and not on every kernel); an access point's own SSID.
    package var ssid: SSID?
    /// NL80211_ATTR_IFTYPE (enum nl80211_iftype).
    package var type: UInt32?

    /// Whether the interface is an access point (or a Wi-Fi Direct group owner) that stations join.
    package var isAccessPoint: Bool {
        type == NL80211.interfaceTypeAccessPoint || type == NL80211.interfaceTypeP2PGroupOwner
    }

    /// Decodes a NEW_INTERFACE message.
    package init(message: NetlinkMessage) throws {
        let attributes = try GenericMessage(message: message).attributes
        index = try attributes[NL80211.attributeInterfaceIndex].map {
            Int32(bitPattern: try $0.uint32("NL80211_ATTR_IFINDEX"))
        }
        name = attributes[NL80211.attributeInterfaceName]?.string()
        ssid = try attributes[NL80211.attributeSSID].map { try InformationElements.makeSSID($0.payload) }
        type = try attributes[NL80211.attributeInterfaceType]?.uint32("NL80211_ATTR_IFTYPE")
    }

    /// The GET_INTERFACE request for one ifindex.
    package static func request(family: UInt16, interfaceIndex: Int32, sequence: UInt32) -> NetlinkMessage {
        GenericMessage.request(family: family, command: NL80211.commandGetInterface, sequence: sequence) {
            $0.append(NL80211.attributeInterfaceIndex, integer: UInt32(bitPattern: interfaceIndex))
        }
    }
}

/// The GET_STATION request for one station of an access point: the kernel answers NEW_STATION while the
/// station is associated and ENOENT when it is not.
package enum NL80211Station {
    /// GET_STATION for `mac` on `interfaceIndex`.
    package static func request(
        family: UInt16, interfaceIndex: Int32, mac: MACAddress, sequence: UInt32
    ) -> NetlinkMessage {
        GenericMessage.request(family: family, command: NL80211.commandGetStation, sequence: sequence) {
            $0.append(NL80211.attributeInterfaceIndex, integer: UInt32(bitPattern: interfaceIndex))
            $0.append(NL80211.attributeMAC, mac.bytes)
        }
    }
}

/// One BSS from a GET_SCAN dump part (NEW_SCAN_RESULTS).
package struct NL80211ScanResult: Sendable, Equatable {
    /// NL80211_ATTR_IFINDEX of the dump part.
    package var interfaceIndex: Int32?
    /// NL80211_BSS_BSSID.
    package var bssid: [UInt8]?
    /// NL80211_BSS_FREQUENCY in MHz.
    package var frequency: UInt32?
    /// NL80211_BSS_STATUS (1 = associated); absent for BSSes we are not attached to.
    package var status: UInt32?
    /// The SSID element of the probe response IEs (or of the beacon IEs); empty for a hidden network.
    package var ssid: SSID?

    /// Whether the host is associated with this BSS.
    package var isAssociated: Bool { status == NL80211.bssStatusAssociated }

    /// Decodes a NEW_SCAN_RESULTS message; nil when it carries no NL80211_ATTR_BSS.
    package init?(message: NetlinkMessage) throws {
        let attributes = try GenericMessage(message: message).attributes
        guard let bss = try attributes[NL80211.attributeBSS]?.nested("NL80211_ATTR_BSS") else { return nil }
        interfaceIndex = try attributes[NL80211.attributeInterfaceIndex].map {
            Int32(bitPattern: try $0.uint32("NL80211_ATTR_IFINDEX"))
        }
        bssid = bss[NL80211.bssBSSID]?.payload
        frequency = try bss[NL80211.bssFrequency]?.uint32("NL80211_BSS_FREQUENCY")
        status = try bss[NL80211.bssStatus]?.uint32("NL80211_BSS_STATUS")
        let elements = bss[NL80211.bssInformationElements] ?? bss[NL80211.bssBeaconIEs]
        ssid = try elements.flatMap { try InformationElements.ssid(in: $0.payload) }
    }

    /// The GET_SCAN dump request for one ifindex.
    package static func request(family: UInt16, interfaceIndex: Int32, sequence: UInt32) -> NetlinkMessage {
        GenericMessage.request(
            family: family, command: NL80211.commandGetScan, flags: [.request, .dump], sequence: sequence
        ) {
            $0.append(NL80211.attributeInterfaceIndex, integer: UInt32(bitPattern: interfaceIndex))
        }
    }
}

/// IEEE 802.11 information elements: a list of (id, length, data).
package enum InformationElements {
    /// The SSID element (id 0) of an element list; nil when there is none.
    package static func ssid(in elements: [UInt8]) throws -> SSID? {
        var reader = ByteReader(elements, order: .littleEndian)
        while !reader.isAtEnd {
            let id = try reader.readInteger(UInt8.self, field: "element id")
            let length = Int(try reader.readInteger(UInt8.self, field: "element length"))
            let data = try reader.readBytes(length, field: "element \(id)")
            if id == NL80211.elementSSID { return try makeSSID(data) }
        }
        return nil
    }

    /// An SSID from raw bytes, refusing more than 32.
    package static func makeSSID(_ bytes: [UInt8]) throws -> SSID {
        guard let ssid = SSID(bytes: bytes) else {
            throw ByteCodingError.invalidValue(field: "SSID", reason: "\(bytes.count) bytes, at most 32 allowed")
        }
        return ssid
    }
}
