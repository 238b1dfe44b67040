import ByteCoding
import Exposure
import SonyProtocol
import TestSupport
import Testing

/// The real ILCE-7SM3 0x9209 dump (libgphoto2's sony-a7sm3.txt, the camera's bytes only; see
/// ../shared/fixtures/sony/README.md): every oddity of a real body that hdrshoot parses today stays parsed (issue 32,
/// point 6). Each fact below was read off the bytes, not off our decoder's idea of them.
@Suite(.enabled(if: Fixtures.available, Fixtures.skipReason))
struct SonyPropertyDumpOdditiesTests {
    static let dumpPath = "sony/ilce7sm3_SDIO_GetAllExtDevicePropInfo_0x9209.payload.bin"

    func realDump() throws -> (bytes: [UInt8], dump: SonyPropertyDump) {
        let bytes = try Fixtures.load(Self.dumpPath)
        return (bytes, try SonyPropertyDump(decoding: bytes, protocolVersion: .v3_00))
    }

    func descriptor(_ code: UInt16, in dump: SonyPropertyDump) throws -> SonyPropertyDescriptor {
        try #require(dump.descriptors.first { $0.code.rawValue == code }, "0x\(String(code, radix: 16))")
    }

    @Test func aU64CountOf320DescriptorsDecodesAndReencodesToTheSameBytes() throws {
        let (bytes, dump) = try realDump()
        #expect(bytes.count == 9349)
        // The count is a u64 (320 = 0x140), not the u32 of a PTP array.
        var reader = ByteReader(bytes, order: .littleEndian)
        #expect(try reader.readInteger(UInt64.self, field: "count") == 320)
        #expect(dump.descriptors.count == 320)
        #expect(dump.encoded(protocolVersion: .v3_00) == bytes)
    }

    @Test func sixStringPropertiesDecodeWithTheirTextAndNoForm() throws {
        let dump = try realDump().dump
        let strings = dump.descriptors.filter { $0.dataType == .string }
        #expect(strings.map(\.code.rawValue) == [0xD223, 0xD04C, 0xD040, 0xD07D, 0xD07B, 0xD278])
        #expect(strings.allSatisfy { if case .none = $0.form { true } else { false } })
        // The firmware version and the lens, as the body wrote them.
        #expect(try descriptor(0xD040, in: dump).currentValue == .string("3.00"))
        #expect(try descriptor(0xD07D, in: dump).currentValue == .string("03"))
        #expect(try descriptor(0xD07B, in: dump).currentValue == .string("24-70mm F2.8 DG DN | Art 019"))
        #expect(try descriptor(0xD223, in: dump).currentValue == .string(""))
    }

    @Test func sixU64PropertiesKeepTheirFullValuesAndTheirForms() throws {
        let dump = try realDump().dump
        let wide = dump.descriptors.filter { $0.dataType == .uint64 }
        #expect(wide.map(\.code.rawValue) == [0xD19F, 0xD254, 0xD04B, 0xD176, 0xD138, 0xD19E])
        // 0xD19F holds a value above 32 bits: 0x1_0000_00FA.
        #expect(try descriptor(0xD19F, in: dump).currentValue == .uint64(4_294_967_546))
        #expect(try descriptor(0xD254, in: dump).currentValue == .uint64(28_770_465))
        #expect(wide.map(\.form.flag) == [2, 2, 1, 2, 1, 1])
        #expect(try descriptor(0xD176, in: dump).supportedValues.count == 20)
    }

    @Test func sevenDescriptorsWithoutAFormAreKeptWithoutOne() throws {
        let dump = try realDump().dump
        let formless = dump.descriptors.filter { if case .none = $0.form { true } else { false } }
        #expect(formless.count == 7)
        // The six strings and one u32 (0xD25D).
        #expect(formless.filter { $0.dataType != .string }.map(\.code.rawValue) == [0xD25D])
        #expect(try descriptor(0xD25D, in: dump).dataType == .uint32)
    }

    @Test func aValueListedTwiceInFocusIndicationStaysListedTwice() throws {
        let dump = try realDump().dump
        let focus = try descriptor(SonyPropertyCode.focusIndication.rawValue, in: dump)
        let values: [PTPValue] = [1, 2, 3, 2, 5, 6, 7].map { .uint8($0) }
        #expect(focus.supportedValues == values)
        #expect(focus.settableValues == values)
    }

    @Test func thirtyFivePropertiesWhoseTwoListsDifferKeepBoth() throws {
        let dump = try realDump().dump
        let differing = dump.descriptors.filter { $0.settableValues != $0.supportedValues }
        #expect(differing.count == 35)
        // The mode dial: nothing settable from the remote, 13 modes supported; the table still reads M.
        let mode = try descriptor(SonyPropertyCode.exposureProgramMode.rawValue, in: dump)
        #expect(mode.settableValues.isEmpty && mode.supportedValues.count == 13)
        #expect(SonyPropertyTable(dump).exposureMode == .manual)
        // Some differ without either being empty: 3 of 5 (0x500C), 7 of 14 (0xD22C), 5 of 7 (0xD046).
        #expect(try descriptor(0x500C, in: dump).settableValues.count == 3)
        #expect(try descriptor(0x500C, in: dump).supportedValues.count == 5)
        #expect(try descriptor(0xD22C, in: dump).settableValues.count == 7)
        #expect(try descriptor(0xD22C, in: dump).supportedValues.count == 14)
    }

    @Test func theShutterIsAListOf56FromBulbThrough300Over10To1Over8000() throws {
        let table = SonyPropertyTable(try realDump().dump)
        let speeds = table.supportedShutterSpeeds
        #expect(speeds.count == 56)
        #expect(speeds.first == .bulb)
        #expect(speeds[1] == SonyShutterValue(numerator: 300, denominator: 10))
        #expect(speeds.last == SonyShutterValue(numerator: 1, denominator: 8000))
        #expect(table.shutterSpeed == SonyShutterValue(numerator: 1, denominator: 250))
    }
}
