/// What PTP's three kinds of code share (operations, responses, events; ISO 15740 §10.4, §11.2, §12.4): a
/// 16-bit number on the wire, the protocol's names for the standard codes, and, for a vendor's extension
/// code declared by the vendor's layer, the vendor's name, so the name travels with the constant into every
/// message. Two codes are equal when their numbers are: a name is a label, not part of the identity.
package protocol PTPCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue == UInt16 {
    /// The word for a code without a name in messages: "operation", "response" or "event".
    static var kind: String { get }
    /// The protocol's names of the standard codes of this kind.
    static var standardNames: [UInt16: String] { get }
    /// The vendor's name of a vendor-extension code, as its declaring layer gave it; nil for any other code.
    var vendorName: String? { get }
}

extension PTPCode {
    /// Equal when the numbers are (the name is only a label).
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

    /// Hashes the number only, like `==`.
    package func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The protocol's name for the code (the vendor's for a vendor code declared with its name), or nil when we
    /// do not know it.
    package var knownName: String? { Self.standardNames[rawValue] ?? vendorName }

    /// The protocol's name, or e.g. "operation 0x9999" for a code we do not know.
    package var name: String { knownName ?? "\(Self.kind) \(hex16(rawValue))" }

    /// The name and the number, e.g. "GetObject (0x1009)" or "DeviceBusy (0x2019)".
    package var description: String { knownName.map { "\($0) (\(hex16(rawValue)))" } ?? name }
}
