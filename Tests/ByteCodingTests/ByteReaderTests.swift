import Testing

@testable import ByteCoding

@Suite struct ByteReaderTests {
    @Test func readsLittleEndianIntegers() throws {
        var reader = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        #expect(try reader.readInteger(UInt16.self, field: "a") == 0x0201)
        #expect(try reader.readInteger(UInt32.self, field: "b") == 0x0605_0403)
        #expect(reader.isAtEnd)
    }

    @Test func readsBigEndianIntegers() throws {
        var reader = ByteReader([0x01, 0x02], order: .bigEndian)
        #expect(try reader.readInteger(UInt16.self, field: "a") == 0x0102)
    }

    @Test func shortBufferThrowsTruncatedWithFieldName() {
        var reader = ByteReader([0x01, 0x02, 0x03])
        #expect(throws: ByteCodingError.truncated(field: "length", needed: 4, available: 3)) {
            try reader.readInteger(UInt32.self, field: "length")
        }
        #expect(reader.offset == 0)
    }

    @Test func fieldNamesAreBuiltOnlyWhenAReadFails() throws {
        final class Counter { var names = 0 }
        let counter = Counter()
        func name(_ text: String) -> String {
            counter.names += 1
            return text
        }
        var reader = ByteReader([0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00])
        _ = try reader.readInteger(UInt16.self, field: name("a"))
        _ = try reader.readArray(of: UInt16.self, countType: UInt32.self, field: name("list"))
        #expect(counter.names == 0)
        #expect(throws: ByteCodingError.truncated(field: "b", needed: 4, available: 0)) {
            try reader.readInteger(UInt32.self, field: name("b"))
        }
        #expect(counter.names == 1)
    }

    @Test func arrayCountLargerThanDataIsRejectedBeforeAllocating() {
        // Count says 0x40000000 u32 elements but only 4 bytes follow.
        var reader = ByteReader([0x00, 0x00, 0x00, 0x40, 1, 2, 3, 4])
        #expect(throws: ByteCodingError.self) {
            try reader.readArray(of: UInt32.self, countType: UInt32.self, field: "codes")
        }
    }

    @Test func readsCountedArray() throws {
        var reader = ByteReader([0x02, 0x00, 0x00, 0x00, 0x01, 0x10, 0x02, 0x10])
        #expect(try reader.readArray(of: UInt16.self, countType: UInt32.self, field: "ops") == [0x1001, 0x1002])
        try reader.expectEnd(after: "ops")
    }

    @Test func trailingBytesAreReported() throws {
        var reader = ByteReader([0x01, 0x00, 0xFF])
        _ = try reader.readInteger(UInt16.self, field: "x")
        #expect(throws: ByteCodingError.trailingBytes(count: 1, after: "x")) { try reader.expectEnd(after: "x") }
    }

    @Test func negativeLengthIsRejected() {
        var reader = ByteReader([1, 2, 3])
        #expect(throws: ByteCodingError.self) { try reader.readBytes(-1, field: "payload") }
    }

    @Test(arguments: [ByteOrder.littleEndian, .bigEndian])
    func writerAndReaderRoundTrip(order: ByteOrder) throws {
        var writer = ByteWriter(order: order)
        writer.writeInteger(UInt8(0xAB))
        writer.writeInteger(UInt16(0x1234))
        writer.writeInteger(UInt32(0xDEAD_BEEF))
        writer.writeInteger(UInt64(0x0102_0304_0506_0708))
        writer.writeBytes([9, 8, 7])
        var reader = ByteReader(writer.bytes, order: order)
        #expect(try reader.readInteger(UInt8.self, field: "a") == 0xAB)
        #expect(try reader.readInteger(UInt16.self, field: "b") == 0x1234)
        #expect(try reader.readInteger(UInt32.self, field: "c") == 0xDEAD_BEEF)
        #expect(try reader.readInteger(UInt64.self, field: "d") == 0x0102_0304_0506_0708)
        #expect(try reader.readBytes(3, field: "e") == [9, 8, 7])
        try reader.expectEnd(after: "record")
    }

    @Test func patchRewritesALengthField() {
        var writer = ByteWriter()
        writer.writeInteger(UInt32(0))
        writer.writeBytes([1, 2, 3, 4])
        writer.patchInteger(UInt32(writer.count), at: 0)
        #expect(writer.bytes == [8, 0, 0, 0, 1, 2, 3, 4])
    }
}
