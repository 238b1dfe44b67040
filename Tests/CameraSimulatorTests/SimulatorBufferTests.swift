import CameraSimulator
import PTPIPCodec
import SonyProtocol
import Testing

/// The buffer behind the shutter, in virtual time: captures process while the shutter fires again, files wait
/// as 0xFFFFC001 oldest first, and a body holding `bufferCapacity` captures takes a release without firing.
@Suite("Simulated camera: the capture buffer in virtual time")
struct SimulatorBufferTests {
    /// SDIO_GetPartialLargeObject (reference p. 119).
    static let getPartialLargeObject = OperationCode(0x9211)

    /// The 0xD215 value the body shows now.
    static func shootingFileInfo(_ driver: CameraDriver) -> PTPValue? { driver.camera.value(of: .shootingFileInfo) }

    /// The file name, ObjectFormat and SequenceNumber GetObjectInfo reports for 0xFFFFC001.
    static func objectInfo(_ driver: inout CameraDriver) throws -> ObjectInfo {
        try ObjectInfo(decoding: driver.send(.getObjectInfo, [SonyObjectHandle.stillImage]).data?.allBytes ?? [])
    }

    @Test func aFullBufferTakesAReleaseAndFiresNothingUntilAFileIsFetched() throws {
        var driver = try CameraDriver {
            $0.bufferCapacity = 2
            $0.processingTime = .milliseconds(100)
        }
        driver.connect()
        // 1/125: 8 ms exposures. Frame 1 processes while frame 2 fires.
        #expect(driver.release().map(\.code) == [.ok, .ok, .ok, .ok])
        driver.wait(.milliseconds(10))
        #expect(driver.camera.processing.count == 1)
        #expect(driver.release().map(\.code) == [.ok, .ok, .ok, .ok])
        driver.wait(.milliseconds(10))
        #expect(driver.camera.frameCount == 2 && driver.camera.capturesHeld == 2)
        _ = driver.camera.takeFinishedCaptures()
        // Two captures held (processing): the release is answered OK and nothing fires, no capture-log record.
        #expect(driver.release().map(\.code) == [.ok, .ok, .ok, .ok])
        driver.wait(.milliseconds(200))
        #expect(driver.camera.frameCount == 2)
        #expect(driver.camera.takeFinishedCaptures().isEmpty)
        #expect(Self.shootingFileInfo(driver) == .uint16(0x8002))
        // Still two held (waiting now): nothing fires.
        _ = driver.release()
        driver.wait(.milliseconds(10))
        #expect(driver.camera.frameCount == 2)
        // The oldest file first; one fetched frees a place and the next release fires frame 3.
        #expect(try Self.objectInfo(&driver).filename == "DSC00001_1-125s.JPG")
        #expect(driver.send(.getObject, [SonyObjectHandle.stillImage]).code == .ok)
        #expect(Self.shootingFileInfo(driver) == .uint16(0x8001))
        _ = driver.release()
        #expect(driver.camera.frameCount == 3)
        #expect(try Self.objectInfo(&driver).filename == "DSC00002_1-125s.JPG")
    }

    @Test func theShutterIsBusyWhileOpenAndDuringTheDarkFrameThenFreeWhileTheImageProcesses() throws {
        var driver = try CameraDriver {
            $0.quirks = [.longExposureNR]
            $0.processingTime = .seconds(1)
        }
        driver.connect()
        _ = driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: Speeds.twoSeconds.ptpValue.encoded)
        _ = driver.release()
        driver.wait(.seconds(1))
        // Exposing.
        _ = driver.button(.s1Button, .down)
        #expect(driver.button(.s2Button, .down).code == .deviceBusy)
        _ = driver.button(.s1Button, .up)
        driver.wait(.milliseconds(1500))
        // 2.5 s: the 2 s dark frame runs.
        _ = driver.button(.s1Button, .down)
        #expect(driver.button(.s2Button, .down).code == .deviceBusy)
        _ = driver.button(.s1Button, .up)
        #expect(driver.camera.frameCount == 1)
        driver.wait(.milliseconds(1500))
        // 4 s: frame 1 processes behind the shutter, which fires frame 2.
        #expect(driver.camera.processing.map(\.capture.frame) == [1])
        #expect(driver.release().map(\.code) == [.ok, .ok, .ok, .ok])
        #expect(driver.camera.frameCount == 2)
        #expect(driver.camera.buffer.isEmpty)
        driver.wait(.seconds(1))
        #expect(driver.camera.buffer.map(\.frame) == [1])
    }

    @Test func capturedEventComesWhenTheShutterClosesBeforeNoiseReductionAndProcessing() throws {
        var driver = try CameraDriver {
            $0.quirks = [.longExposureNR]
            $0.processingTime = .milliseconds(300)
        }
        driver.connect()
        _ = driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: Speeds.twoSeconds.ptpValue.encoded)
        _ = driver.camera.takeEvents()
        _ = driver.release()
        driver.wait(.milliseconds(1999))
        #expect(driver.camera.takeEvents().isEmpty)
        driver.wait(.milliseconds(1))
        let captured = driver.camera.takeEvents()
        #expect(captured.map(\.code) == [.capturedEvent])
        #expect(captured.first?.parameters == [])
        // The dark frame (2 s), then processing (0.3 s): only then ObjectAdded.
        driver.wait(.milliseconds(2299))
        #expect(!driver.camera.takeEvents().contains { $0.code == .sonyObjectAdded })
        driver.wait(.milliseconds(1))
        #expect(driver.camera.takeEvents().filter { $0.code == .sonyObjectAdded }.count == 1)
    }

    @Test func noEventsSuppressesTheCapturedEventToo() throws {
        var driver = try CameraDriver {
            $0.quirks = [.noEvents]
            $0.processingTime = .zero
        }
        driver.connect()
        _ = driver.release()
        driver.wait(.milliseconds(8))
        #expect(driver.camera.buffer.count == 1)
        #expect(driver.camera.takeEvents().isEmpty)
    }

    @Test func aBodyThatListsTheCapturedEventWithoutSendingItStillAnnouncesItsImage() throws {
        var driver = try CameraDriver {
            $0.quirks = [.capturedEventListedNotSent]
            $0.processingTime = .zero
        }
        driver.connect()
        _ = driver.camera.takeEvents()
        _ = driver.release()
        driver.wait(.milliseconds(8))
        let events = driver.camera.takeEvents().map(\.code)
        #expect(!events.contains(.capturedEvent))
        #expect(events.contains(.sonyObjectAdded))
        #expect(Self.shootingFileInfo(driver) == .uint16(0x8001))
    }

    @Test func aBodyWithoutD215AnnouncesEachImageByEventAndItsDumpsLackIt() throws {
        var driver = try CameraDriver {
            $0.quirks = [.noShootingFileInfo]
            $0.processingTime = .zero
        }
        driver.connect()
        #expect(Self.shootingFileInfo(driver) == nil)
        _ = driver.camera.takeEvents()
        _ = driver.release()
        driver.wait(.milliseconds(8))
        #expect(driver.camera.buffer.count == 1)
        let events = driver.camera.takeEvents()
        #expect(events.filter { $0.code == .sonyObjectAdded }.count == 1)
        #expect(!events.contains { $0.parameters == [UInt32(SonyPropertyCode.shootingFileInfo.rawValue)] })
        // The image is fetched as 0xFFFFC001 as usual.
        #expect(try Self.objectInfo(&driver).filename.hasPrefix("DSC00001"))
    }

    @Test func getObjectIsAnsweredWhileTheShutterIsOpen() throws {
        var driver = try CameraDriver {
            $0.processingTime = .zero
            $0.imageSize = 5000
        }
        driver.connect()
        _ = driver.release()
        driver.wait(.milliseconds(8))
        let expected = try #require(driver.camera.buffered?.image.allBytes)
        _ = driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: Speeds.twoSeconds.ptpValue.encoded)
        _ = driver.release()
        guard case .exposing = driver.camera.shutter else {
            Issue.record("frame 2 should be exposing, the shutter is \(driver.camera.shutter)")
            return
        }
        let info = try Self.objectInfo(&driver)
        #expect(info.filename == "DSC00001_1-125s.JPG")
        let reply = driver.send(.getObject, [SonyObjectHandle.stillImage])
        #expect(reply.code == .ok && reply.data?.allBytes == expected)
        #expect(driver.camera.buffer.isEmpty && Self.shootingFileInfo(driver) == .uint16(0))
    }

    @Test func aSpeedSetIsIgnoredWhileCapturesWaitOrProcessWithTheQuirk() throws {
        var driver = try CameraDriver {
            $0.quirks = [.speedIgnoredWhileBuffered]
            $0.processingTime = .milliseconds(100)
        }
        driver.connect()
        _ = driver.release()
        driver.wait(.milliseconds(10))
        // Processing: OK, and the speed stays.
        let faster = Speeds.faster.ptpValue.encoded
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: faster).code == .ok)
        #expect(driver.camera.shutterSpeed == Speeds.fast)
        driver.wait(.milliseconds(100))
        // Waiting in the buffer: still ignored.
        #expect(driver.camera.buffer.count == 1)
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: faster).code == .ok)
        #expect(driver.camera.shutterSpeed == Speeds.fast)
        _ = driver.send(.getObject, [SonyObjectHandle.stillImage])
        // Nothing held: the set applies.
        #expect(driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: faster).code == .ok)
        #expect(driver.camera.shutterSpeed == Speeds.faster)
    }

    @Test func withoutTheQuirkASpeedSetAppliesWhileAnImageWaits() throws {
        var driver = try CameraDriver { $0.processingTime = .zero }
        driver.connect()
        _ = driver.release()
        driver.wait(.milliseconds(8))
        #expect(driver.camera.buffer.count == 1)
        #expect(
            driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: Speeds.faster.ptpValue.encoded).code == .ok)
        #expect(driver.camera.shutterSpeed == Speeds.faster)
    }

    @Test func busyWhileBufferedRefusesAReleaseUntilTheImageIsFetched() throws {
        var driver = try CameraDriver {
            $0.quirks = [.busyWhileBuffered]
            $0.processingTime = .milliseconds(100)
        }
        driver.connect()
        _ = driver.release()
        driver.wait(.milliseconds(10))
        _ = driver.button(.s1Button, .down)
        #expect(driver.button(.s2Button, .down).code == .deviceBusy)
        driver.wait(.milliseconds(100))
        #expect(driver.button(.s2Button, .down).code == .deviceBusy)
        _ = driver.button(.s1Button, .up)
        _ = driver.send(.getObject, [SonyObjectHandle.stillImage])
        #expect(driver.release().map(\.code) == [.ok, .ok, .ok, .ok])
        #expect(driver.camera.frameCount == 2)
    }

    @Test func getPartialLargeObjectTakesA64BitOffsetAndEmptiesTheBufferAtTheLastByte() throws {
        var driver = try CameraDriver {
            $0.processingTime = .zero
            $0.imageSize = 5000
        }
        driver.connect()
        _ = driver.release()
        driver.wait(.milliseconds(8))
        let expected = try #require(driver.camera.buffered?.image.allBytes)
        let handle = SonyObjectHandle.stillImage
        let first = driver.send(Self.getPartialLargeObject, [handle, 0, 0, 3000])
        #expect(first.code == .ok && first.parameters == [3000] && first.data?.count == 3000)
        #expect(driver.camera.buffer.count == 1)
        // "All the rest" (0xFFFFFFFF) is not supported (reference p. 119); an offset past 4 GiB is past the end.
        #expect(driver.send(Self.getPartialLargeObject, [handle, 3000, 0, 0xFFFF_FFFF]).code == .parameterNotSupported)
        #expect(driver.send(Self.getPartialLargeObject, [handle, 0, 1, 100]).code == .invalidParameter)
        #expect(driver.send(Self.getPartialLargeObject, [0x1234, 0, 0, 100]).code == .invalidObjectHandle)
        #expect(driver.camera.buffer.count == 1)
        let rest = driver.send(Self.getPartialLargeObject, [handle, 3000, 0, 4000])
        #expect(rest.parameters == [2000])
        #expect((first.data?.allBytes ?? []) + (rest.data?.allBytes ?? []) == expected)
        #expect(driver.camera.buffer.isEmpty && Self.shootingFileInfo(driver) == .uint16(0))
        #expect(driver.send(Self.getPartialLargeObject, [handle, 0, 0, 100]).code == .invalidObjectHandle)
    }

    @Test func aZeroLengthChunkAtTheEndLeavesTheFileInTheBuffer() throws {
        var driver = try CameraDriver {
            $0.processingTime = .zero
            $0.imageSize = 5000
        }
        driver.connect()
        _ = driver.release()
        driver.wait(.milliseconds(8))
        let handle = SonyObjectHandle.stillImage
        let empty = driver.send(.getPartialObject, [handle, 5000, 0])
        #expect(empty.code == .ok && empty.parameters == [0])
        #expect(driver.camera.buffer.count == 1)
    }
}
