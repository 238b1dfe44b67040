import ByteCoding

/// PTP strings (ISO 15740 §5.3.4): a u8 count of UTF-16LE code units including the terminating zero,
/// then the units; a count of 0 is the empty string (and has no terminator).
package enum PTPString {
    /// The most code units a PTP string can hold, terminator included.
    package static let maximumUnits = 255

    /// The code units `encode` writes for `text`, cut at a character boundary to fit (the count makes
    /// inner NULs legal, so they are kept: decode and encode stay twins).
    static func units(of text: String) -> [UInt16] {
        var units: [UInt16] = []
        for character in text {
            let next = Array(character.utf16)
            if units.count + next.count > maximumUnits - 1 { break }
            units.append(contentsOf: next)
        }
        return units
    }

    /// The number of bytes `text` takes as a PTP string.
    package static func encodedLength(of text: String) -> Int {
        let count = units(of: text).count
        return count == 0 ? 1 : 1 + 2 * (count + 1)
    }
}

extension ByteReader {
    /// Reads a PTP string; a missing terminator or a count beyond the data is an error.
    package mutating func readPTPString(field: String) throws -> String {
        let count = Int(try readInteger(UInt8.self, field: field))
        if count == 0 { return "" }
        var units = try subReader(2 * count, field: field)
        var decoded: [UInt16] = []
        decoded.reserveCapacity(count - 1)
        for _ in 0..<(count - 1) { decoded.append(try units.readInteger(UInt16.self, field: field)) }
        let terminator = try units.readInteger(UInt16.self, field: field)
        guard terminator == 0 else {
            throw ByteCodingError.invalidValue(
                field: field, reason: "string of \(count) units does not end with a zero unit")
        }
        return String(decoding: decoded, as: UTF16.self)
    }

    /// Reads a u32-counted array of u16 codes (a PTP AUINT16), refusing counts larger than the data.
    package mutating func readCodeArray(field: String) throws -> [UInt16] {
        try readArray(of: UInt16.self, countType: UInt32.self, field: field)
    }
}

extension ByteWriter {
    /// Writes a PTP string (longer strings are cut to 254 units at a character boundary).
    package mutating func writePTPString(_ text: String) {
        let units = PTPString.units(of: text)
        if units.isEmpty {
            writeInteger(UInt8(0))
            return
        }
        writeInteger(UInt8(units.count + 1))
        for unit in units { writeInteger(unit) }
        writeInteger(UInt16(0))
    }

    /// Writes a u32-counted array of u16 codes (a PTP AUINT16).
    package mutating func writeCodeArray(_ codes: [UInt16]) {
        writeInteger(UInt32(codes.count))
        for code in codes { writeInteger(code) }
    }
}
