/// A canonical Huffman table from a DHT segment, arranged for decoding (ITU-T T.81 Annex C and F.2.2.3).
///
/// Codes of up to `lookupBits` bits are found with one table look-up on the next `lookupBits` bits of the
/// stream; longer codes (rare: they are the least frequent symbols) fall back to comparing against the largest
/// code of each length, as T.81 figure F.16 does. For AC tables a second look-up, `skip`, also covers the
/// coefficient's extra bits when code and bits fit in `lookupBits` together, so the decoder passes over most AC
/// coefficients with one look-up and one shift (it never needs their values).
struct HuffmanDecodingTable: Sendable {
    /// How many bits the fast look-up table is indexed by.
    static let lookupBits = 10

    /// For each `lookupBits`-bit prefix: `length << 8 | symbol` of the code it starts with, or 0 when the code
    /// is longer than `lookupBits`.
    let lookup: [UInt16]
    /// For each `lookupBits`-bit prefix of an AC coefficient: `(code length + extra bits) << 8 | symbol` when
    /// both fit in `lookupBits`, else 0 (then `lookup` and the extra bits are read one after the other).
    let skip: [UInt16]
    /// The largest code of each length 0...16 (index = length), or -1 when there is none (T.81 MAXCODE).
    let maxCode: [Int32]
    /// What to add to a code of each length to get the index of its symbol in `symbols` (T.81 VALPTR - MINCODE).
    let symbolOffset: [Int32]
    /// The symbols in code order (T.81 HUFFVAL).
    let symbols: [UInt8]

    /// Builds the table from the 16 code counts (codes of length 1...16) and the symbols of a DHT segment.
    ///
    /// Throws when the counts describe more codes of some length than that length can hold (an over-full code
    /// tree: the stream could not be decoded unambiguously). `offset` is where the table starts, for the error.
    init(counts: [UInt8], symbols: [UInt8], offset: Int) throws(LuminanceError) {
        precondition(counts.count == 16, "a DHT segment has 16 code counts")
        var lookup = [UInt16](repeating: 0, count: 1 << Self.lookupBits)
        var skip = [UInt16](repeating: 0, count: 1 << Self.lookupBits)
        var maxCode = [Int32](repeating: -1, count: 18)
        var symbolOffset = [Int32](repeating: 0, count: 18)
        var code = 0
        var index = 0
        for length in 1...16 {
            let count = Int(counts[length - 1])
            symbolOffset[length] = Int32(index - code)
            for _ in 0..<count {
                guard code < 1 << length else {
                    throw .malformed(
                        field: "Huffman table", offset: offset,
                        reason: "more codes of length \(length) than \(length) bits can hold")
                }
                if length <= Self.lookupBits {
                    let shift = Self.lookupBits - length
                    let entry = UInt16(length) << 8 | UInt16(symbols[index])
                    for prefix in (code << shift)..<((code + 1) << shift) { lookup[prefix] = entry }
                    let total = length + Int(symbols[index] & 0x0F)
                    if total <= Self.lookupBits {
                        let skipEntry = UInt16(total) << 8 | UInt16(symbols[index])
                        for prefix in (code << shift)..<((code + 1) << shift) { skip[prefix] = skipEntry }
                    }
                }
                code += 1
                index += 1
            }
            if count > 0 { maxCode[length] = Int32(code - 1) }
            code <<= 1
        }
        self.lookup = lookup
        self.skip = skip
        self.maxCode = maxCode
        self.symbolOffset = symbolOffset
        self.symbols = symbols
    }
}
