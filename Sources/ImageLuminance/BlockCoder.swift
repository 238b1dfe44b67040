/// Turns one 8x8 block of level-shifted samples into Huffman-coded bits: forward DCT, quantisation, zig-zag,
/// DC difference and AC run lengths (T.81 A.3.3, F.1.2).
struct BlockCoder {
    /// The quantisation table, natural order.
    let quantisation: [Float]
    /// Code and length of each DC category.
    let dc: HuffmanEncodingTable
    /// Code and length of each AC run/size symbol.
    let ac: HuffmanEncodingTable

    /// A coder for the given quantisation table and standard Huffman tables.
    init(
        quantisation: [Int], dc: JPEGStandardTables.HuffmanSpecification, ac: JPEGStandardTables.HuffmanSpecification
    ) {
        self.quantisation = quantisation.map { Float($0) }
        self.dc = HuffmanEncodingTable(dc)
        self.ac = HuffmanEncodingTable(ac)
    }

    /// `cosines[8 * x + u]` = C(u)/2 · cos((2x + 1)uπ/16), C(0) = 1/√2, else 1: the 1-D DCT as a matrix, so
    /// the 2-D transform is two passes of it (F(u,v) = Σx Σy f(x,y) c[x][u] c[y][v]).
    static let cosines: [Float] = (0..<64).map { index in
        let (x, u) = (index / 8, index % 8)
        let scale = u == 0 ? 0.353_553_390_593_273_8 : 0.5
        return Float(scale * Math.cos(Double((2 * x + 1) * u) * Double.pi / 16))
    }

    /// Codes `block` (64 samples minus 128, row-major) after the block whose DC was `prediction`.
    func encode(_ block: [Float], prediction: inout Int, into writer: inout JPEGBitWriter) {
        var rows = [Float](repeating: 0, count: 64)
        for y in 0..<8 {
            for u in 0..<8 {
                var sum: Float = 0
                for x in 0..<8 { sum += block[8 * y + x] * Self.cosines[8 * x + u] }
                rows[8 * y + u] = sum
            }
        }
        var coefficients = [Int](repeating: 0, count: 64)
        for v in 0..<8 {
            for u in 0..<8 {
                var sum: Float = 0
                for y in 0..<8 { sum += rows[8 * y + u] * Self.cosines[8 * y + v] }
                coefficients[8 * v + u] = Int((sum / quantisation[8 * v + u]).rounded())
            }
        }
        let difference = coefficients[0] - prediction
        prediction = coefficients[0]
        let category = Self.magnitudeCategory(difference)
        writer.write(dc.codes[category], length: dc.lengths[category])
        writer.write(Self.magnitudeBits(difference, category), length: category)
        var run = 0
        for position in 1..<64 {
            let value = coefficients[JPEGStandardTables.zigzag[position]]
            if value == 0 {
                run += 1
                continue
            }
            while run > 15 {
                writer.write(ac.codes[0xF0], length: ac.lengths[0xF0]) // sixteen zeros
                run -= 16
            }
            let size = Self.magnitudeCategory(value)
            let symbol = run << 4 | size
            writer.write(ac.codes[symbol], length: ac.lengths[symbol])
            writer.write(Self.magnitudeBits(value, size), length: size)
            run = 0
        }
        if run > 0 { writer.write(ac.codes[0x00], length: ac.lengths[0x00]) } // end of block
    }

    /// The number of bits of |value| (T.81 table F.1, F.2).
    static func magnitudeCategory(_ value: Int) -> Int {
        var magnitude = abs(value)
        var bits = 0
        while magnitude > 0 {
            bits += 1
            magnitude >>= 1
        }
        return bits
    }

    /// The extra bits after a category: the value, or for a negative one its ones' complement (T.81 F.1.2.1).
    static func magnitudeBits(_ value: Int, _ category: Int) -> Int {
        value >= 0 ? value : (value - 1) & ((1 << category) - 1)
    }
}

/// The code and length of each symbol of a Huffman table (T.81 C.2), for encoding.
struct HuffmanEncodingTable {
    /// Code of each symbol 0...255 (0 when the table has no code for it).
    let codes: [Int]
    /// Length of each symbol's code (0 when none).
    let lengths: [Int]

    /// Generates the canonical codes of a DHT-style table.
    init(_ specification: JPEGStandardTables.HuffmanSpecification) {
        var codes = [Int](repeating: 0, count: 256)
        var lengths = [Int](repeating: 0, count: 256)
        var code = 0
        var index = 0
        for length in 1...16 {
            for _ in 0..<Int(specification.counts[length - 1]) {
                let symbol = Int(specification.symbols[index])
                codes[symbol] = code
                lengths[symbol] = length
                code += 1
                index += 1
            }
            code <<= 1
        }
        self.codes = codes
        self.lengths = lengths
    }
}

/// Collects entropy-coded bits MSB first into bytes, stuffing a 0x00 after every 0xFF (T.81 F.1.2.3).
struct JPEGBitWriter {
    /// The file so far.
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    /// Appends the low `length` bits of `value` (`length` 0...16).
    mutating func write(_ value: Int, length: Int) {
        guard length > 0 else { return }
        buffer = buffer << UInt64(length) | UInt64(value & ((1 << length) - 1))
        count += length
        while count >= 8 {
            let byte = UInt8(truncatingIfNeeded: buffer >> UInt64(count - 8))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0x00) }
            count -= 8
        }
    }

    /// Pads the last byte with ones, as T.81 asks before a marker.
    mutating func flush() {
        if count > 0 { write((1 << (8 - count)) - 1, length: 8 - count) }
        buffer = 0
    }
}
