import ByteCoding
import SonyProtocol
import Testing

/// Every PTP data type: named bytes, round trips, and malformed input.
struct PTPValueTests {
    /// One value of each type and its little-endian bytes (PTP 1.1 §5.3).
    static let samples: [(PTPValue, [UInt8])] = [
        (.int8(-2), [0xFE]),
        (.uint8(0xC8), [0xC8]),
        (.int16(-3000), [0x48, 0xF4]),
        (.uint16(0xD20D), [0x0D, 0xD2]),
        (.int32(-1), [0xFF, 0xFF, 0xFF, 0xFF]),
        (.uint32(0x012C_000A), [0x0A, 0x00, 0x2C, 0x01]),
        (.int64(-2), [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        (.uint64(0x6B_FFFF_FFFF), [0xFF, 0xFF, 0xFF, 0xFF, 0x6B, 0, 0, 0]),
        (.int128(-1), Array(repeating: 0xFF, count: 16)),
        (.uint128(UInt128(1) << 120 | 0x0102), [0x02, 0x01] + Array(repeating: 0, count: 13) + [0x01]),
        (.array(element: .uint16, [.uint16(0xD2C1), .uint16(0xD2C2)]), [2, 0, 0, 0, 0xC1, 0xD2, 0xC2, 0xD2]),
        (.array(element: .int8, []), [0, 0, 0, 0]),
        (.array(element: .uint128, [.uint128(7)]), [1, 0, 0, 0, 7] + Array(repeating: 0, count: 15)),
        (.string(""), [0x00]),
        (.string("Sony"), [0x05, 0x53, 0x00, 0x6F, 0x00, 0x6E, 0x00, 0x79, 0x00, 0x00, 0x00]),
        (.string("é😀"), [0x04, 0xE9, 0x00, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0x00])
    ]

    @Test(arguments: samples)
    func encodesToItsNamedBytesAndDecodesBack(value: PTPValue, bytes: [UInt8]) throws {
        #expect(value.encoded == bytes)
        #expect(try PTPValue(decoding: bytes, as: value.dataType) == value)
    }

    @Test(arguments: samples)
    func everyTruncationIsAnErrorNotATrap(value: PTPValue, bytes: [UInt8]) {
        for length in 0..<bytes.count {
            #expect(throws: SonyProtocolError.self) {
                _ = try PTPValue(decoding: Array(bytes.prefix(length)), as: value.dataType)
            }
        }
    }

    @Test func dataTypeCodesAreThePTPOnes() {
        #expect(PTPValue.int8(0).dataType.rawValue == 0x0001)
        #expect(PTPValue.uint128(0).dataType.rawValue == 0x000A)
        #expect(PTPValue.array(element: .uint32, []).dataType.rawValue == 0x4006)
        #expect(PTPValue.string("").dataType.rawValue == 0xFFFF)
        #expect(PTPDataType(rawValue: 0x400A).arrayElement == .uint128)
        #expect(PTPDataType(rawValue: 0x4000).arrayElement == nil)
        #expect(PTPDataType(rawValue: 0x400B).isKnown == false)
    }

    @Test(arguments: [UInt16(0x0000), 0x000B, 0x4000, 0x400B, 0x5001, 0xFFFE])
    func unknownDataTypesAreATypedError(code: UInt16) {
        #expect(throws: SonyProtocolError.unknownDataType(code, field: "value")) {
            _ = try PTPValue(decoding: [0, 0, 0, 0], as: PTPDataType(rawValue: code))
        }
    }

    @Test func anArrayCountLargerThanTheDataIsRefusedBeforeAllocating() {
        #expect(
            throws: SonyProtocolError.malformed(
                .invalidValue(
                    field: "value.count", reason: "4294967295 elements of 4 bytes do not fit in 4 bytes"))
        ) {
            _ = try PTPValue(decoding: [0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4], as: .array(of: .uint32))
        }
    }

    @Test func aStringWithoutItsTerminatorIsRefused() {
        #expect(throws: SonyProtocolError.invalidString(field: "value", reason: "no terminating NUL")) {
            _ = try PTPValue(decoding: [0x02, 0x41, 0x00, 0x42, 0x00], as: .string)
        }
    }

    @Test func aStringWithALoneSurrogateIsRefused() {
        #expect(throws: SonyProtocolError.invalidString(field: "value", reason: "invalid UTF-16")) {
            _ = try PTPValue(decoding: [0x02, 0x00, 0xD8, 0x00, 0x00], as: .string)
        }
    }

    @Test func aStringLongerThanItsDataIsTruncated() {
        #expect(throws: SonyProtocolError.malformed(.truncated(field: "value[1]", needed: 2, available: 0))) {
            _ = try PTPValue(decoding: [0xFF, 0x41, 0x00], as: .string)
        }
    }

    @Test func leftoverBytesAfterAValueAreRefused() {
        #expect(throws: SonyProtocolError.malformed(.trailingBytes(count: 2, after: "value of type 0x0004"))) {
            _ = try PTPValue(decoding: [1, 0, 0, 0], as: .uint16)
        }
    }

    @Test func integerViewsConvertOnlyExactly() {
        #expect(PTPValue.uint32(0xFFFF_FFFF).uint32Value == 0xFFFF_FFFF)
        #expect(PTPValue.int8(-1).uint32Value == nil)
        #expect(PTPValue.uint16(0x8001).uint16Value == 0x8001)
        #expect(PTPValue.uint64(.max).integerValue == nil)
        #expect(PTPValue.string("1").integerValue == nil)
        #expect(PTPValue.integer(300, as: .uint8) == nil)
        #expect(PTPValue.integer(-1, as: .int16) == .int16(-1))
        #expect(PTPValue.integer(1, as: .string) == nil)
    }
}
