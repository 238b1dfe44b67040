/// What sets one kind of PTP code apart from the others (operations, responses, events; ISO 15740 §10.4,
/// §11.2, §12.4): its word in messages and the protocol's names for its standard codes.
package protocol PTPCodeKind: Sendable {
    /// The word for a code without a name in messages: "operation", "response" or "event".
    static var kind: String { get }
    /// The protocol's names of the standard codes of this kind.
    static var standardNames: [UInt16: String] { get }
}

/// A PTP code of one kind (`OperationCode`, `ResponseCode`, `EventCode`): a 16-bit number on the wire, the
/// protocol's names for the standard codes, and, for a vendor's extension code declared by the vendor's layer,
/// the vendor's name, so the name travels with the constant into every message.
///
/// A struct rather than an enum so that codes we have no name for still round-trip unchanged. Two codes are
/// equal when their numbers are: a name is a label, not part of the identity.
package struct PTPCode<Kind: PTPCodeKind>: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as it travels on the wire.
    package let rawValue: UInt16
    /// The vendor's name of a vendor-extension code, as its declaring layer gave it; nil for any other code.
    package let vendorName: String?

    /// Wraps a raw code.
    package init(rawValue: UInt16) {
        self.rawValue = rawValue
        vendorName = nil
    }

    /// Wraps a raw code.
    package init(_ rawValue: UInt16) { self.init(rawValue: rawValue) }

    /// A vendor's extension code with the vendor's name for it (e.g. Sony's `SDIO_Connect = 0x9201`).
    package init(vendor rawValue: UInt16, name: String) {
        self.rawValue = rawValue
        vendorName = name
    }

    /// Equal when the numbers are (the name is only a label).
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

    /// Hashes the number only, like `==`.
    package func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The protocol's name for the code (the vendor's for a vendor code declared with its name), or nil when we
    /// do not know it.
    package var knownName: String? { Kind.standardNames[rawValue] ?? vendorName }

    /// The protocol's name, or e.g. "operation 0x9999" for a code we do not know.
    package var name: String { knownName ?? "\(Kind.kind) \(hex16(rawValue))" }

    /// The name and the number, e.g. "GetObject (0x1009)" or "DeviceBusy (0x2019)".
    package var description: String { knownName.map { "\($0) (\(hex16(rawValue)))" } ?? name }
}
