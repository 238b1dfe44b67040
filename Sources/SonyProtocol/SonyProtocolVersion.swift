/// The SDIO protocol version reported by SDIO_GetExtDeviceInfo (0x9202): 200 = 2.00, 300 = 3.00.
package struct SonyProtocolVersion: RawRepresentable, Hashable, Sendable, Comparable {
    /// The version × 100 (0x00C8 = 2.00, 0x012C = 3.00).
    package let rawValue: UInt16
    /// Wraps a raw version.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Protocol 2.00 (older bodies): one enumeration list; shutter speed moves only by 0x9207 notches.
    package static let v2_00 = Self(rawValue: 200)
    /// Protocol 3.00: two enumeration lists (settable now, then all supported); absolute 0x9205 sets.
    package static let v3_00 = Self(rawValue: 300)

    /// How enumeration forms are laid out in this version's descriptors.
    package var enumerationLayout: SonyEnumerationLayout { self >= .v3_00 ? .twoLists : .oneList }

    /// Whether 0xD20D takes an absolute value with 0x9205 (3.00) rather than notches (2.00).
    package var setsShutterSpeedAbsolutely: Bool { self >= .v3_00 }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The shape of an enumeration form in a Sony extended descriptor.
package enum SonyEnumerationLayout: Sendable {
    /// Protocol 2.00: one u16-counted list.
    case oneList
    /// Protocol 3.00: two u16-counted lists, the values settable now and then all supported values.
    case twoLists
}
