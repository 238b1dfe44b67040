import ByteCoding
import SonyProtocol
import Testing

/// Sony extended descriptors built by hand: every form, both enumeration layouts, bad input.
struct SonyPropertyDescriptorTests {
    /// 0xD20D with three speeds: BULB, 30" (300/10), 1/250; current 1/250; settable now: two.
    static let shutter = SonyPropertyDescriptor(
        code: .shutterSpeed, dataType: .uint32, getSet: 1, enabled: .on,
        factoryValue: .uint32(0), currentValue: .uint32(0x0001_00FA),
        form: .enumeration(
            settable: [.uint32(0x012C_000A), .uint32(0x0001_00FA)],
            supported: [.uint32(0), .uint32(0x012C_000A), .uint32(0x0001_00FA)]))

    /// The descriptor above on protocol 3.00, byte by byte.
    static let shutterBytes: [UInt8] = [
        0x0D, 0xD2, 0x06, 0x00, 0x01, 0x01, // code 0xD20D, type u32, get/set, enabled
        0x00, 0x00, 0x00, 0x00, // factory BULB
        0xFA, 0x00, 0x01, 0x00, // current 1/250
        0x02, // enumeration
        0x02, 0x00, 0x0A, 0x00, 0x2C, 0x01, 0xFA, 0x00, 0x01, 0x00, // settable now
        0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0A, 0x00, 0x2C, 0x01, 0xFA, 0x00, 0x01, 0x00 // all supported
    ]

    static let battery = SonyPropertyDescriptor(
        code: .batteryLevel, dataType: .int8, getSet: 0, enabled: .off,
        factoryValue: .int8(0), currentValue: .int8(70),
        form: .range(minimum: .int8(-1), maximum: .int8(100), step: .int8(1)))

    static let name = SonyPropertyDescriptor(
        code: SonyPropertyCode(rawValue: 0xD278), dataType: .string, getSet: 0, enabled: .displayOnly,
        factoryValue: .string(""), currentValue: .string("http://127.0.0.1/x"), form: .none)

    static let codes = SonyPropertyDescriptor(
        code: SonyPropertyCode(rawValue: 0xD2FF), dataType: .array(of: .uint16), getSet: 7, enabled: .init(rawValue: 9),
        factoryValue: .array(element: .uint16, []), currentValue: .array(element: .uint16, [.uint16(1), .uint16(2)]),
        form: .enumeration(settable: [], supported: [.array(element: .uint16, [.uint16(3)])]))

    func encode(_ descriptor: SonyPropertyDescriptor, _ layout: SonyEnumerationLayout) -> [UInt8] {
        var writer = ByteWriter(order: .littleEndian)
        descriptor.write(to: &writer, layout: layout)
        return writer.bytes
    }

    func decode(_ bytes: [UInt8], _ layout: SonyEnumerationLayout) throws -> SonyPropertyDescriptor {
        var reader = ByteReader(bytes, order: .littleEndian)
        let descriptor = try SonyPropertyDescriptor.read(from: &reader, layout: layout)
        #expect(reader.isAtEnd)
        return descriptor
    }

    @Test func protocolThreeEnumerationHasTwoListsSettableThenSupported() throws {
        #expect(encode(Self.shutter, .twoLists) == Self.shutterBytes)
        let decoded = try decode(Self.shutterBytes, .twoLists)
        #expect(decoded == Self.shutter)
        #expect(decoded.settableValues.count == 2)
        #expect(decoded.supportedValues.count == 3)
    }

    @Test func protocolTwoEnumerationHasOneListThatIsBothSettableAndSupported() throws {
        let bytes = encode(Self.shutter, .oneList)
        #expect(bytes == Array(Self.shutterBytes.prefix(15)) + Array(Self.shutterBytes.suffix(14)))
        let decoded = try decode(bytes, .oneList)
        #expect(decoded.settableValues == Self.shutter.supportedValues)
        #expect(decoded.supportedValues == Self.shutter.supportedValues)
    }

    @Test(arguments: [battery, name, codes, shutter])
    func everyFormRoundTripsInBothLayouts(descriptor: SonyPropertyDescriptor) throws {
        #expect(try decode(encode(descriptor, .twoLists), .twoLists) == descriptor)
        let single = try decode(encode(descriptor, .oneList), .oneList)
        #expect(single.supportedValues == descriptor.supportedValues)
        #expect(single.currentValue == descriptor.currentValue)
    }

    @Test(arguments: [battery, name, codes, shutter])
    func everyTruncationThrows(descriptor: SonyPropertyDescriptor) {
        let bytes = encode(descriptor, .twoLists)
        for length in 0..<bytes.count {
            #expect(throws: SonyProtocolError.self) { _ = try decode(Array(bytes.prefix(length)), .twoLists) }
        }
    }

    @Test func settableMeansReadWriteAndEnabled() {
        #expect(Self.shutter.isSettable)
        #expect(!Self.battery.isSettable)
        var displayOnly = Self.shutter
        displayOnly.enabled = .displayOnly
        #expect(!displayOnly.isSettable)
    }

    @Test func anUnknownDataTypeIsATypedErrorNamingTheProperty() {
        let bytes: [UInt8] = [0x0D, 0xD2, 0x0B, 0x00, 0x01, 0x01, 0, 0, 0, 0]
        #expect(throws: SonyProtocolError.unknownDataType(0x000B, field: "0xD20D.dataType")) {
            _ = try decode(bytes, .twoLists)
        }
    }

    @Test func anUnknownFormFlagIsATypedError() {
        var bytes = Array(Self.shutterBytes.prefix(15))
        bytes[14] = 3
        #expect(throws: SonyProtocolError.unknownFormFlag(3, property: 0xD20D)) { _ = try decode(bytes, .twoLists) }
    }

    @Test func anEnumerationCountLargerThanTheDataIsRefused() {
        let bytes = Array(Self.shutterBytes.prefix(15)) + [0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00]
        #expect(
            throws: SonyProtocolError.malformed(
                .invalidValue(
                    field: "0xD20D.enumeration.count", reason: "65535 values of at least 4 bytes do not fit in 4 bytes")
            )
        ) {
            _ = try decode(bytes, .twoLists)
        }
    }

    @Test func aSecondListCountLargerThanTheDataIsRefused() {
        var bytes = Self.shutterBytes
        bytes[25] = 0x04
        #expect(
            throws: SonyProtocolError.malformed(
                .invalidValue(
                    field: "0xD20D.supported.count", reason: "4 values of at least 4 bytes do not fit in 12 bytes"))
        ) {
            _ = try decode(bytes, .twoLists)
        }
    }
}

/// The 0x9209 wrapper around descriptors.
struct SonyPropertyDumpCodingTests {
    @Test func anEmptyChangeOnlyDumpIsJustACountOfZero() throws {
        let empty = SonyPropertyDump(descriptors: [])
        #expect(empty.encoded(protocolVersion: .v3_00) == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(try SonyPropertyDump(decoding: [0, 0, 0, 0, 0, 0, 0, 0], protocolVersion: .v3_00) == empty)
    }

    @Test func aHandBuiltDumpRoundTripsInBothVersions() throws {
        let dump = SonyPropertyDump(descriptors: [SonyPropertyDescriptorTests.battery, SonyPropertyDescriptorTests.name]
        )
        for version in [SonyProtocolVersion.v2_00, .v3_00] {
            #expect(
                try SonyPropertyDump(decoding: dump.encoded(protocolVersion: version), protocolVersion: version) == dump
            )
        }
    }

    @Test func aCountLargerThanTheDataIsRefusedBeforeAllocating() {
        let bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + Array(repeating: 0, count: 17)
        #expect(
            throws: SonyProtocolError.malformed(
                .invalidValue(
                    field: "propertyCount", reason: "18446744073709551615 descriptors do not fit in 17 bytes"))
        ) {
            _ = try SonyPropertyDump(decoding: bytes, protocolVersion: .v3_00)
        }
    }

    @Test func aCountOfTwoWithOneDescriptorIsTruncated() {
        var bytes = SonyPropertyDump(descriptors: [SonyPropertyDescriptorTests.name]).encoded(protocolVersion: .v3_00)
        bytes[0] = 2
        #expect(throws: SonyProtocolError.malformed(.truncated(field: "descriptor.code", needed: 2, available: 0))) {
            _ = try SonyPropertyDump(decoding: bytes, protocolVersion: .v3_00)
        }
    }
}

/// What a camera accepts with SDIO_SetExtDevicePropValue (0x9205).
struct SonyPropertyDescriptorAllowsTests {
    @Test func anEnumerationAllowsOnlyItsSettableValues() {
        let shutter = SonyPropertyDescriptorTests.shutter
        #expect(shutter.allows(.uint32(0x0001_00FA)))
        // Supported but not settable now.
        #expect(!shutter.allows(.uint32(0)))
        #expect(!shutter.allows(.uint32(0x0001_1F40)))
        #expect(!shutter.allows(.uint16(0x00FA)))
    }

    @Test func aRangeAllowsValuesOnItsSteps() {
        let temperature = SonyPropertyDescriptor(
            code: SonyPropertyCode(rawValue: 0xD20F), dataType: .uint16, factoryValue: .uint16(0),
            currentValue: .uint16(5500),
            form: .range(minimum: .uint16(2500), maximum: .uint16(9900), step: .uint16(100)))
        #expect(temperature.allows(.uint16(2500)))
        #expect(temperature.allows(.uint16(5600)))
        #expect(temperature.allows(.uint16(9900)))
        #expect(!temperature.allows(.uint16(5550)))
        #expect(!temperature.allows(.uint16(2400)))
        #expect(!temperature.allows(.uint16(10000)))
    }

    @Test func aReadOnlyOrDisabledPropertyAllowsNothing() {
        #expect(!SonyPropertyDescriptorTests.battery.allows(.int8(50)))
        var greyed = SonyPropertyDescriptorTests.shutter
        greyed.enabled = .off
        #expect(!greyed.allows(.uint32(0x0001_00FA)))
    }

    @Test func wideRangesCompareWithoutOverflow() {
        let huge = SonyPropertyDescriptor(
            code: SonyPropertyCode(rawValue: 0xD2FE), dataType: .uint64, factoryValue: .uint64(0),
            currentValue: .uint64(0),
            form: .range(minimum: .uint64(0), maximum: .uint64(.max), step: .uint64(1)))
        #expect(huge.allows(.uint64(.max)))
        #expect(PTPValue.uint128(.max).wideValue == nil)
    }
}
