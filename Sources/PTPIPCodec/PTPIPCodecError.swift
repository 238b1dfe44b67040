import ByteCoding

/// The codec's one error: bytes from the peer that break PTP/IP's rules (CIPA DC-005 §2.3).
///
/// Pure: no case carries a system error, so the codec needs neither Posix nor Glibc. The client and the
/// transport wrap it as `PTPIPError.malformed`. None is transient: the stream is out of step and the
/// connection must be closed.
package enum PTPIPCodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A packet's or dataset's bytes do not fit its layout (a field is short, a count is too large, bytes are
    /// left over).
    case layout(ByteCodingError)
    /// A packet header declares a length below the 8-byte header.
    case packetTooShort(declaredLength: UInt32)
    /// A packet header declares a length above what we accept for that packet type.
    case packetTooLarge(declaredLength: UInt32, maximum: Int, type: PacketType?)
    /// A packet header carries a type outside 1...14.
    case unknownPacketType(UInt32)
    /// A data phase out of step: a packet for another transaction, Data before Start_Data, more or fewer bytes
    /// than Start_Data announced (CIPA DC-005 §2.3.9-2.3.12).
    case dataPhaseViolation(expected: String, received: String)

    /// One sentence a person can read: names and hex numbers, no Swift type names.
    package var description: String {
        switch self {
        case let .layout(error):
            return "malformed packet: \(error)"
        case let .packetTooShort(declaredLength):
            return "packet declares length \(declaredLength), shorter than its 8-byte header"
        case let .packetTooLarge(declaredLength, maximum, type):
            let kind = type.map { "\($0) " } ?? ""
            return
                "\(kind)packet declares length \(declaredLength) (\(hex32(declaredLength))), above the maximum of \(maximum)"
        case let .unknownPacketType(type):
            return "unknown PTP/IP packet type \(type) (\(hex32(type)))"
        case let .dataPhaseViolation(expected, received):
            return "protocol violation: expected \(expected), received \(received)"
        }
    }

    /// Maps an error from the codec internals to the codec's error (byte coding errors become `.layout`).
    static func wrap(_ error: any Error) -> PTPIPCodecError {
        switch error {
        case let error as PTPIPCodecError: return error
        case let error as ByteCodingError: return .layout(error)
        default: return .layout(.invalidValue(field: "packet", reason: "\(error)"))
        }
    }
}
