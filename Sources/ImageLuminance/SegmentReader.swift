import ByteCoding

/// A bounds-checked reader over part of a JPEG whose reads throw `LuminanceError` with the byte's offset in
/// the file, so an error says where it was found.
///
/// It wraps a `ByteReader` (big-endian, as JPEG is) and only adds the offset of its first byte in the file.
struct SegmentReader {
    /// The bytes being read.
    private(set) var reader: ByteReader
    /// The file offset of the reader's first byte.
    let base: Int

    /// A reader over `bytes`, whose first byte is at file offset `base`.
    init(_ bytes: ArraySlice<UInt8>, base: Int) {
        reader = ByteReader(slice: bytes, order: .bigEndian)
        self.base = base
    }

    /// The file offset of the next byte.
    var offset: Int { base + reader.offset }

    /// The number of bytes not read yet.
    var remaining: Int { reader.remaining }

    /// Reads one byte.
    mutating func byte(_ field: @autoclosure () -> String) throws(LuminanceError) -> UInt8 {
        try integer(UInt8.self, field())
    }

    /// Reads a big-endian 16-bit value.
    mutating func uint16(_ field: @autoclosure () -> String) throws(LuminanceError) -> Int {
        Int(try integer(UInt16.self, field()))
    }

    /// Reads `count` bytes as a slice of the file (no copy).
    mutating func slice(_ count: Int, _ field: @autoclosure () -> String) throws(LuminanceError) -> ArraySlice<UInt8> {
        let start = offset
        do {
            return try reader.readSlice(count, field: field())
        } catch {
            throw .truncated(field: field(), offset: start + reader.remaining)
        }
    }

    /// Returns a reader over the next `count` bytes and moves past them.
    mutating func segment(_ count: Int, _ field: @autoclosure () -> String) throws(LuminanceError) -> SegmentReader {
        let start = offset
        return SegmentReader(try slice(count, field()), base: start)
    }

    /// Skips `count` bytes.
    mutating func skip(_ count: Int, _ field: @autoclosure () -> String) throws(LuminanceError) {
        _ = try slice(count, field())
    }

    /// Moves to file offset `fileOffset`, which must not be before the current one nor past the end.
    mutating func move(to fileOffset: Int) throws(LuminanceError) {
        precondition(fileOffset >= offset, "a segment reader only moves forward")
        try skip(fileOffset - offset, "entropy-coded data")
    }

    /// The bytes not read yet (no copy).
    var rest: ArraySlice<UInt8> {
        var copy = reader
        return copy.readRemainingSlice()
    }

    private mutating func integer<T: FixedWidthInteger>(
        _ type: T.Type, _ field: @autoclosure () -> String
    ) throws(LuminanceError) -> T {
        do {
            return try reader.readInteger(T.self, field: field())
        } catch {
            throw .truncated(field: field(), offset: base + reader.offset + reader.remaining)
        }
    }
}
