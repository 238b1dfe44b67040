/// Appends fixed-width integers and bytes to a growing buffer in an explicit byte order.
package struct ByteWriter: Sendable {
    // Stored under another name so `writeInteger` can be inlined (and specialized) into the encoders.
    @usableFromInline var storedBytes: [UInt8]
    /// The bytes written so far.
    package var bytes: [UInt8] { storedBytes }
    /// The byte order used for integers.
    package let order: ByteOrder

    /// Creates an empty writer, reserving `capacity` bytes.
    package init(order: ByteOrder = .littleEndian, capacity: Int = 0) {
        self.order = order
        self.storedBytes = []
        storedBytes.reserveCapacity(capacity)
    }

    /// The number of bytes written so far.
    package var count: Int { storedBytes.count }

    /// Appends an integer in the writer's byte order.
    @inlinable
    package mutating func writeInteger<T: FixedWidthInteger>(_ value: T) {
        let size = MemoryLayout<T>.size
        if order == .littleEndian {
            for index in 0..<size { storedBytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
        } else {
            for index in (0..<size).reversed() { storedBytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
        }
    }

    /// Appends raw bytes.
    @inlinable
    package mutating func writeBytes<C: Sequence>(_ data: C) where C.Element == UInt8 {
        storedBytes.append(contentsOf: data)
    }

    /// Appends `count` zero bytes (padding).
    package mutating func writeZeros(_ count: Int) {
        storedBytes.append(contentsOf: [UInt8](repeating: 0, count: count))
    }

    /// Overwrites an integer already written at `offset` (for length fields known only at the end).
    package mutating func patchInteger<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        let size = MemoryLayout<T>.size
        precondition(offset >= 0 && offset + size <= storedBytes.count, "patch outside the written bytes")
        for index in 0..<size {
            let shift = order == .littleEndian ? 8 * index : 8 * (size - 1 - index)
            storedBytes[offset + index] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }
}
