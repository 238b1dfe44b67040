/// A QR code (ISO/IEC 18004) of a short text: byte mode, error correction level M, versions 1 to 10.
///
/// The phone remote prints its URL as one on the terminal, so a phone scans it instead of typing a 190-bit
/// token. Versions 1-10 at level M hold up to 213 bytes, which covers any `http://ADDRESS:PORT/#token=...`
/// hdrshoot prints (an IPv6 address included). Pure: the modules are computed, nothing is written. The tests
/// decode what it draws with a real decoder (zbarimg, from Debian's zbar-tools).
package struct QRCode: Sendable, Equatable {
    /// Modules per side (21 for version 1, 4 more per version).
    package let size: Int
    /// The version (1-10).
    package let version: Int
    /// The mask pattern chosen (0-7), the one with the lowest penalty.
    package let mask: Int
    /// Row-major modules, `true` dark.
    package let modules: [Bool]

    /// Why a text cannot be drawn.
    package enum Failure: Error, Sendable, Equatable {
        /// More bytes than version 10 at level M holds (213).
        case tooLong(bytes: Int, maximum: Int)
    }

    /// Whether the module at `row`, `column` is dark (outside the symbol: light, the quiet zone).
    package subscript(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }

    /// Encodes `text`'s UTF-8 bytes in the smallest version that holds them.
    package init(_ text: String) throws(Failure) {
        let bytes = Array(text.utf8)
        guard let version = (1...10).first(where: { Self.blocks[$0 - 1].dataCodewords >= Self.neededCodewords(bytes) })
        else { throw .tooLong(bytes: bytes.count, maximum: Self.blocks[9].dataCodewords - 3) }
        var matrix = QRMatrix(version: version)
        matrix.placeFunctionPatterns()
        matrix.placeData(Self.codewords(bytes, version: version))
        var best: (penalty: Int, mask: Int, matrix: QRMatrix)?
        for mask in 0..<8 {
            var candidate = matrix
            candidate.apply(mask: mask)
            candidate.placeFormat(mask: mask)
            let penalty = candidate.penalty()
            if best == nil || penalty < best!.penalty { best = (penalty, mask, candidate) }
        }
        guard let best else { preconditionFailure("eight masks were tried") }
        self.version = version
        self.size = best.matrix.size
        self.mask = best.mask
        self.modules = best.matrix.dark
    }

    /// The symbol for a terminal: two rows of modules per line in half blocks, dark on light, with a quiet zone
    /// of `quietZone` modules (the standard asks 4; terminals with a light border get away with 2).
    package func terminalText(quietZone: Int = 2) -> String {
        var lines: [String] = []
        let range = -quietZone..<(size + quietZone)
        var row = -quietZone
        while row < size + quietZone {
            var line = ""
            for column in range {
                // Printed as light-on-dark text would invert it; the glyph paints the *light* modules, so the
                // code reads dark-on-light on a dark terminal and a light one alike as long as the zone is light.
                let top = !self[row, column]
                let bottom = row + 1 < size + quietZone ? !self[row + 1, column] : true
                switch (top, bottom) {
                case (true, true): line += "\u{2588}"
                case (true, false): line += "\u{2580}"
                case (false, true): line += "\u{2584}"
                case (false, false): line += " "
                }
            }
            lines.append(line)
            row += 2
        }
        return lines.joined(separator: "\n")
    }

    /// The symbol as a plain PBM image (P1), `scale` pixels per module, with a 4-module quiet zone.
    package func portableBitmap(scale: Int = 4) -> String {
        let side = (size + 8) * scale
        var out = "P1\n\(side) \(side)\n"
        for y in 0..<side {
            var line: [String] = []
            for x in 0..<side { line.append(self[y / scale - 4, x / scale - 4] ? "1" : "0") }
            out += line.joined(separator: " ") + "\n"
        }
        return out
    }

    // MARK: - Codewords

    /// The error correction blocks of level M for one version (ISO/IEC 18004 Table 9).
    struct Blocks {
        /// Error correction codewords per block.
        var ecPerBlock: Int
        /// (count, data codewords) for each group of blocks.
        var groups: [(count: Int, data: Int)]
        /// All data codewords of the version.
        var dataCodewords: Int { groups.reduce(0) { $0 + $1.count * $1.data } }
    }

    /// Level M, versions 1-10.
    static let blocks: [Blocks] = [
        Blocks(ecPerBlock: 10, groups: [(1, 16)]),
        Blocks(ecPerBlock: 16, groups: [(1, 28)]),
        Blocks(ecPerBlock: 26, groups: [(1, 44)]),
        Blocks(ecPerBlock: 18, groups: [(2, 32)]),
        Blocks(ecPerBlock: 24, groups: [(2, 43)]),
        Blocks(ecPerBlock: 16, groups: [(4, 27)]),
        Blocks(ecPerBlock: 18, groups: [(4, 31)]),
        Blocks(ecPerBlock: 22, groups: [(2, 38), (2, 39)]),
        Blocks(ecPerBlock: 22, groups: [(3, 36), (2, 37)]),
        Blocks(ecPerBlock: 26, groups: [(4, 43), (1, 44)])
    ]

    /// Codewords a byte-mode segment of `bytes` needs: the mode (4 bits), the count (8 bits; 16 from version
    /// 10, counted generously here), the bytes, the terminator.
    static func neededCodewords(_ bytes: [UInt8]) -> Int { (4 + 16 + 8 * bytes.count + 7) / 8 }

    /// The final codeword sequence: data and error correction, interleaved by block.
    static func codewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        let layout = blocks[version - 1]
        var bits = BitBuffer()
        bits.append(0b0100, count: 4) // byte mode
        bits.append(bytes.count, count: version < 10 ? 8 : 16)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = layout.dataCodewords * 8
        bits.append(0, count: min(4, capacity - bits.count)) // terminator
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count < layout.dataCodewords {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        var dataBlocks: [[UInt8]] = []
        var offset = 0
        for group in layout.groups {
            for _ in 0..<group.count {
                dataBlocks.append(Array(data[offset..<offset + group.data]))
                offset += group.data
            }
        }
        let generator = ReedSolomon.generator(degree: layout.ecPerBlock)
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, generator: generator) }
        var out: [UInt8] = []
        let longest = dataBlocks.map(\.count).max() ?? 0
        for index in 0..<longest {
            for block in dataBlocks where index < block.count { out.append(block[index]) }
        }
        for index in 0..<layout.ecPerBlock {
            for block in ecBlocks { out.append(block[index]) }
        }
        return out
    }
}

/// Bits appended most significant first.
struct BitBuffer {
    private(set) var bits: [Bool] = []

    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        guard count > 0 else { return }
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    /// The bits as bytes (the count is a multiple of 8 when this is read).
    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<min(start + 8, bits.count)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
    }
}

/// Reed-Solomon over GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D).
enum ReedSolomon {
    /// exp[i] = α^i, log[α^i] = i.
    static let tables: (exp: [UInt8], log: [Int]) = {
        var exp = [UInt8](repeating: 0, count: 512)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exp[power] = UInt8(value)
            log[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for power in 255..<512 { exp[power] = exp[power - 255] }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0, b != 0 else { return 0 }
        return tables.exp[tables.log[Int(a)] + tables.log[Int(b)]]
    }

    /// The generator polynomial (x - α^0)...(x - α^(degree-1)), highest power first, leading 1 dropped.
    static func generator(degree: Int) -> [UInt8] {
        var poly: [UInt8] = [1]
        for power in 0..<degree {
            var next = [UInt8](repeating: 0, count: poly.count + 1)
            for (index, coefficient) in poly.enumerated() {
                next[index] ^= coefficient
                next[index + 1] ^= multiply(coefficient, tables.exp[power])
            }
            poly = next
        }
        return Array(poly.dropFirst())
    }

    /// The remainder of data·x^degree divided by the generator: the error correction codewords.
    static func remainder(_ data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in generator.indices { remainder[index] ^= multiply(generator[index], factor) }
        }
        return remainder
    }
}
