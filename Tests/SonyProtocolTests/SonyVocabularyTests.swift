import PTPIPCodec
import SonyProtocol
import TestSupport
import Testing

/// Sony's operation and event codes and its DeviceInfo test, declared here on PTPIP's standard types.
@Suite struct SonyVocabularyTests {
    @Test func sonyCodesCarrySonyNamesIntoMessages() {
        #expect(OperationCode.sdioGetAllExtDevicePropInfo.description == "SDIO_GetAllExtDevicePropInfo (0x9209)")
        #expect(OperationCode.sdioControlDevice.name == "SDIO_ControlDevice")
        #expect(EventCode.sonyDevicePropChanged.description == "SDIE_DevicePropChanged (0xC203)")
        #expect(EventCode.sonyObjectAdded.name == "SDIE_ObjectAdded")
    }

    @Test func codesReadFromTheWireGetSonyNamesBack() {
        #expect(OperationCode(0x9201).name == "operation 0x9201")
        #expect(OperationCode(0x9201).inSonyVocabulary.name == "SDIO_Connect")
        #expect(OperationCode(0x1009).inSonyVocabulary.name == "GetObject")
        #expect(OperationCode(0x92FF).inSonyVocabulary.name == "operation 0x92FF")
        #expect(EventCode(0xC202).inSonyVocabulary.name == "SDIE_ObjectRemoved")
        #expect(EventCode(0xC2FF).inSonyVocabulary.name == "event 0xC2FF")
    }

    @Test func aDeviceInfoIsSonyByItsVendorExtensionID() {
        let sony = DeviceInfo(
            vendorExtensionID: 0x11, vendorExtensionVersion: 100, vendorExtensionDescription: "Sony PTP Extensions",
            operationsSupported: [.getDeviceInfo, .sdioConnect], eventsSupported: [.sonyObjectAdded],
            devicePropertiesSupported: [], captureFormats: [], imageFormats: [], manufacturer: "Sony Corporation",
            model: "ILCE-7M3", deviceVersion: "3.10", serialNumber: "")
        #expect(sony.isSony)
        var other = sony
        other.vendorExtensionID = 0x0A
        #expect(!other.isSony)
    }
}

/// The real GetDeviceInfo data phases announce Sony's extensions and the SDIO operations hdrshoot needs.
@Suite(.enabled(if: Fixtures.available, Fixtures.skipReason))
struct SonyDeviceInfoFixtureTests {
    @Test(arguments: ["sony/rx100m7_GetDeviceInfo_0x1001.payload.bin", "sony/ilce9_GetDeviceInfo_0x1001.payload.bin"])
    func realBodiesAreSonyWithTheSDIOOperations(file: String) throws {
        let info = try DeviceInfo(decoding: Fixtures.load(file))
        #expect(info.isSony)
        #expect(info.supports(.sdioGetExtDeviceInfo))
        #expect(info.supports(.sdioGetAllExtDevicePropInfo))
        #expect(info.eventsSupported.contains(.sonyDevicePropChanged))
    }
}
