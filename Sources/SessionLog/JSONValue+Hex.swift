import JSON

/// The hex forms of a session-log line (data phases, operation codes).
extension JSONValue {
    /// Lower-case hex of `bytes`, no separators (the data phases that describe a body).
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `hex` (as `hex(_:)` writes it); nil when it is not an even run of hex digits.
    package static func bytes(fromHex hex: String) -> [UInt8]? {
        let utf8 = Array(hex.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// `0x9209`.
    package static func hexCode(_ code: UInt16) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = Array("0x".utf8)
        for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int((code >> UInt16(shift)) & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
