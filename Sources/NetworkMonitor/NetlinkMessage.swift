import ByteCoding

/// Rounds `length` up to netlink's 4-byte alignment (NLMSG_ALIGN / NLA_ALIGN).
@inlinable
package func netlinkAligned(_ length: Int) -> Int { (length + 3) & ~3 }

/// Control message types shared by every netlink family (include/uapi/linux/netlink.h).
package enum NetlinkMessageType {
    /// NLMSG_NOOP: nothing; skipped.
    package static let noop: UInt16 = 1
    /// NLMSG_ERROR: an error code (0 is an ACK) and the request header it answers.
    package static let error: UInt16 = 2
    /// NLMSG_DONE: the end of a multi-part dump.
    package static let done: UInt16 = 3
    /// NLMSG_OVERRUN: data lost.
    package static let overrun: UInt16 = 4
}

/// `nlmsg_flags` bits (include/uapi/linux/netlink.h).
package struct NetlinkFlags: OptionSet, Sendable, Hashable {
    /// The flag bits.
    package let rawValue: UInt16
    /// Creates flags from their bits.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// NLM_F_REQUEST: a request to the kernel.
    package static let request = NetlinkFlags(rawValue: 0x01)
    /// NLM_F_MULTI: one part of a multi-part reply, ended by NLMSG_DONE.
    package static let multi = NetlinkFlags(rawValue: 0x02)
    /// NLM_F_ACK: ask for an ACK (NLMSG_ERROR with error 0).
    package static let ack = NetlinkFlags(rawValue: 0x04)
    /// NLM_F_DUMP_INTR: the dump changed while it was being produced; it must be redone.
    package static let dumpInterrupted = NetlinkFlags(rawValue: 0x10)
    /// NLM_F_DUMP (NLM_F_ROOT | NLM_F_MATCH): dump every object.
    package static let dump = NetlinkFlags(rawValue: 0x300)
    /// NLM_F_CAPPED (in NLMSG_ERROR): the echoed request was cut to its header.
    package static let capped = NetlinkFlags(rawValue: 0x100)
}

/// One netlink message: the 16-byte `nlmsghdr` and its payload, in host byte order.
package struct NetlinkMessage: Sendable, Equatable {
    /// Size of `struct nlmsghdr`.
    package static let headerSize = 16
    /// The largest message we accept (a dump part is at most a few pages; 1 MiB is generous).
    package static let maximumLength = 1 << 20

    /// `nlmsg_type`: a control type, an rtnetlink RTM_* or a generic netlink family id.
    package var type: UInt16
    /// `nlmsg_flags`.
    package var flags: NetlinkFlags
    /// `nlmsg_seq`: matches a reply to its request.
    package var sequence: UInt32
    /// `nlmsg_pid`: the sender's port id (0 for the kernel).
    package var portID: UInt32
    /// The bytes after the header (without the trailing alignment padding).
    package var payload: [UInt8]

    /// Creates a message.
    package init(type: UInt16, flags: NetlinkFlags, sequence: UInt32 = 0, portID: UInt32 = 0, payload: [UInt8]) {
        self.type = type
        self.flags = flags
        self.sequence = sequence
        self.portID = portID
        self.payload = payload
    }

    /// Splits one datagram into its messages, honouring `nlmsg_len` and 4-byte alignment.
    ///
    /// A length shorter than the header or longer than what is left is the peer's fault: it throws.
    package static func parseAll(datagram: [UInt8]) throws -> [NetlinkMessage] {
        var reader = ByteReader(datagram, order: .host)
        var messages: [NetlinkMessage] = []
        while reader.remaining >= headerSize {
            let length = Int(try reader.readInteger(UInt32.self, field: "nlmsg_len"))
            guard length >= headerSize, length <= maximumLength, length - 4 <= reader.remaining else {
                throw ByteCodingError.invalidValue(
                    field: "nlmsg_len", reason: "\(length) does not fit in \(reader.remaining + 4) bytes")
            }
            let type = try reader.readInteger(UInt16.self, field: "nlmsg_type")
            let flags = NetlinkFlags(rawValue: try reader.readInteger(UInt16.self, field: "nlmsg_flags"))
            let sequence = try reader.readInteger(UInt32.self, field: "nlmsg_seq")
            let portID = try reader.readInteger(UInt32.self, field: "nlmsg_pid")
            let payload = try reader.readBytes(length - headerSize, field: "nlmsg payload")
            try reader.skip(min(netlinkAligned(length) - length, reader.remaining), field: "nlmsg padding")
            messages.append(
                NetlinkMessage(type: type, flags: flags, sequence: sequence, portID: portID, payload: payload))
        }
        try reader.expectEnd(after: "netlink messages")
        return messages
    }

    /// The message as bytes, `nlmsg_len` filled in and padded to 4 bytes.
    package func encoded() -> [UInt8] {
        var writer = ByteWriter(order: .host, capacity: netlinkAligned(Self.headerSize + payload.count))
        writer.writeInteger(UInt32(Self.headerSize + payload.count))
        writer.writeInteger(type)
        writer.writeInteger(flags.rawValue)
        writer.writeInteger(sequence)
        writer.writeInteger(portID)
        writer.writeBytes(payload)
        writer.writeZeros(netlinkAligned(writer.count) - writer.count)
        return writer.bytes
    }
}

/// The body of an NLMSG_ERROR message: an errno (0 means ACK) and the header of the request it answers.
package struct NetlinkErrorPayload: Sendable, Equatable {
    /// The positive errno, or 0 for an ACK.
    package var errno: Int32
    /// `nlmsg_type` of the request that failed.
    package var requestType: UInt16
    /// `nlmsg_seq` of the request that failed.
    package var requestSequence: UInt32

    /// Whether this is an ACK rather than an error.
    package var isAcknowledgement: Bool { errno == 0 }

    /// Decodes `struct nlmsgerr` (error, then the echoed `nlmsghdr`, maybe with payload and ext-ack TLVs).
    package init(message: NetlinkMessage) throws {
        var reader = ByteReader(message.payload, order: .host)
        let error = try reader.readInteger(Int32.self, field: "nlmsgerr.error")
        guard error <= 0, error > Int32.min else {
            throw ByteCodingError.invalidValue(field: "nlmsgerr.error", reason: "\(error) is not a negative errno")
        }
        _ = try reader.readInteger(UInt32.self, field: "nlmsgerr.msg.nlmsg_len")
        requestType = try reader.readInteger(UInt16.self, field: "nlmsgerr.msg.nlmsg_type")
        _ = try reader.readInteger(UInt16.self, field: "nlmsgerr.msg.nlmsg_flags")
        requestSequence = try reader.readInteger(UInt32.self, field: "nlmsgerr.msg.nlmsg_seq")
        errno = -error
        // The echoed request payload and extended-ACK attributes follow; we do not need them.
    }
}
