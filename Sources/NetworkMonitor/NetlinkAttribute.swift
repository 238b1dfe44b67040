import ByteCoding

/// One netlink attribute (`struct nlattr`): a type and a payload.
package struct NetlinkAttribute: Sendable, Equatable {
    /// Size of `struct nlattr`.
    package static let headerSize = 4
    /// NLA_TYPE_MASK: the type without NLA_F_NESTED (0x8000) and NLA_F_NET_BYTEORDER (0x4000).
    package static let typeMask: UInt16 = 0x3FFF

    /// The attribute type with the flag bits cleared.
    package var type: UInt16
    /// The payload, without alignment padding.
    package var payload: [UInt8]

    /// Creates an attribute.
    package init(type: UInt16, payload: [UInt8]) {
        self.type = type
        self.payload = payload
    }

    /// The payload as a host-order `UInt8`.
    package func uint8(_ field: String) throws -> UInt8 { try scalar(field) }
    /// The payload as a host-order `UInt16`.
    package func uint16(_ field: String) throws -> UInt16 { try scalar(field) }
    /// The payload as a host-order `UInt32`.
    package func uint32(_ field: String) throws -> UInt32 { try scalar(field) }

    /// The payload as a C string: up to the first NUL (the kernel's `nla_put_string` adds one).
    package func string() -> String {
        let end = payload.firstIndex(of: 0) ?? payload.count
        return String(decoding: payload[..<end], as: UTF8.self)
    }

    /// The payload read as nested attributes; NLA_F_NESTED is not required (old kernels omit it).
    package func nested(_ field: String) throws -> NetlinkAttributes {
        do { return try NetlinkAttributes(parsing: payload) } catch let error as ByteCodingError {
            throw ByteCodingError.invalidValue(field: field, reason: "nested attributes: \(error)")
        }
    }

    private func scalar<T: FixedWidthInteger>(_ field: String) throws -> T {
        var reader = ByteReader(payload, order: .host)
        let value = try reader.readInteger(T.self, field: field)
        try reader.expectEnd(after: field)
        return value
    }
}

/// An ordered list of attributes, read from a message payload after its fixed header.
package struct NetlinkAttributes: Sendable, Equatable {
    /// The attributes in wire order (unknown types included; callers skip what they do not know).
    package var all: [NetlinkAttribute]

    /// Wraps a list of attributes.
    package init(_ all: [NetlinkAttribute]) { self.all = all }

    /// Parses attributes until the bytes end; alignment padding at the very end is tolerated.
    package init(parsing bytes: [UInt8]) throws {
        var reader = ByteReader(bytes, order: .host)
        try self.init(reading: &reader)
    }

    /// Parses attributes from the reader's position to its end.
    package init(reading reader: inout ByteReader) throws {
        var list: [NetlinkAttribute] = []
        while reader.remaining >= NetlinkAttribute.headerSize {
            let length = Int(try reader.readInteger(UInt16.self, field: "nla_len"))
            let type = try reader.readInteger(UInt16.self, field: "nla_type") & NetlinkAttribute.typeMask
            guard length >= NetlinkAttribute.headerSize else {
                throw ByteCodingError.invalidValue(field: "nla_len", reason: "\(length) is shorter than the header")
            }
            let payload = try reader.readBytes(length - NetlinkAttribute.headerSize, field: "attribute \(type)")
            try reader.skip(min(netlinkAligned(length) - length, reader.remaining), field: "nla padding")
            list.append(NetlinkAttribute(type: type, payload: payload))
        }
        try reader.skip(reader.remaining, field: "trailing padding")
        all = list
    }

    /// The first attribute of `type`, if any.
    package subscript(type: UInt16) -> NetlinkAttribute? { all.first { $0.type == type } }
}

/// Builds a payload of attributes (each padded to 4 bytes) for requests and test peers.
package struct NetlinkAttributeWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// Creates an empty writer, optionally after a fixed header (already aligned).
    package init(prefix: [UInt8] = []) { bytes = prefix }

    /// Appends an attribute with raw payload bytes.
    package mutating func append(_ type: UInt16, _ payload: [UInt8]) {
        var writer = ByteWriter(order: .host)
        writer.writeInteger(UInt16(NetlinkAttribute.headerSize + payload.count))
        writer.writeInteger(type)
        writer.writeBytes(payload)
        writer.writeZeros(netlinkAligned(writer.count) - writer.count)
        bytes += writer.bytes
    }

    /// Appends a host-order integer attribute.
    package mutating func append<T: FixedWidthInteger>(_ type: UInt16, integer value: T) {
        var writer = ByteWriter(order: .host)
        writer.writeInteger(value)
        append(type, writer.bytes)
    }

    /// Appends a NUL-terminated string attribute.
    package mutating func append(_ type: UInt16, string: String) {
        append(type, Array(string.utf8) + [0])
    }
}
