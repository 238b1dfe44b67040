/// The Huffman tables of one scan, flat in one buffer, and the block decoding that reads them (T.81 F.2.2).
///
/// Each table takes `stride` values: the look-up entries, the skip entries, MAXCODE for lengths
/// 0...17, the symbol offsets for lengths 0...17, 256 symbols, and the number of symbols. Indices into the
/// buffer come from our own layout and a code's value, which is checked against the symbol count before use.
struct HuffmanTables {
    /// Values per table.
    static let stride = 2 * lookupSize + 18 + 18 + 256 + 1
    private static let lookupSize = 1 << HuffmanDecodingTable.lookupBits
    private static let skipStart = lookupSize
    private static let maxCodeStart = 2 * lookupSize
    private static let offsetStart = maxCodeStart + 18
    private static let symbolStart = offsetStart + 18
    private static let countIndex = symbolStart + 256

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
        while index < 64 {
            if reader.count < 32 { reader.fill() }
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
