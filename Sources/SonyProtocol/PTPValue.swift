import ByteCoding

/// One PTP property value: an integer of any PTP width, an array of integers, or a string.
///
/// Each value knows its `dataType`, so an encoder needs nothing else; decoding is driven by
/// the type code that precedes values in a descriptor.
package enum PTPValue: Hashable, Sendable {
    /// INT8.
    case int8(Int8)
    /// UINT8.
    case uint8(UInt8)
    /// INT16.
    case int16(Int16)
    /// UINT16.
    case uint16(UInt16)
    /// INT32.
    case int32(Int32)
    /// UINT32.
    case uint32(UInt32)
    /// INT64.
    case int64(Int64)
    /// UINT64.
    case uint64(UInt64)
    /// INT128.
    case int128(Int128)
    /// UINT128.
    case uint128(UInt128)
    /// An array (0x4001...0x400A): the element type and the elements, each of that type.
    case array(element: PTPDataType, [PTPValue])
    /// STR: a PTP string (at most 254 UTF-16 units).
    case string(String)

    /// The PTP data type code this value is encoded as.
    package var dataType: PTPDataType {
        switch self {
        case .int8: .int8
        case .uint8: .uint8
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .int128: .int128
        case .uint128: .uint128
        case let .array(element, _): .array(of: element)
        case .string: .string
        }
    }

    /// The value as a signed integer when it is an integer scalar that fits in 64 bits.
    package var integerValue: Int64? {
        switch self {
        case let .int8(value): Int64(value)
        case let .uint8(value): Int64(value)
        case let .int16(value): Int64(value)
        case let .uint16(value): Int64(value)
        case let .int32(value): Int64(value)
        case let .uint32(value): Int64(value)
        case let .int64(value): value
        case let .uint64(value): Int64(exactly: value)
        case let .int128(value): Int64(exactly: value)
        case let .uint128(value): Int64(exactly: value)
        case .array, .string: nil
        }
    }

    /// The value as an Int128 when it is an integer scalar that fits (every type but huge UINT128s).
    package var wideValue: Int128? {
        switch self {
        case let .int128(value): value
        case let .uint128(value): Int128(exactly: value)
        case let .uint64(value): Int128(value)
        default: integerValue.map { Int128($0) }
        }
    }

    /// The value as a UInt32 when it is an integer scalar in 0...0xFFFFFFFF.
    package var uint32Value: UInt32? { integerValue.flatMap { UInt32(exactly: $0) } }

    /// The value as a UInt16 when it is an integer scalar in 0...0xFFFF.
    package var uint16Value: UInt16? { integerValue.flatMap { UInt16(exactly: $0) } }

    /// An integer scalar of `type` holding `value`; nil when the type is not an integer scalar
    /// or the value does not fit.
    package static func integer(_ value: Int64, as type: PTPDataType) -> PTPValue? {
        switch type {
        case .int8: Int8(exactly: value).map(PTPValue.int8)
        case .uint8: UInt8(exactly: value).map(PTPValue.uint8)
        case .int16: Int16(exactly: value).map(PTPValue.int16)
        case .uint16: UInt16(exactly: value).map(PTPValue.uint16)
        case .int32: Int32(exactly: value).map(PTPValue.int32)
        case .uint32: UInt32(exactly: value).map(PTPValue.uint32)
        case .int64: .int64(value)
        case .uint64: UInt64(exactly: value).map(PTPValue.uint64)
        case .int128: .int128(Int128(value))
        case .uint128: UInt128(exactly: value).map(PTPValue.uint128)
        default: nil
        }
    }
}

// MARK: - Wire format

extension PTPValue {
    /// Decodes exactly one value of `type` filling all of `bytes` (a 0x9205 data phase).
    package init(decoding bytes: [UInt8], as type: PTPDataType) throws {
        var reader = ByteReader(bytes, order: .littleEndian)
        self = try PTPValue.read(type, from: &reader, field: "value")
        try decoding { try reader.expectEnd(after: "value of type \(type)") }
    }

    /// The little-endian bytes of this value (a 0x9205 data phase).
    package var encoded: [UInt8] {
        var writer = ByteWriter(order: .littleEndian)
        write(to: &writer)
        return writer.bytes
    }

    /// Reads one value of `type`; throws `SonyProtocolError` for unknown types, short data,
    /// impossible counts and bad strings.
    package static func read(
        _ type: PTPDataType, from reader: inout ByteReader, field: @autoclosure () -> String
    ) throws -> PTPValue {
        if let element = type.arrayElement {
            let count = try decoding { try reader.readInteger(UInt32.self, field: "\(field()).count") }
            let size = element.scalarSize ?? 1
            guard UInt64(count) * UInt64(size) <= UInt64(reader.remaining) else {
                throw SonyProtocolError.malformed(
                    .invalidValue(
                        field: "\(field()).count",
                        reason: "\(count) elements of \(size) bytes do not fit in \(reader.remaining) bytes"))
            }
            var elements: [PTPValue] = []
            elements.reserveCapacity(Int(count))
            for index in 0..<Int(count) {
                elements.append(try readScalar(element, from: &reader, field: "\(field())[\(index)]"))
            }
            return .array(element: element, elements)
        }
        if type == .string { return .string(try readString(from: &reader, field: field())) }
        return try readScalar(type, from: &reader, field: field())
    }

    /// Appends this value in PTP's little-endian layout.
    package func write(to writer: inout ByteWriter) {
        switch self {
        case let .int8(value): writer.writeInteger(value)
        case let .uint8(value): writer.writeInteger(value)
        case let .int16(value): writer.writeInteger(value)
        case let .uint16(value): writer.writeInteger(value)
        case let .int32(value): writer.writeInteger(value)
        case let .uint32(value): writer.writeInteger(value)
        case let .int64(value): writer.writeInteger(value)
        case let .uint64(value): writer.writeInteger(value)
        case let .int128(value): writer.writeInteger(value)
        case let .uint128(value): writer.writeInteger(value)
        case let .array(element, values):
            writer.writeInteger(UInt32(values.count))
            for value in values {
                precondition(value.dataType == element, "array element \(value.dataType) in an array of \(element)")
                value.write(to: &writer)
            }
        case let .string(text):
            let units = Array(text.utf16)
            guard !units.isEmpty else {
                writer.writeInteger(UInt8(0))
                return
            }
            precondition(units.count < 255, "a PTP string holds at most 254 UTF-16 units")
            writer.writeInteger(UInt8(units.count + 1))
            for unit in units { writer.writeInteger(unit) }
            writer.writeInteger(UInt16(0))
        }
    }

    private static func readScalar(
        _ type: PTPDataType, from reader: inout ByteReader, field: @autoclosure () -> String
    ) throws -> PTPValue {
        try decoding {
            switch type {
            case .int8: .int8(try reader.readInteger(Int8.self, field: field()))
            case .uint8: .uint8(try reader.readInteger(UInt8.self, field: field()))
            case .int16: .int16(try reader.readInteger(Int16.self, field: field()))
            case .uint16: .uint16(try reader.readInteger(UInt16.self, field: field()))
            case .int32: .int32(try reader.readInteger(Int32.self, field: field()))
            case .uint32: .uint32(try reader.readInteger(UInt32.self, field: field()))
            case .int64: .int64(try reader.readInteger(Int64.self, field: field()))
            case .uint64: .uint64(try reader.readInteger(UInt64.self, field: field()))
            case .int128: .int128(try reader.readInteger(Int128.self, field: field()))
            case .uint128: .uint128(try reader.readInteger(UInt128.self, field: field()))
            default: throw SonyProtocolError.unknownDataType(type.rawValue, field: field())
            }
        }
    }

    /// A PTP string: u8 count of UTF-16 units including the terminator (0 = empty), then the units.
    private static func readString(from reader: inout ByteReader, field: @autoclosure () -> String) throws -> String {
        let count = try decoding { try reader.readInteger(UInt8.self, field: "\(field()).length") }
        guard count > 0 else { return "" }
        var units: [UInt16] = []
        units.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            units.append(try decoding { try reader.readInteger(UInt16.self, field: "\(field())[\(index)]") })
        }
        guard units.removeLast() == 0 else {
            throw SonyProtocolError.invalidString(field: field(), reason: "no terminating NUL")
        }
        guard let text = String(validating: units, as: UTF16.self) else {
            throw SonyProtocolError.invalidString(field: field(), reason: "invalid UTF-16")
        }
        return text
    }
}
