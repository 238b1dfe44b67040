import ByteCoding

/// Why Sony SDIO bytes or values could not be used.
///
/// Every case is permanent (`isTransient == false`): the same bytes fail the same way, so
/// retrying the decode cannot help. A camera that is merely busy answers with a PTP response
/// code, which is the PTP/IP layer's business, not this one's.
package enum SonyProtocolError: Error, Sendable, Equatable {
    /// The bytes ended early, held an impossible count, or had bytes left over.
    case malformed(ByteCodingError)
    /// A data type code outside PTP's integer, array and string types (PTP 1.1 §5.3).
    case unknownDataType(UInt16, field: String)
    /// A descriptor form flag other than none (0), range (1) or enumeration (2).
    case unknownFormFlag(UInt8, property: UInt16)
    /// A PTP string without its terminator or with invalid UTF-16.
    case invalidString(field: String, reason: String)
    /// A shutter value that is not in the camera's list, so no notch count can reach it.
    case shutterValueNotOffered(SonyShutterValue)
    /// A notch step outside what one 0x9207 parameter can carry (1...127 either way).
    case notchOutOfRange(Int)

    /// Whether retrying the same operation could succeed: never, for these errors.
    package var isTransient: Bool { false }
}

/// Runs `body`, turning the byte reader's errors into `SonyProtocolError.malformed`.
@inline(__always)
func decoding<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ByteCodingError {
        throw SonyProtocolError.malformed(error)
    }
}

/// Formats a 16-bit code the way Sony's documents write it (`0xD20D`).
func hex16(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// Formats a 32-bit value with 8 hex digits (`0x00030004`).
func hex32(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
