import ByteCoding

/// Generic netlink wire constants (include/uapi/linux/genetlink.h).
package enum GenericNetlink {
    /// Size of `struct genlmsghdr` (cmd, version, reserved).
    package static let headerSize = 4
    /// GENL_ID_CTRL: the controller family, which resolves names to ids.
    package static let controllerFamily: UInt16 = 0x10
    /// CTRL_CMD_NEWFAMILY: the controller's answer.
    package static let commandNewFamily: UInt8 = 1
    /// CTRL_CMD_GETFAMILY.
    package static let commandGetFamily: UInt8 = 3
    /// CTRL_ATTR_FAMILY_ID (u16).
    package static let attributeFamilyID: UInt16 = 1
    /// CTRL_ATTR_FAMILY_NAME (string).
    package static let attributeFamilyName: UInt16 = 2
    /// CTRL_ATTR_MCAST_GROUPS (nested array of nested groups).
    package static let attributeMulticastGroups: UInt16 = 7
    /// CTRL_ATTR_MCAST_GRP_NAME (string).
    package static let attributeGroupName: UInt16 = 1
    /// CTRL_ATTR_MCAST_GRP_ID (u32).
    package static let attributeGroupID: UInt16 = 2
}

/// A generic netlink message body: `genlmsghdr` then attributes.
package struct GenericMessage: Sendable, Equatable {
    /// `cmd`.
    package var command: UInt8
    /// `version`.
    package var version: UInt8
    /// The attributes after the header.
    package var attributes: NetlinkAttributes

    /// Creates a message body.
    package init(command: UInt8, version: UInt8 = 1, attributes: NetlinkAttributes = NetlinkAttributes([])) {
        self.command = command
        self.version = version
        self.attributes = attributes
    }

    /// Decodes the payload of a netlink message whose type is a generic netlink family id.
    package init(message: NetlinkMessage) throws {
        var reader = ByteReader(message.payload, order: .host)
        command = try reader.readInteger(UInt8.self, field: "genlmsghdr.cmd")
        version = try reader.readInteger(UInt8.self, field: "genlmsghdr.version")
        _ = try reader.readInteger(UInt16.self, field: "genlmsghdr.reserved")
        attributes = try NetlinkAttributes(reading: &reader)
    }

    /// Builds a request message for `family` with the given attribute bytes.
    package static func request(
        family: UInt16, command: UInt8, version: UInt8 = 1, flags: NetlinkFlags = [.request],
        sequence: UInt32, attributes: (inout NetlinkAttributeWriter) -> Void = { _ in }
    ) -> NetlinkMessage {
        var writer = NetlinkAttributeWriter(prefix: [command, version, 0, 0])
        attributes(&writer)
        return NetlinkMessage(type: family, flags: flags, sequence: sequence, payload: writer.bytes)
    }
}

/// What CTRL_CMD_GETFAMILY tells about a family: its dynamic id and multicast groups.
package struct GenericFamily: Sendable, Equatable {
    /// The family name ("nl80211").
    package var name: String
    /// The dynamic family id (the `nlmsg_type` of its messages).
    package var id: UInt16
    /// Multicast group ids by name ("mlme", "config", "scan", ...).
    package var multicastGroups: [String: UInt32]

    /// Creates a family description (for test peers).
    package init(name: String, id: UInt16, multicastGroups: [String: UInt32]) {
        self.name = name
        self.id = id
        self.multicastGroups = multicastGroups
    }

    /// The CTRL_CMD_GETFAMILY request for `name`.
    package static func request(name: String, sequence: UInt32) -> NetlinkMessage {
        GenericMessage.request(
            family: GenericNetlink.controllerFamily, command: GenericNetlink.commandGetFamily,
            version: 2, sequence: sequence
        ) { $0.append(GenericNetlink.attributeFamilyName, string: name) }
    }

    /// Decodes a CTRL_CMD_NEWFAMILY reply.
    package init(message: NetlinkMessage) throws {
        let body = try GenericMessage(message: message)
        guard let id = body.attributes[GenericNetlink.attributeFamilyID] else {
            throw ByteCodingError.invalidValue(field: "CTRL_ATTR_FAMILY_ID", reason: "missing")
        }
        self.id = try id.uint16("CTRL_ATTR_FAMILY_ID")
        name = body.attributes[GenericNetlink.attributeFamilyName]?.string() ?? ""
        var groups: [String: UInt32] = [:]
        if let list = body.attributes[GenericNetlink.attributeMulticastGroups] {
            for entry in try list.nested("CTRL_ATTR_MCAST_GROUPS").all {
                let group = try entry.nested("CTRL_ATTR_MCAST_GROUPS[\(entry.type)]")
                guard let groupName = group[GenericNetlink.attributeGroupName]?.string(),
                    let groupID = group[GenericNetlink.attributeGroupID]
                else { continue }
                groups[groupName] = try groupID.uint32("CTRL_ATTR_MCAST_GRP_ID")
            }
        }
        multicastGroups = groups
    }

    /// The payload a controller sends back (used by the fake kernel in tests).
    package func replyAttributes(_ writer: inout NetlinkAttributeWriter) {
        writer.append(GenericNetlink.attributeFamilyID, integer: id)
        writer.append(GenericNetlink.attributeFamilyName, string: name)
        var list = NetlinkAttributeWriter()
        for (index, group) in multicastGroups.sorted(by: { $0.value < $1.value }).enumerated() {
            var entry = NetlinkAttributeWriter()
            entry.append(GenericNetlink.attributeGroupID, integer: group.value)
            entry.append(GenericNetlink.attributeGroupName, string: group.key)
            list.append(UInt16(index + 1), entry.bytes)
        }
        writer.append(GenericNetlink.attributeMulticastGroups, list.bytes)
    }
}
