/// The module grid of a QR symbol while it is built: function patterns, data in the zigzag, masks, format and
/// version information, and the penalty that picks the mask (ISO/IEC 18004 §7.7-7.9).
struct QRMatrix {
    let version: Int
    let size: Int
    /// Row-major modules, `true` dark.
    var dark: [Bool]
    /// Modules that belong to function patterns (never masked, never data).
    var reserved: [Bool]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        dark = [Bool](repeating: false, count: size * size)
        reserved = [Bool](repeating: false, count: size * size)
    }

    private mutating func set(_ row: Int, _ column: Int, _ value: Bool) {
        dark[row * size + column] = value
        reserved[row * size + column] = true
    }

    /// Centres of the alignment patterns per version (Annex E), versions 1-10.
    private static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]
    ]

    /// Finders with their separators, timing, alignment, the dark module, and the format and version areas.
    mutating func placeFunctionPatterns() {
        for (row, column) in [(0, 0), (0, size - 7), (size - 7, 0)] {
            for dy in -1...7 {
                for dx in -1...7 {
                    let y = row + dy
                    let x = column + dx
                    guard (0..<size).contains(y), (0..<size).contains(x) else { continue }
                    let ring = max(abs(dy - 3), abs(dx - 3))
                    set(y, x, ring != 2 && ring != 4)
                }
            }
        }
        for index in 8..<(size - 8) {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        let centres = Self.alignment[version - 1]
        for y in centres {
            for x in centres {
                // Not over a finder.
                if (y == 6 && x == 6) || (y == 6 && x == centres.last) || (y == centres.last && x == 6) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(y + dy, x + dx, max(abs(dy), abs(dx)) != 1) }
                }
            }
        }
        // Format areas (filled later) and the dark module.
        for index in 0..<9 {
            reserved[8 * size + index] = true
            reserved[index * size + 8] = true
        }
        for index in 0..<8 {
            reserved[8 * size + size - 1 - index] = true
            reserved[(size - 1 - index) * size + 8] = true
        }
        set(size - 8, 8, true)
        if version >= 7 {
            let bits = Self.versionBits(version)
            for index in 0..<18 {
                let bit = (bits >> index) & 1 == 1
                let a = index / 3
                let b = size - 11 + index % 3
                set(a, b, bit)
                set(b, a, bit)
            }
        }
    }

    /// Places the codewords in the two-column zigzag from the bottom right, skipping reserved modules.
    mutating func placeData(_ codewords: [UInt8]) {
        var bitIndex = 0
        let totalBits = codewords.count * 8
        var column = size - 1
        var upward = true
        while column > 0 {
            if column == 6 { column -= 1 } // the vertical timing pattern
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for x in [column, column - 1] where !reserved[row * size + x] {
                    var bit = false
                    if bitIndex < totalBits {
                        bit = (codewords[bitIndex / 8] >> (7 - bitIndex % 8)) & 1 == 1
                    }
                    dark[row * size + x] = bit
                    bitIndex += 1
                }
            }
            upward.toggle()
            column -= 2
        }
    }

    /// Flips the data modules where mask `mask`'s condition holds (§7.8.2).
    mutating func apply(mask: Int) {
        for row in 0..<size {
            for column in 0..<size where !reserved[row * size + column] {
                let flip: Bool
                switch mask {
                case 0: flip = (row + column) % 2 == 0
                case 1: flip = row % 2 == 0
                case 2: flip = column % 3 == 0
                case 3: flip = (row + column) % 3 == 0
                case 4: flip = (row / 2 + column / 3) % 2 == 0
                case 5: flip = (row * column) % 2 + (row * column) % 3 == 0
                case 6: flip = ((row * column) % 2 + (row * column) % 3) % 2 == 0
                default: flip = ((row + column) % 2 + (row * column) % 3) % 2 == 0
                }
                if flip { dark[row * size + column].toggle() }
            }
        }
    }

    /// Writes the 15 format bits (level M = 00, the mask, BCH(15,5), XOR 0x5412) in both places.
    mutating func placeFormat(mask: Int) {
        let bits = Self.formatBits(level: 0b00, mask: mask)
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        // Around the top-left finder: down column 8, then left along row 8 (skipping the timing modules).
        for index in 0..<6 { dark[index * size + 8] = bit(index) }
        dark[7 * size + 8] = bit(6)
        dark[8 * size + 8] = bit(7)
        dark[8 * size + 7] = bit(8)
        for index in 9..<15 { dark[8 * size + 14 - index] = bit(index) }
        // Beside the other two finders: along row 8 from the right, then up column 8 from the bottom.
        for index in 0..<8 { dark[8 * size + size - 1 - index] = bit(index) }
        for index in 8..<15 { dark[(size - 15 + index) * size + 8] = bit(index) }
        dark[(size - 8) * size + 8] = true
    }

    static func formatBits(level: Int, mask: Int) -> Int {
        let data = level << 3 | mask
        var remainder = data << 10
        for shift in stride(from: 14, through: 10, by: -1) where remainder & (1 << shift) != 0 {
            remainder ^= 0x537 << (shift - 10)
        }
        return (data << 10 | remainder) ^ 0x5412
    }

    static func versionBits(_ version: Int) -> Int {
        var remainder = version << 12
        for shift in stride(from: 17, through: 12, by: -1) where remainder & (1 << shift) != 0 {
            remainder ^= 0x1F25 << (shift - 12)
        }
        return version << 12 | remainder
    }

    /// The mask penalty (§7.8.3): runs of five or more, 2x2 blocks, finder-like patterns, and dark balance.
    func penalty() -> Int {
        var total = 0
        func module(_ row: Int, _ column: Int, vertical: Bool) -> Bool {
            vertical ? dark[column * size + row] : dark[row * size + column]
        }
        for vertical in [false, true] {
            for line in 0..<size {
                var run = 1
                for index in 1..<size {
                    if module(line, index, vertical: vertical) == module(line, index - 1, vertical: vertical) {
                        run += 1
                    } else {
                        if run >= 5 { total += run - 2 }
                        run = 1
                    }
                }
                if run >= 5 { total += run - 2 }
                let pattern: [Bool] = [true, false, true, true, true, false, true, false, false, false, false]
                if size >= 11 {
                    for start in 0...(size - 11) {
                        let forward = (0..<11).allSatisfy {
                            module(line, start + $0, vertical: vertical) == pattern[$0]
                        }
                        let backward = (0..<11).allSatisfy {
                            module(line, start + $0, vertical: vertical) == pattern[10 - $0]
                        }
                        if forward { total += 40 }
                        if backward { total += 40 }
                    }
                }
            }
        }
        for row in 0..<(size - 1) {
            for column in 0..<(size - 1) {
                let value = dark[row * size + column]
                if dark[row * size + column + 1] == value && dark[(row + 1) * size + column] == value
                    && dark[(row + 1) * size + column + 1] == value
                {
                    total += 3
                }
            }
        }
        let darkCount = dark.filter { $0 }.count
        let percent = darkCount * 100 / dark.count
        total += abs(percent - 50) / 5 * 10
        return total
    }
}
