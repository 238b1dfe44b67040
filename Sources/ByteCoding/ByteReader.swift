/// Errors a `ByteReader` raises when bytes from a peer do not fit the expected layout.
package enum ByteCodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer bytes were left than the named field needs.
    case truncated(field: String, needed: Int, available: Int)
    /// A field held a value that cannot be right (a count larger than the data, a bad terminator, ...).
    case invalidValue(field: String, reason: String)
    /// Bytes were left over after a structure that must fill its buffer exactly.
    case trailingBytes(count: Int, after: String)

    package var description: String {
        switch self {
        case let .truncated(field, needed, available):
            return "truncated \(field): needed \(needed) bytes, \(available) left"
        case let .invalidValue(field, reason):
            return "invalid \(field): \(reason)"
        case let .trailingBytes(count, after):
            return "\(count) unexpected bytes after \(after)"
        }
    }
}

/// Byte order of multi-byte integers on the wire.
package enum ByteOrder: Sendable {
    /// Least significant byte first (PTP/IP; netlink on the machines we run on).
    case littleEndian
    /// Most significant byte first (network byte order).
    case bigEndian
    /// The host's own order (netlink).
    package static var host: ByteOrder { 1.littleEndian == 1 ? .littleEndian : .bigEndian }
}

/// A bounds-checked cursor over bytes received from a peer.
///
/// Every read names the field it reads, so a short buffer becomes
/// `ByteCodingError.truncated(field:...)` instead of a trap. Nothing here subscripts
/// with a peer-supplied index without checking it first. Field names are autoclosures: an
/// interpolated name such as `"\(prefix)[\(index)]"` is only built when a read fails, never on the hot path. The reader
/// views its bytes as a slice, so sub-readers and `readSlice` share storage instead of copying (large PTP/IP data
/// payloads).
package struct ByteReader: Sendable {
    @usableFromInline let bytes: ArraySlice<UInt8>
    // Stored under another name so `readInteger` can be inlined (and specialized) into the decoders.
    @usableFromInline var storedOffset: Int
    /// The offset of the next byte to read.
    package var offset: Int { storedOffset }
    /// The byte order used for integers.
    package let order: ByteOrder

    /// Creates a reader over `bytes`, starting at the first one.
    package init(_ bytes: [UInt8], order: ByteOrder = .littleEndian) {
        self.init(slice: bytes[...], order: order)
    }

    /// Creates a reader over a slice of an array without copying it; offsets count from the slice's start.
    package init(slice: ArraySlice<UInt8>, order: ByteOrder = .littleEndian) {
        self.bytes = slice
        self.storedOffset = 0
        self.order = order
    }

    /// Creates a reader over a collection of bytes (copied once).
    package init<C: Collection>(bytes: C, order: ByteOrder = .littleEndian) where C.Element == UInt8 {
        self.init(Array(bytes), order: order)
    }

    /// The number of bytes not read yet.
    package var remaining: Int { bytes.count - offset }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { offset >= bytes.count }

    /// Reads a fixed-width integer in the reader's byte order.
    @inlinable
    package mutating func readInteger<T: FixedWidthInteger>(
        _ type: T.Type = T.self, field: @autoclosure () -> String
    ) throws -> T {
        let size = MemoryLayout<T>.size
        guard size <= bytes.count - storedOffset else {
            throw ByteCodingError.truncated(field: field(), needed: size, available: bytes.count - storedOffset)
        }
        let start = bytes.startIndex + storedOffset
        var value: T = 0
        if order == .littleEndian {
            for index in 0..<size { value |= T(truncatingIfNeeded: bytes[start + index]) << (8 * index) }
        } else {
            for index in 0..<size { value = (value << 8) | T(truncatingIfNeeded: bytes[start + index]) }
        }
        storedOffset += size
        return value
    }

    /// Reads `count` bytes into a new array.
    package mutating func readBytes(_ count: Int, field: @autoclosure () -> String) throws -> [UInt8] {
        Array(try readSlice(count, field: field()))
    }

    /// Reads `count` bytes as a slice sharing the reader's storage (no copy).
    package mutating func readSlice(_ count: Int, field: @autoclosure () -> String) throws -> ArraySlice<UInt8> {
        guard count >= 0 else { throw ByteCodingError.invalidValue(field: field(), reason: "negative length \(count)") }
        try require(count, field: field())
        let start = bytes.startIndex + offset
        storedOffset += count
        return bytes[start..<(start + count)]
    }

    /// Reads every byte that is left.
    package mutating func readRemainingBytes() -> [UInt8] {
        Array(readRemainingSlice())
    }

    /// Reads every byte that is left as a slice sharing the reader's storage (no copy).
    package mutating func readRemainingSlice() -> ArraySlice<UInt8> {
        let slice = bytes[(bytes.startIndex + offset)...]
        storedOffset = bytes.count
        return slice
    }

    /// Skips `count` bytes.
    package mutating func skip(_ count: Int, field: @autoclosure () -> String) throws {
        guard count >= 0 else { throw ByteCodingError.invalidValue(field: field(), reason: "negative length \(count)") }
        try require(count, field: field())
        storedOffset += count
    }

    /// Returns a reader over the next `count` bytes and moves past them (for nested structures; no copy).
    package mutating func subReader(_ count: Int, field: @autoclosure () -> String) throws -> ByteReader {
        ByteReader(slice: try readSlice(count, field: field()), order: order)
    }

    /// Reads a count-prefixed array of integers, refusing a count that the remaining bytes cannot hold.
    package mutating func readArray<Count: FixedWidthInteger, T: FixedWidthInteger>(
        of type: T.Type, countType: Count.Type, field: @autoclosure () -> String
    ) throws -> [T] {
        let count = try readInteger(Count.self, field: "\(field()).count")
        let size = MemoryLayout<T>.size
        guard count >= 0, UInt64(count) <= UInt64(remaining / size) else {
            throw ByteCodingError.invalidValue(
                field: "\(field()).count", reason: "\(count) elements of \(size) bytes do not fit in \(remaining) bytes"
            )
        }
        var values: [T] = []
        values.reserveCapacity(Int(count))
        for index in 0..<Int(count) { values.append(try readInteger(T.self, field: "\(field())[\(index)]")) }
        return values
    }

    /// Throws unless every byte has been consumed.
    package func expectEnd(after structure: String) throws {
        if remaining > 0 { throw ByteCodingError.trailingBytes(count: remaining, after: structure) }
    }

    private func require(_ count: Int, field: @autoclosure () -> String) throws {
        if count > remaining { throw ByteCodingError.truncated(field: field(), needed: count, available: remaining) }
    }
}
