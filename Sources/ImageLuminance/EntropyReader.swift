/// Reads the bits of a scan's entropy-coded data, MSB first, undoing byte stuffing (T.81 F.2.2.5).
///
/// Bits are kept left-aligned in a 64-bit buffer. A `0xFF 0x00` pair is one data byte `0xFF`; any other byte
/// after `0xFF` is a marker, where the data stops: from then on (and at the end of the bytes) the reader supplies
/// zero bits, as libjpeg does, and counts them in `phantomBits`. A block that used any of them ran past the
/// data, which `ranPastData` tells; the scan decoder checks it after every MCU. Every byte read is at an index
/// checked against the end first.
struct EntropyReader {
    /// The entropy-coded bytes and whatever follows them in the file.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The index of the next byte to load into the buffer.
    private(set) var position = 0
    /// Bits not consumed yet, left-aligned.
    private(set) var buffer: UInt64 = 0
    /// How many bits of `buffer` are valid (real or phantom).
    private(set) var count = 0
    /// How many of the valid bits are zeros supplied after the data stopped.
    private(set) var phantomBits = 0
    /// Whether a marker (or the end of the bytes) was reached.
    private(set) var stopped = false

    /// Creates a reader at the first byte of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether the bits consumed so far reach past the data into supplied zeros.
    var ranPastData: Bool { count < phantomBits }

    /// Whether the data stopped because the bytes ended (not at a marker): the file was cut short.
    var reachedEnd: Bool { stopped && position >= bytes.count - 1 }

    /// Loads bytes until at least 56 bits are valid (more when the data allows).
    @inline(__always)
    mutating func fill() {
        // Fast path: eight bytes with no 0xFF among them hold neither stuffing nor a marker; take as many whole
        // bytes of them as the buffer has room for, at once.
        if !stopped, position + 8 <= bytes.count, let base = bytes.baseAddress {
            let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self).bigEndian
            let inverted = ~word // a 0xFF byte becomes a zero byte
            let hasFF = (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080
            let room = (63 - count) >> 3
            if hasFF == 0, room > 0 {
                buffer |= (word >> UInt64(64 - 8 * room)) << UInt64(64 - count - 8 * room)
                position += room
                count += 8 * room
                return
            }
        }
        fillByBytes()
    }

    /// Loads bytes one at a time, undoing stuffing and stopping at a marker, until at least 57 bits are valid.
    @inline(never)
    private mutating func fillByBytes() {
        while count <= 56 {
            if stopped {
                count += 8
                phantomBits += 8
                continue
            }
            guard position < bytes.count else {
                stopped = true
                continue
            }
            let byte = bytes[position]
            if byte == 0xFF {
                guard position + 1 < bytes.count, bytes[position + 1] == 0x00 else {
                    stopped = true
                    continue
                }
                position += 2
            } else {
                position += 1
            }
            buffer |= UInt64(byte) << (56 - count)
            count += 8
        }
    }

    /// Drops `length` bits (at most `count`).
    @inline(__always)
    mutating func consume(_ length: Int) {
        // Wrapping arithmetic: `length` is at most `count` (at most 64), so nothing can overflow here.
        buffer &<<= UInt64(truncatingIfNeeded: length)
        count &-= length
    }

    /// Reads `length` (1...16) bits as an unsigned number; `count` must be at least `length`.
    @inline(__always)
    mutating func bits(_ length: Int) -> Int {
        let value = Int(truncatingIfNeeded: buffer >> UInt64(64 - length))
        consume(length)
        return value
    }

    /// Throws away the bits left before a restart marker, then reads RST`expected` (and any fill bytes before it).
    mutating func restart(expected: Int, base: Int) throws(LuminanceError) {
        buffer = 0
        count = 0
        phantomBits = 0
        // The encoder pads the last byte with ones; only bytes before the marker were loaded, so the marker
        // (perhaps after fill bytes 0xFF) is next.
        while position + 1 < bytes.count, bytes[position] == 0xFF, bytes[position + 1] == 0xFF { position += 1 }
        guard position + 1 < bytes.count else {
            throw .truncated(field: "restart marker RST\(expected)", offset: base + bytes.count)
        }
        let marker = bytes[position + 1]
        guard bytes[position] == 0xFF, marker == 0xD0 + UInt8(expected) else {
            let found = bytes[position] == 0xFF ? "marker 0xFF\(hex(marker))" : "data byte 0x\(hex(bytes[position]))"
            throw .malformed(field: "restart marker RST\(expected)", offset: base + position, reason: "found \(found)")
        }
        position += 2
        stopped = false
    }
}

/// Two hex digits, upper case.
func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
