/// A PTP data type code (PTP 1.1 / ISO 15740 §5.3, table 3), as used in Sony descriptors.
///
/// Scalars 0x0001...0x000A (int8...uint128), arrays 0x4001...0x400A (a u32 count then elements),
/// and the PTP string 0xFFFF (a u8 count of UTF-16 units including the terminator).
package struct PTPDataType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 16-bit type code on the wire.
    package let rawValue: UInt16
    /// Wraps a raw type code (unknown codes are allowed here and refused when decoding values).
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// INT8 = 0x0001.
    package static let int8 = Self(rawValue: 0x0001)
    /// UINT8 = 0x0002.
    package static let uint8 = Self(rawValue: 0x0002)
    /// INT16 = 0x0003.
    package static let int16 = Self(rawValue: 0x0003)
    /// UINT16 = 0x0004.
    package static let uint16 = Self(rawValue: 0x0004)
    /// INT32 = 0x0005.
    package static let int32 = Self(rawValue: 0x0005)
    /// UINT32 = 0x0006.
    package static let uint32 = Self(rawValue: 0x0006)
    /// INT64 = 0x0007.
    package static let int64 = Self(rawValue: 0x0007)
    /// UINT64 = 0x0008.
    package static let uint64 = Self(rawValue: 0x0008)
    /// INT128 = 0x0009.
    package static let int128 = Self(rawValue: 0x0009)
    /// UINT128 = 0x000A.
    package static let uint128 = Self(rawValue: 0x000A)
    /// STR = 0xFFFF.
    package static let string = Self(rawValue: 0xFFFF)

    /// The array type (0x4000 | element) of a scalar type.
    package static func array(of element: PTPDataType) -> PTPDataType {
        precondition(element.scalarSize != nil, "arrays hold integer scalars only")
        return PTPDataType(rawValue: 0x4000 | element.rawValue)
    }

    /// The size in bytes of an integer scalar type; nil for arrays, strings and unknown codes.
    package var scalarSize: Int? {
        switch rawValue {
        case 0x0001, 0x0002: 1
        case 0x0003, 0x0004: 2
        case 0x0005, 0x0006: 4
        case 0x0007, 0x0008: 8
        case 0x0009, 0x000A: 16
        default: nil
        }
    }

    /// The element type of an array type (0x4001...0x400A); nil otherwise.
    package var arrayElement: PTPDataType? {
        guard rawValue & 0xF000 == 0x4000 else { return nil }
        let element = PTPDataType(rawValue: rawValue & 0x0FFF)
        return element.scalarSize == nil ? nil : element
    }

    /// Whether values of this type can be decoded.
    package var isKnown: Bool { scalarSize != nil || arrayElement != nil || self == .string }

    /// The fewest bytes one value of this type occupies (used to refuse impossible counts).
    package var minimumEncodedSize: Int {
        if let size = scalarSize { return size }
        if arrayElement != nil { return 4 }
        return 1
    }

    /// The code as the spec writes it, e.g. `0x0006`.
    package var description: String { hex16(rawValue) }
}
