import ByteCoding
import CameraSimulator
import PTPIPCodec
import SonyProtocol
import Testing

@Suite("Simulated camera: session and properties")
struct SimulatedCameraTests {
    @Test func deviceInfoSaysSonyWithTheSDIOOperationsAndEvents() throws {
        var driver = try CameraDriver()
        let reply = driver.send(.getDeviceInfo)
        #expect(reply.code == .ok)
        let info = try DeviceInfo(decoding: reply.data?.allBytes ?? [])
        #expect(info.vendorExtensionID == 0x11)
        #expect(info.manufacturer == "Sony Corporation")
        for operation: OperationCode in [
            .sdioConnect, .sdioGetExtDeviceInfo, .sdioSetExtDevicePropValue, .sdioControlDevice,
            .sdioGetAllExtDevicePropInfo, .getObjectInfo, .getObject, .getPartialObject
        ] {
            #expect(info.operationsSupported.contains(operation))
        }
        #expect(
            info.eventsSupported == [.sonyObjectAdded, .sonyObjectRemoved, .sonyDevicePropChanged, .capturedEvent])
    }

    @Test func operationsNeedAnOpenSession() throws {
        var driver = try CameraDriver()
        #expect(driver.send(.sdioConnect, [1, 0, 0]).code == .sessionNotOpen)
        #expect(driver.send(.openSession, [7]).code == .ok)
        #expect(driver.send(.openSession, [7]).code == .sessionAlreadyOpen)
        #expect(driver.send(.closeSession).code == .ok)
        #expect(driver.send(.sdioGetExtDeviceInfo, [300]).code == .sessionNotOpen)
    }

    @Test func sdioConnectAnswersEachPhaseWithEightBytes() throws {
        var driver = try CameraDriver()
        _ = driver.send(.openSession, [1])
        for phase: UInt32 in [1, 2, 3] {
            let reply = driver.send(.sdioConnect, [phase, 0, 0])
            #expect(reply.code == .ok)
            #expect(reply.data?.count == 8)
        }
        #expect(driver.camera.connectPhase == 3)
        #expect(driver.send(.sdioConnect, [4, 0, 0]).code == .invalidParameter)
    }

    @Test(arguments: [(300, SonyProtocolVersion.v3_00), (200, .v2_00)])
    func extDeviceInfoReportsTheConfiguredProtocol(configured: Int, expected: SonyProtocolVersion) throws {
        var driver = try CameraDriver { $0.protocolVersion = UInt16(configured) }
        _ = driver.send(.openSession, [1])
        let info = try SonyExtDeviceInfo(decoding: driver.send(.sdioGetExtDeviceInfo, [300]).data?.allBytes ?? [])
        #expect(info.protocolVersion == expected)
        #expect(info.controlCodes == [.s1Button, .s2Button])
        for code: SonyPropertyCode in [.shutterSpeed, .compressionSetting, .focusMode, .shootingFileInfo] {
            #expect(info.propertyCodes.contains(code))
        }
    }

    @Test(arguments: [300, 200])
    func propertyDumpHoldsWhatGphoto2AndHdrshootRead(version: Int) throws {
        var driver = try CameraDriver { $0.protocolVersion = UInt16(version) }
        _ = driver.send(.openSession, [1])
        let table = SonyPropertyTable(SonyPropertyDump(descriptors: try driver.properties()))
        for code: SonyPropertyCode in [
            .shutterSpeed, .exposureProgramMode, .compressionSetting, .focusMode, .shootingFileInfo, .focusIndication,
            .saveDestination, .priorityKeySettings
        ] {
            #expect(table[code] != nil, "missing \(code)")
        }
        #expect(table.exposureMode == .manual)
        #expect(table.focusMode == .manual)
        #expect(table.shutterSpeed == SonyShutterValue(numerator: 1, denominator: 125))
        let speeds = table.supportedShutterSpeeds
        #expect(speeds.first == .bulb)
        #expect(speeds[1] == SonyShutterValue(numerator: 300, denominator: 10))
        #expect(speeds.last == SonyShutterValue(numerator: 1, denominator: 8000))
    }

    @Test func maxShutterOptionShortensTheList() throws {
        var driver = try CameraDriver { $0.fastestShutterDenominator = 4000 }
        _ = driver.send(.openSession, [1])
        let table = SonyPropertyTable(SonyPropertyDump(descriptors: try driver.properties()))
        #expect(table.supportedShutterSpeeds.last == SonyShutterValue(numerator: 1, denominator: 4000))
    }

    @Test func changedOnlyDumpHoldsOnlyWhatChanged() throws {
        var driver = try CameraDriver()
        driver.connect()
        #expect(try driver.properties(changedOnly: true).isEmpty)
        let value = SonyShutterValue(numerator: 1, denominator: 250)
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: value.ptpValue.encoded).code == .ok)
        let changed = try driver.properties(changedOnly: true)
        #expect(changed.map(\.code) == [.shutterSpeed])
        #expect(changed.first?.currentValue == value.ptpValue)
        #expect(try driver.properties(changedOnly: true).isEmpty)
        let events = driver.camera.takeEvents()
        #expect(events.map(\.code) == [.sonyDevicePropChanged])
        #expect(events.first?.parameters == [0xD20D])
    }

    @Test func absoluteSetRejectsValuesTheBodyDoesNotOffer() throws {
        var driver = try CameraDriver()
        driver.connect()
        // 1/251 is not a speed the body offers: Invalid_DevicePropValue, value unchanged.
        let bad = SonyShutterValue(numerator: 1, denominator: 251).ptpValue.encoded
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: bad).code == .invalidDevicePropValue)
        #expect(driver.camera.shutterSpeed == SonyShutterValue(numerator: 1, denominator: 125))
        // Wrong width for a u32 property.
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: [1, 0]).code == .invalidDevicePropFormat)
        // Read-only and unknown properties.
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD215], data: [1, 0x80]).code == .accessDenied)
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD2FF], data: [1]).code == .devicePropNotSupported)
    }

    @Test func protocol2BodyMovesTheShutterOnlyByNotchesAfterTheStepDelay() throws {
        var driver = try CameraDriver {
            $0.protocolVersion = 200
            $0.stepDelay = .milliseconds(300)
        }
        driver.connect()
        // An absolute set is answered OK and ignored, as 2.00 bodies do.
        let absolute = SonyShutterValue(numerator: 1, denominator: 250).ptpValue.encoded
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: absolute).code == .ok)
        #expect(driver.camera.shutterSpeed == SonyShutterValue(numerator: 1, denominator: 125))
        // Three notches faster from 1/125: 1/160, 1/200, 1/250.
        #expect(driver.send(.sdioControlDevice, [0xD20D], data: [0x03]).code == .ok)
        driver.wait(.milliseconds(299))
        #expect(driver.camera.shutterSpeed == SonyShutterValue(numerator: 1, denominator: 125))
        driver.wait(.milliseconds(1))
        #expect(driver.camera.shutterSpeed == SonyShutterValue(numerator: 1, denominator: 250))
        // 0xFF is one notch slower.
        #expect(driver.send(.sdioControlDevice, [0xD20D], data: [0xFF]).code == .ok)
        driver.wait(.milliseconds(300))
        #expect(driver.camera.shutterSpeed == SonyShutterValue(numerator: 1, denominator: 200))
    }

    @Test func stepsStopAtTheEndsOfTheList() throws {
        var driver = try CameraDriver { $0.stepDelay = .zero }
        driver.connect()
        #expect(driver.send(.sdioControlDevice, [0xD20D], data: [0x7F]).code == .ok)
        #expect(driver.camera.shutterSpeed == SonyShutterValue(numerator: 1, denominator: 8000))
        #expect(driver.send(.sdioControlDevice, [0xD20D], data: [0x81]).code == .ok)
        #expect(driver.send(.sdioControlDevice, [0xD20D], data: [0x81]).code == .ok)
        #expect(driver.camera.shutterSpeed == .bulb)
    }
}
