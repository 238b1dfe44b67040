/// The focus mode of 0x500A (u16), verified against rocc's Sony focus-mode mapping; the RX100M7
/// reports AF-A (0x8005).
package enum SonyFocusMode: Hashable, Sendable {
    /// MF: 0x0001.
    case manual
    /// AF-S: 0x0002.
    case singleAF
    /// AF-C: 0x8004.
    case continuousAF
    /// AF-A: 0x8005.
    case automaticAF
    /// DMF: 0x8006.
    case directManual
    /// Any other value, kept as sent.
    case other(UInt16)

    private static let table: [(SonyFocusMode, UInt16)] = [
        (.manual, 0x0001), (.singleAF, 0x0002), (.continuousAF, 0x8004), (.automaticAF, 0x8005),
        (.directManual, 0x8006)
    ]

    /// Decodes a raw 0x500A value.
    package init(rawValue: UInt16) {
        self = Self.table.first { $0.1 == rawValue }?.0 ?? .other(rawValue)
    }

    /// The raw 0x500A value.
    package var rawValue: UInt16 {
        if case let .other(value) = self { return value }
        return Self.table.first { $0.0 == self }!.1
    }
}
