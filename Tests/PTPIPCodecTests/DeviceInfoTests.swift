import ByteCoding
import TestSupport
import Testing

@testable import PTPIPCodec

/// The real GetDeviceInfo data phases of a DSC-RX100M7 and an ILCE-9.
@Suite(.enabled(if: Fixtures.available, Fixtures.skipReason))
struct DeviceInfoFixtureTests {
    @Test(arguments: [
        ("sony/rx100m7_GetDeviceInfo_0x1001.payload.bin", "DSC-RX100M7", "1.00", 27),
        ("sony/ilce9_GetDeviceInfo_0x1001.payload.bin", "ILCE-9", "6.00", 24)
    ])
    func realDeviceInfoDecodesEveryByte(file: String, model: String, version: String, operations: Int) throws {
        let bytes = try Fixtures.load(file)
        let info = try DeviceInfo(decoding: bytes)
        #expect(info.standardVersion == 100)
        #expect(info.vendorExtensionID == 0x11)
        #expect(info.vendorExtensionVersion == 100)
        #expect(info.vendorExtensionDescription == "Sony PTP Extensions")
        #expect(info.manufacturer == "Sony Corporation")
        #expect(info.model == model)
        #expect(info.deviceVersion == version)
        #expect(info.serialNumber.count == 32)
        #expect(info.operationsSupported.count == operations)
        // Sony's vendor codes (SDIO_GetExtDeviceInfo, SDIO_GetAllExtDevicePropInfo, SDIE_DevicePropChanged).
        #expect(info.supports(OperationCode(0x9202)))
        #expect(info.supports(OperationCode(0x9209)))
        #expect(info.eventsSupported.contains(EventCode(0xC203)))
        #expect(info.captureFormats.isEmpty)
        #expect(info.imageFormats == [0x3801, 0xB301, 0xB101])
        // Twins: the encoder gives back the camera's exact bytes.
        #expect(info.encoded() == bytes)
    }

    @Test func everyTruncationOfTheRealDatasetIsATypedError() throws {
        let bytes = try Fixtures.load("sony/rx100m7_GetDeviceInfo_0x1001.payload.bin")
        for length in 0..<bytes.count {
            #expect(throws: PTPIPCodecError.self, "cut at \(length)") { try DeviceInfo(decoding: bytes[..<length]) }
        }
        #expect(throws: PTPIPCodecError.layout(.trailingBytes(count: 1, after: "DeviceInfo"))) {
            try DeviceInfo(decoding: bytes + [0])
        }
    }
}

@Suite struct DeviceInfoTests {
    static let sample = DeviceInfo(
        vendorExtensionID: 0x11, vendorExtensionVersion: 100, vendorExtensionDescription: "Sony PTP Extensions",
        operationsSupported: [.getDeviceInfo, .openSession, OperationCode(0x9201)],
        eventsSupported: [EventCode(0xC201)],
        devicePropertiesSupported: [0x5007], captureFormats: [], imageFormats: [0x3801],
        manufacturer: "Sony Corporation", model: "ILCE-7M3", deviceVersion: "3.10", serialNumber: "")

    @Test func encodeThenDecodeGivesTheSameDataset() throws {
        #expect(try DeviceInfo(decoding: Self.sample.encoded()) == Self.sample)
    }

    @Test func arrayCountLargerThanTheDataIsRefusedWithoutAllocating() {
        var writer = ByteWriter()
        writer.writeInteger(UInt16(100))
        writer.writeInteger(UInt32(0x11))
        writer.writeInteger(UInt16(100))
        writer.writePTPString("")
        writer.writeInteger(UInt16(0))
        writer.writeInteger(UInt32(0xFFFF_FFFF)) // OperationsSupported: 4 billion codes, 2 bytes follow
        writer.writeInteger(UInt16(0x1001))
        #expect(
            throws: PTPIPCodecError.layout(
                .invalidValue(
                    field: "OperationsSupported.count", reason: "4294967295 elements of 2 bytes do not fit in 2 bytes"))
        ) {
            try DeviceInfo(decoding: writer.bytes)
        }
    }
}

@Suite struct PTPStringTests {
    @Test(arguments: ["", "A", "Sony Corporation", "Grüße 📷", "a\u{0}b"])
    func stringsRoundTrip(_ text: String) throws {
        var writer = ByteWriter()
        writer.writePTPString(text)
        #expect(writer.count == PTPString.encodedLength(of: text))
        var reader = ByteReader(writer.bytes)
        #expect(try reader.readPTPString(field: "s") == text)
        #expect(reader.isAtEnd)
    }

    @Test func countZeroIsTheEmptyStringAndCountOneIsJustTheTerminator() throws {
        var empty = ByteReader([0])
        #expect(try empty.readPTPString(field: "s") == "")
        var terminatorOnly = ByteReader([1, 0, 0])
        #expect(try terminatorOnly.readPTPString(field: "s") == "")
        #expect(terminatorOnly.isAtEnd)
    }

    @Test func stringLayoutIsCountThenUTF16LEWithTerminator() {
        var writer = ByteWriter()
        writer.writePTPString("Hi")
        #expect(writer.bytes == [3, 0x48, 0, 0x69, 0, 0, 0])
    }

    @Test func truncatedStringIsATypedError() {
        var reader = ByteReader([5, 0x41, 0, 0x42])
        #expect(throws: ByteCodingError.truncated(field: "Model", needed: 10, available: 3)) {
            try reader.readPTPString(field: "Model")
        }
    }

    @Test func stringWithoutTerminatorIsRejected() {
        var reader = ByteReader([2, 0x41, 0, 0x42, 0])
        #expect(throws: ByteCodingError.self) { try reader.readPTPString(field: "Model") }
    }

    @Test func overlongStringsAreCutToFitTheCount() throws {
        var writer = ByteWriter()
        writer.writePTPString(String(repeating: "x", count: 400))
        #expect(writer.bytes.first == 255)
        var reader = ByteReader(writer.bytes)
        #expect(try reader.readPTPString(field: "s") == String(repeating: "x", count: 254))
    }
}
