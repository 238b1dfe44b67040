import CameraSimulator
import PTPIP
import SonyProtocol
import Testing

@Suite("Simulated camera: the capture timeline in virtual time")
struct CaptureTimelineTests {
    @Test func exposureLastsTheShutterSpeedThenProcessingThenTheImageIsAnnounced() throws {
        var driver = try CameraDriver { $0.processingTime = .milliseconds(300) }
        driver.connect()
        _ = driver.send(
            .sdioSetExtDevicePropValue, [0xD20D], data: SonyShutterValue(numerator: 2, denominator: 1).ptpValue.encoded)
        // 2" is not in the list (the body writes 20/10): refused.
        #expect(driver.camera.shutterSpeed == SonyShutterValue(numerator: 1, denominator: 125))
        #expect(
            driver.send(
                .sdioSetExtDevicePropValue, [0xD20D],
                data: SonyShutterValue(numerator: 20, denominator: 10).ptpValue.encoded
            ).code == .ok)
        _ = driver.camera.takeEvents()
        #expect(driver.release().map(\.code) == [.ok, .ok, .ok, .ok])
        #expect(driver.camera.frameCount == 1)
        driver.wait(.milliseconds(1999))
        #expect(driver.camera.takeFinishedCaptures().isEmpty)
        // During the exposure a second release is busy.
        _ = driver.button(.s1Button, .down)
        #expect(driver.button(.s2Button, .down).code == .deviceBusy)
        _ = driver.button(.s1Button, .up)
        driver.wait(.milliseconds(1))
        let record = try #require(driver.camera.takeFinishedCaptures().first)
        #expect(record.frame == 1 && record.label == "2\"" && record.seconds == 2 && record.exposureSeconds == 2)
        // The shutter closed: SDIE_CapturedEvent, before processing.
        #expect(driver.camera.takeEvents().map(\.code) == [.capturedEvent])
        #expect(driver.camera.value(of: .shootingFileInfo) == .uint16(0))
        driver.wait(.milliseconds(300))
        #expect(driver.camera.value(of: .shootingFileInfo) == .uint16(0x8001))
        let events = driver.camera.takeEvents()
        // The card's shots left (0xD249) and the buffer (0xD215) changed, then the image is announced.
        #expect(events.map(\.code) == [.sonyDevicePropChanged, .sonyDevicePropChanged, .sonyObjectAdded])
        #expect(events.dropLast().map { $0.parameters.first } == [0xD249, 0xD215])
        #expect(events.last?.parameters == [SonyObjectHandle.stillImage])
        #expect(driver.camera.nextDeadline == nil)
    }

    @Test func exposureCapHoldsLongExposuresShort() throws {
        var driver = try CameraDriver {
            $0.exposureCap = .milliseconds(50)
            $0.processingTime = .zero
        }
        driver.connect()
        _ = driver.send(
            .sdioSetExtDevicePropValue, [0xD20D],
            data: SonyShutterValue(numerator: 300, denominator: 10).ptpValue.encoded)
        _ = driver.release()
        driver.wait(.milliseconds(50))
        let record = try #require(driver.camera.takeFinishedCaptures().first)
        #expect(record.seconds == 30 && record.exposureSeconds == 0.05)
        #expect(driver.camera.buffered?.image.fileName == "DSC00001_30s.JPG")
    }

    @Test func bulbExposesWhileS2IsHeldWhateverTheCap() throws {
        var driver = try CameraDriver { $0.processingTime = .zero }
        driver.connect()
        _ = driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: SonyShutterValue.bulb.ptpValue.encoded)
        _ = driver.button(.s1Button, .down)
        _ = driver.button(.s2Button, .down)
        #expect(driver.camera.nextDeadline == nil)
        driver.wait(.seconds(7))
        _ = driver.button(.s2Button, .up)
        let record = try #require(driver.camera.takeFinishedCaptures().first)
        #expect(record.label == "BULB" && record.seconds == nil && record.exposureSeconds == 7)
        #expect(driver.camera.buffered?.image.fileName == "DSC00001_BULB.JPG")

        var capped = try CameraDriver {
            $0.processingTime = .zero
            $0.exposureCap = .seconds(1)
        }
        capped.connect()
        _ = capped.send(.sdioSetExtDevicePropValue, [0xD20D], data: SonyShutterValue.bulb.ptpValue.encoded)
        _ = capped.button(.s2Button, .down)
        capped.wait(.seconds(5))
        _ = capped.button(.s2Button, .up)
        // The client decides how long BULB lasts; the cap only shortens timed exposures (and dark frames).
        #expect(capped.camera.takeFinishedCaptures().first?.exposureSeconds == 5)
    }

    @Test func imageStaysUntilDownloadedAndPartialReadsEmptyTheBufferAtTheEnd() throws {
        var driver = try CameraDriver {
            $0.processingTime = .zero
            $0.imageSize = 5000
        }
        driver.connect()
        _ = driver.release()
        driver.wait(.milliseconds(8))
        let expected = try #require(driver.camera.buffered?.image.allBytes)
        #expect(driver.send(.getObjectInfo, [1]).code == .invalidObjectHandle)
        let first = driver.send(.getPartialObject, [SonyObjectHandle.stillImage, 0, 3000])
        #expect(first.parameters == [3000] && first.data?.count == 3000)
        #expect(driver.camera.buffered != nil)
        let rest = driver.send(.getPartialObject, [SonyObjectHandle.stillImage, 3000, 3000])
        #expect(rest.parameters == [2000])
        #expect((first.data?.allBytes ?? []) + (rest.data?.allBytes ?? []) == expected)
        #expect(driver.camera.buffered == nil)
        #expect(driver.camera.value(of: .shootingFileInfo) == .uint16(0))
        #expect(driver.send(.getObject, [SonyObjectHandle.stillImage]).code == .invalidObjectHandle)
    }

    @Test func dialTurnFaultChangesTheModeBeforeTheFrameAndGreysOutTheShutter() throws {
        var driver = try CameraDriver {
            $0.processingTime = .zero
            $0.faults = [.modeAtFrame(frame: 1, mode: .shutterPriority), .modeAtFrame(frame: 2, mode: .program)]
        }
        driver.connect()
        _ = driver.release()
        #expect(driver.camera.value(of: .exposureProgramMode) == .uint32(SonyExposureMode.shutterPriority.rawValue))
        driver.wait(.milliseconds(8))
        _ = driver.send(.getObject, [SonyObjectHandle.stillImage])
        _ = driver.release()
        #expect(driver.camera.value(of: .exposureProgramMode) == .uint32(SonyExposureMode.programAuto.rawValue))
        let shutter = try #require(driver.camera.properties.first { $0.code == .shutterSpeed })
        #expect(!shutter.isSettable && shutter.settableValues.isEmpty)
    }

    @Test func connectionLossEndsTheSessionButKeepsTheImage() throws {
        var driver = try CameraDriver { $0.processingTime = .zero }
        driver.connect()
        _ = driver.release()
        driver.wait(.milliseconds(8))
        driver.camera.connectionClosed(now: driver.now)
        #expect(driver.camera.session == .closed)
        #expect(driver.camera.buffered != nil)
        #expect(driver.send(.getObject, [SonyObjectHandle.stillImage]).code == .sessionNotOpen)
    }
}
