import SonyProtocol
import TestSupport
import Testing

/// SDIO_GetExtDeviceInfo (0x9202) data phases of the RX100M7 and the ILCE-9.
@Suite(.enabled(if: Fixtures.available, Fixtures.skipReason))
struct SonyExtDeviceInfoTests {
    @Test(arguments: [
        ("sony/rx100m7_SDIO_GetExtDeviceInfo_0x9202.payload.bin", 212, 78, 23),
        ("sony/ilce9_SDIO_GetExtDeviceInfo_0x9202.payload.bin", 198, 72, 22)
    ])
    func decodesProtocolThreeAndTheCodeListsThenReencodesIdenticalBytes(
        path: String, size: Int, properties: Int, controls: Int
    ) throws {
        let bytes = try Fixtures.load(path)
        #expect(bytes.count == size)
        let info = try SonyExtDeviceInfo(decoding: bytes)
        #expect(info.protocolVersion == .v3_00)
        #expect(info.protocolVersion.rawValue == 0x012C)
        #expect(info.protocolVersion.enumerationLayout == .twoLists)
        #expect(info.propertyCodes.count == properties)
        #expect(info.controlCodes.count == controls)
        #expect(info.propertyCodes.contains(.shutterSpeed))
        #expect(info.propertyCodes.contains(.exposureProgramMode))
        #expect(info.controlCodes.prefix(2) == [.s1Button, .s2Button])
        #expect(info.encoded == bytes)
    }

    @Test func rx100m7DescribesInItsDumpExactlyThePropertiesItAnnounces() throws {
        let info = try SonyExtDeviceInfo(
            decoding: Fixtures.load("sony/rx100m7_SDIO_GetExtDeviceInfo_0x9202.payload.bin"))
        let dump = try SonyPropertyDump(
            decoding: Fixtures.load("sony/rx100m7_SDIO_GetAllExtDevicePropInfo_0x9209.payload.bin"),
            protocolVersion: info.protocolVersion)
        #expect(dump.descriptors.map(\.code) == info.propertyCodes)
    }

    @Test func everyTruncationThrows() throws {
        let bytes = try Fixtures.load("sony/ilce9_SDIO_GetExtDeviceInfo_0x9202.payload.bin")
        for length in 0..<bytes.count {
            #expect(throws: SonyProtocolError.self) { _ = try SonyExtDeviceInfo(decoding: Array(bytes.prefix(length))) }
        }
    }
}

/// SDIO_GetExtDeviceInfo built by hand: the simulator's side and malformed answers.
struct SonyExtDeviceInfoCodingTests {
    @Test func protocolTwoInfoRoundTrips() throws {
        let info = SonyExtDeviceInfo(
            protocolVersion: .v2_00, propertyCodes: [.shutterSpeed, .exposureProgramMode],
            controlCodes: [.s1Button, .s2Button])
        let bytes = info.encoded
        #expect(bytes == [0xC8, 0x00, 2, 0, 0, 0, 0x0D, 0xD2, 0x0E, 0x50, 2, 0, 0, 0, 0xC1, 0xD2, 0xC2, 0xD2])
        #expect(try SonyExtDeviceInfo(decoding: bytes) == info)
        #expect(info.protocolVersion.enumerationLayout == .oneList)
        #expect(!info.protocolVersion.setsShutterSpeedAbsolutely)
    }

    @Test func anEmptyAnswerIsTruncatedSoTheCallerRetries() {
        #expect(throws: SonyProtocolError.malformed(.truncated(field: "protocolVersion", needed: 2, available: 0))) {
            _ = try SonyExtDeviceInfo(decoding: [])
        }
    }

    @Test func aCodeCountLargerThanTheDataIsRefusedBeforeReading() {
        let bytes: [UInt8] = [0x2C, 0x01, 0xFF, 0xFF, 0xFF, 0x7F, 0x0D, 0xD2]
        #expect(
            throws: SonyProtocolError.malformed(
                .invalidValue(
                    field: "propertyCodes.count", reason: "2147483647 elements of 2 bytes do not fit in 2 bytes"))
        ) {
            _ = try SonyExtDeviceInfo(decoding: bytes)
        }
    }

    @Test func trailingBytesAreRefused() {
        let bytes = SonyExtDeviceInfo(protocolVersion: .v3_00, propertyCodes: [], controlCodes: []).encoded + [0xAA]
        #expect(throws: SonyProtocolError.malformed(.trailingBytes(count: 1, after: "SDIO_GetExtDeviceInfo"))) {
            _ = try SonyExtDeviceInfo(decoding: bytes)
        }
    }
}
