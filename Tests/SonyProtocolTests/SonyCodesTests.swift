import PTPIPCodec
import SonyProtocol
import Testing

/// The wire constants, each checked against libgphoto2, rocc and the recorded bytes.
struct SonyCodesTests {
    @Test func operationCodesAndNames() {
        #expect(OperationCode.sdioConnect.rawValue == 0x9201)
        #expect(OperationCode.sdioGetExtDeviceInfo.rawValue == 0x9202)
        #expect(OperationCode.sdioSetExtDevicePropValue.rawValue == 0x9205)
        #expect(OperationCode.sdioControlDevice.rawValue == 0x9207)
        #expect(OperationCode.sdioGetAllExtDevicePropInfo.rawValue == 0x9209)
        #expect(OperationCode.sdioGetAllExtDevicePropInfo.name == "SDIO_GetAllExtDevicePropInfo")
        #expect(SonyPropertyDumpScope.changedPropertiesOnly == 1)
        #expect(SonyPropertyDumpScope.allProperties == 0)
        #expect(SonyConnectPhase.allCases.map(\.rawValue) == [1, 2, 3])
    }

    @Test func eventControlAndHandleCodes() {
        #expect(EventCode.sonyObjectAdded.rawValue == 0xC201)
        #expect(EventCode.sonyObjectRemoved.rawValue == 0xC202)
        #expect(EventCode.sonyDevicePropChanged.rawValue == 0xC203)
        #expect(SonyControlCode.s1Button.rawValue == 0xD2C1)
        #expect(SonyControlCode.s2Button.rawValue == 0xD2C2)
        #expect(SonyObjectHandle.stillImage == 0xFFFF_C001)
    }

    @Test func buttonsSendTwoForDownAndOneForUpAsU16() {
        // As in rocc's recorded TakePic flow: data phases 02 00 (press) and 01 00 (release).
        #expect(SonyButtonState.down.dataPhase == [0x02, 0x00])
        #expect(SonyButtonState.up.dataPhase == [0x01, 0x00])
    }

    @Test func propertyCodes() {
        #expect(SonyPropertyCode.compressionSetting.rawValue == 0x5004)
        #expect(SonyPropertyCode.focusMode.rawValue == 0x500A)
        #expect(SonyPropertyCode.exposureProgramMode.rawValue == 0x500E)
        #expect(SonyPropertyCode.shutterSpeed.rawValue == 0xD20D)
        #expect(SonyPropertyCode.focusIndication.rawValue == 0xD213)
        #expect(SonyPropertyCode.shootingFileInfo.rawValue == 0xD215)
        #expect(SonyPropertyCode.saveDestination.rawValue == 0xD222)
        #expect(SonyPropertyCode.priorityKeySettings.rawValue == 0xD25A)
        #expect(SonyPropertyCode.shutterSpeed.description == "0xD20D")
        #expect(SonyPropertyCode(rawValue: 0x500A).description == "0x500A")
    }

    @Test func protocolVersionsPickTheEnumerationLayout() {
        #expect(SonyProtocolVersion.v2_00.rawValue == 0x00C8)
        #expect(SonyProtocolVersion.v3_00.rawValue == 0x012C)
        #expect(SonyProtocolVersion.v2_00.enumerationLayout == .oneList)
        #expect(SonyProtocolVersion.v3_00.enumerationLayout == .twoLists)
        #expect(SonyProtocolVersion(rawValue: 0x012D).enumerationLayout == .twoLists)
        #expect(SonyProtocolVersion.v3_00.setsShutterSpeedAbsolutely)
    }

    @Test(arguments: [
        (SonyExposureMode.manual, UInt32(0x0000_0001), "M", true),
        (.programAuto, 0x0001_0002, "P", false),
        (.aperturePriority, 0x0002_0003, "A", false),
        (.shutterPriority, 0x0003_0004, "S", true),
        (.intelligentAuto, 0x0004_8000, "Intelligent Auto", false),
        (.movieManual, 0x0007_8053, "Movie M", false),
        (.other(0x0005_8011), 0x0005_8011, "Sports Action", false),
        (.other(0x0005_8012), 0x0005_8012, "Sunset", false),
        (.other(0x0007_8054), 0x0007_8054, "Movie Auto", false),
        (.other(0x00FF_0001), 0x00FF_0001, "mode 0x00FF0001", false)
    ])
    func exposureModesRoundTripTheirRawValues(mode: SonyExposureMode, raw: UInt32, name: String, shootable: Bool) {
        #expect(SonyExposureMode(rawValue: raw) == mode)
        #expect(mode.rawValue == raw)
        #expect(mode.name == name)
        #expect(mode.allowsShutterSpeedControl == shootable)
    }

    @Test(arguments: [
        // Protocol 2.00 writes the mode as a u16: the low 16 bits of the 3.00 value (the ILCE-6000's S and iAuto).
        (UInt32(0x0001), SonyExposureMode.manual, "M"), (0x0002, .programAuto, "P"), (0x0003, .aperturePriority, "A"),
        (0x0004, .shutterPriority, "S"), (0x8000, .intelligentAuto, "Intelligent Auto"),
        (0x8001, .superiorAuto, "Superior Auto"), (0x8053, .movieManual, "Movie M"),
        (0x8012, .other(0x8012), "Sunset"), (0x8060, .other(0x8060), "Flash Off")
    ])
    func protocol200ModesDecodeFromTheirLow16Bits(raw: UInt32, mode: SonyExposureMode, name: String) {
        #expect(SonyExposureMode(rawValue: raw) == mode)
        #expect(mode.name == name)
        #expect(mode.allowsShutterSpeedControl == (raw == 1 || raw == 4))
    }

    @Test func focusModesRoundTripTheirRawValues() {
        let table: [(SonyFocusMode, UInt16)] = [
            (.manual, 0x0001), (.singleAF, 0x0002), (.continuousAF, 0x8004), (.automaticAF, 0x8005),
            (.directManual, 0x8006), (.other(0x8009), 0x8009)
        ]
        for (mode, raw) in table {
            #expect(SonyFocusMode(rawValue: raw) == mode)
            #expect(mode.rawValue == raw)
        }
    }

    @Test func shootingFileInfoFlagsWaitingImagesWithBitFifteen() {
        #expect(SonyShootingFileInfo.waiting(1).rawValue == 0x8001)
        #expect(SonyShootingFileInfo(rawValue: 0x8001).hasImages)
        #expect(SonyShootingFileInfo(rawValue: 0x8003).imagesWaiting == 3)
        #expect(!SonyShootingFileInfo(rawValue: 0x8000).hasImages)
        #expect(!SonyShootingFileInfo.empty.hasImages)
        #expect(SonyShootingFileInfo(rawValue: 0x0005).imagesWaiting == 0)
    }

    @Test func shootingFileInfoEncodesACountAndClampsItToFifteenBits() {
        #expect(SonyShootingFileInfo(imagesWaiting: 0) == .empty)
        #expect(SonyShootingFileInfo(imagesWaiting: -1) == .empty)
        #expect(SonyShootingFileInfo(imagesWaiting: 2).rawValue == 0x8002)
        #expect(SonyShootingFileInfo(imagesWaiting: 40_000).rawValue == 0xFFFF)
        #expect(SonyShootingFileInfo(imagesWaiting: 40_000).imagesWaiting == 0x7FFF)
        for raw: UInt16 in [0, 0x8001, 0x8002, 0xFFFF] {
            let info = SonyShootingFileInfo(rawValue: raw)
            #expect(SonyShootingFileInfo(imagesWaiting: info.imagesWaiting) == info)
        }
        #expect("\(SonyShootingFileInfo.waiting(1))" == "0x8001")
    }
}
