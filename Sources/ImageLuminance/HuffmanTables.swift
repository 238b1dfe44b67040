/// The Huffman tables of one scan, flat in one buffer, and the block decoding that reads them (T.81 F.2.2).
///
/// Each table takes `stride` values: the look-up entries, the skip entries, MAXCODE for lengths
/// 0...17, the symbol offsets for lengths 0...17, 256 symbols, the number of symbols, and the pair entries (see
/// `pairs(from:)`). Indices into the buffer come from our own layout and a code's value, which is checked
/// against the symbol count before use.
struct HuffmanTables {
    /// Values per table.
    static let stride = 2 * lookupSize + 18 + 18 + 256 + 1 + (1 << pairBits)
    /// How many bits the pair look-up is indexed by.
    static let pairBits = 12
    private static let lookupSize = 1 << HuffmanDecodingTable.lookupBits
    private static let skipStart = lookupSize
    private static let maxCodeStart = 2 * lookupSize
    private static let offsetStart = maxCodeStart + 18
    private static let symbolStart = offsetStart + 18
    private static let countIndex = symbolStart + 256
    private static let pairStart = countIndex + 1

    /// For each `pairBits`-bit prefix of AC data: how to pass over the next one or two coefficients at once, as
    /// `bits | advance << 8 | end << 16` (bits to consume, how far the coefficient index moves, whether the block
    /// ends), or 0 when even the first coefficient does not fit (then the one-at-a-time path decodes it).
    ///
    /// Built from the skip entries (code and extra bits within `HuffmanDecodingTable.lookupBits`): the second
    /// coefficient is included only when its code and bits fit in what the first leaves of the prefix.
    /// Pair entries that all say "decode one at a time" (for DC tables, which never use them).
    static let noPairs = [Int32](repeating: 0, count: 1 << pairBits)

    static func pairs(from skip: [UInt16]) -> [Int32] {
        let extra = pairBits - HuffmanDecodingTable.lookupBits
        let mask = (1 << pairBits) - 1
        /// How far a symbol moves the index, or nil for an end of block (size 0 other than sixteen zeros).
        func advance(_ symbol: Int) -> Int? {
            symbol & 15 != 0 ? (symbol >> 4) + 1 : symbol == 0xF0 ? 16 : nil
        }
        return (0..<(1 << pairBits)).map { prefix in
            let first = Int(skip[prefix >> extra])
            guard first != 0 else { return 0 }
            let (bits, symbol) = (first >> 8, first & 0xFF)
            guard let step = advance(symbol) else { return Int32(bits | 1 << 16) }
            let second = Int(skip[((prefix << bits) & mask) >> extra])
            let secondBits = second >> 8
            guard second != 0, secondBits <= pairBits - bits else { return Int32(bits | step << 8) }
            guard let secondStep = advance(second & 0xFF) else { return Int32(bits + secondBits | step << 8 | 1 << 16) }
            return Int32(bits + secondBits | (step + secondStep) << 8)
        }
    }

    /// The tables, laid out by `ScanDecoder`.
    let storage: UnsafeBufferPointer<Int32>

    /// Decodes one Huffman code with table number `table`; `reader` must hold at least 16 bits.
    @inline(__always)
    func decodeSymbol(_ reader: inout EntropyReader, table: Int, base: Int) throws(LuminanceError) -> Int {
        let start = table * Self.stride
        let look = Int(truncatingIfNeeded: reader.buffer >> UInt64(64 - HuffmanDecodingTable.lookupBits))
        let entry = storage[start + look]
        if entry != 0 {
            reader.consume(Int(entry >> 8))
            return Int(entry & 0xFF)
        }
        for length in (HuffmanDecodingTable.lookupBits + 1)...16 {
            let code = Int(truncatingIfNeeded: reader.buffer >> UInt64(64 - length))
            guard code <= Int(storage[start + Self.maxCodeStart + length]) else { continue }
            let index = code + Int(storage[start + Self.offsetStart + length])
            guard index >= 0, index < Int(storage[start + Self.countIndex]) else { break }
            reader.consume(length)
            return Int(storage[start + Self.symbolStart + index])
        }
        throw .malformed(field: "scan data", offset: base + reader.position, reason: "bits that are no Huffman code")
    }

    /// Decodes one 8x8 block coded with DC table `table` and AC table `table + 1`, and returns its DC
    /// difference; the AC coefficients are decoded only to be skipped (T.81 F.2.2.1 and F.2.2.2).
    @inline(__always)
    func decodeBlock(_ reader: inout EntropyReader, table: Int, base: Int) throws(LuminanceError) -> Int {
        // 32 bits hold a code (at most 16) and its extra bits (at most 15 for DC, 10 for AC in 8-bit JPEG).
        if reader.count < 32 { reader.fill() }
        let category = try decodeSymbol(&reader, table: table, base: base)
        guard category <= 15 else {
            throw .malformed(
                field: "scan data", offset: base + reader.position, reason: "DC difference of \(category) bits")
        }
        var difference = 0
        if category > 0 {
            let value = reader.bits(category)
            // T.81 F.12 EXTEND: a leading 0 bit means a negative value.
            difference = value < 1 << (category - 1) ? value - (1 << category) + 1 : value
        }
        let acStart = (table + 1) * Self.stride + Self.skipStart
        var index = 1
        let pairStart = (table + 1) * Self.stride + Self.pairStart
        while index < 64 {
            if reader.count < 32 { reader.fill() }
            // Two coefficients at once while two can never run past the 64th (each moves the index 16 at most).
            if index <= 32 {
                let pair = Int(
                    storage[pairStart + Int(truncatingIfNeeded: reader.buffer >> UInt64(64 - Self.pairBits))])
                if pair != 0 {
                    reader.consume(pair & 0xFF)
                    index &+= (pair &>> 8) & 0xFF
                    if pair >= 1 << 16 { break } // end of block
                    continue
                }
            }
            let look = Int(truncatingIfNeeded: reader.buffer >> UInt64(64 - HuffmanDecodingTable.lookupBits))
            let entry = Int(storage[acStart + look])
            let symbol: Int
            if entry != 0 {
                reader.consume(entry &>> 8) // the code and the coefficient's bits at once
                symbol = entry & 0xFF
            } else {
                symbol = try decodeSymbol(&reader, table: table + 1, base: base)
                reader.consume(symbol & 15)
            }
            if symbol & 15 == 0 {
                if symbol != 0xF0 { break } // end of block
                index &+= 16 // sixteen zeros
            } else {
                index &+= (symbol &>> 4) &+ 1
            }
        }
        guard index <= 64 else {
            throw .malformed(
                field: "scan data", offset: base + reader.position, reason: "AC coefficients run past the 64th")
        }
        return difference
    }
}
