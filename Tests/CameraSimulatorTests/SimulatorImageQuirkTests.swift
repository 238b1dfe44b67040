import CameraSimulator
import Foundation
import PTPIP
import PTPIPCodec
import SonyProtocol
import TestSupport
import Testing

@Suite("Simulator quirks of the image buffer, transfers and Long Exposure NR, over loopback TCP in virtual time")
struct SimulatorImageQuirkTests {
    /// Fires one 1/125 frame and lets its image become ready.
    static func shootOne(_ client: PTPIPClient, clock: TestClock) async throws {
        try await client.release()
        await clock.pass(.seconds(1))
        #expect(try await client.propertyTable().shootingFileInfo == .waiting(1))
    }

    @Test func d215LagsOneReadBehindADownloadAndTheHandleIsAlreadyGone() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.shootingFileInfoLag] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await Self.shootOne(client, clock: clock)
            let image = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage]).data
            #expect(image.count == 10_000)
            // The change-only read right after the download still says an image waits ...
            let changes = try await client.execute(.sdioGetAllExtDevicePropInfo, parameters: [1]).data
            let lagging = try SonyPropertyDump(decoding: changes, protocolVersion: .v3_00).descriptors
            #expect(lagging.first { $0.code == .shootingFileInfo }?.currentValue == .uint16(0x8001))
            // ... but nothing is there, and the next read catches up.
            #expect(
                await responseCode {
                    _ = try await client.execute(.getObjectInfo, parameters: [SonyObjectHandle.stillImage])
                } == .invalidObjectHandle)
            #expect(try await client.propertyTable().shootingFileInfo == .empty)
            try await client.release()
            #expect(await simulator.framesFired == 2)
            await client.disconnect()
        }
    }

    @Test(arguments: [SimulatorQuirk.transferLong(100), .transferShort(100)])
    func aTransferCarriesMoreOrFewerBytesThanObjectInfoAnnounced(quirk: SimulatorQuirk) async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [quirk] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await Self.shootOne(client, clock: clock)
            let info = try ObjectInfo(
                decoding: try await client.execute(.getObjectInfo, parameters: [SonyObjectHandle.stillImage]).data)
            #expect(info.objectCompressedSize == 10_000)
            let image = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage]).data
            #expect(Array(image.prefix(2)) == [0xFF, 0xD8])
            if quirk == .transferLong(100) {
                #expect(image.count == 10_100)
                #expect(Array(image[9_998..<10_000]) == [0xFF, 0xD9])
                #expect(image.suffix(100).allSatisfy { $0 == 0 })
            } else {
                #expect(image.count == 9_900)
            }
            // The session carries on: the buffer is empty and the next frame fires.
            #expect(try await client.propertyTable().shootingFileInfo == .empty)
            try await client.release()
            #expect(await simulator.framesFired == 2)
            await client.disconnect()
        }
    }

    @Test func anEmptyObjectInfoNamesNoFileButTheImageStillDownloads() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.objectInfoEmpty] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await Self.shootOne(client, clock: clock)
            let info = try ObjectInfo(
                decoding: try await client.execute(.getObjectInfo, parameters: [SonyObjectHandle.stillImage]).data)
            #expect(info.filename.isEmpty && info.objectCompressedSize == 0)
            let image = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage]).data
            #expect(image.count == 10_000 && Array(image.prefix(2)) == [0xFF, 0xD8])
            await client.disconnect()
        }
    }

    @Test func aGarbledObjectInfoIsSevenBytesButTheImageStillDownloads() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.objectInfoGarbled] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await Self.shootOne(client, clock: clock)
            let data = try await client.execute(.getObjectInfo, parameters: [SonyObjectHandle.stillImage]).data
            #expect(data.count == 7)
            #expect(throws: (any Error).self) { _ = try ObjectInfo(decoding: data) }
            let image = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage]).data
            #expect(image.count == 10_000 && Array(image.suffix(2)) == [0xFF, 0xD9])
            await client.disconnect()
        }
    }

    @Test func longExposureNRTakesADarkFrameAsLongAsTheExposureAndKeepsTheCameraBusy() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.longExposureNR] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            #expect(try await client.currentValue(of: QuirkCodes.longExposureNR) == QuirkCodes.on)
            try await client.setShutter(Speeds.twoSeconds)
            try await client.release()
            await clock.pass(.milliseconds(3900))
            // 2 s exposure, then 2 s of dark frame: still busy, nothing in the buffer.
            try await client.button(.s1Button, .down)
            #expect(await responseCode { try await client.button(.s2Button, .down) } == .deviceBusy)
            try await client.button(.s1Button, .up)
            #expect(try await client.propertyTable().shootingFileInfo == .empty)
            await clock.pass(.milliseconds(120))
            #expect(try await client.propertyTable().shootingFileInfo == .waiting(1))
            let record = try #require(await simulator.captures.first)
            #expect(record.exposureSeconds == 2 && record.noiseReductionSeconds == 2)
            _ = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage])

            // Below 1 s there is no dark frame.
            try await client.setShutter(Speeds.fast)
            try await client.release()
            await clock.pass(.milliseconds(28))
            #expect(try await client.propertyTable().shootingFileInfo == .waiting(1))
            #expect(await simulator.captures.last?.noiseReductionSeconds == nil)
            await client.disconnect()
        }
    }

    @Test func theExposureCapAlsoCapsTheDarkFrameAndTurningNROffEndsIt() async throws {
        let clock = TestClock()
        try await withSimulator(
            clock: clock,
            {
                $0.quirks = [.longExposureNR]
                $0.exposureCap = .milliseconds(50)
            }
        ) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await client.setShutter(Speeds.thirtySeconds)
            try await client.release()
            await clock.pass(.milliseconds(120))
            #expect(try await client.propertyTable().shootingFileInfo == .waiting(1))
            #expect(await simulator.captures.first?.noiseReductionSeconds == 0.05)
            _ = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage])
            try await client.set(QuirkCodes.longExposureNR, to: QuirkCodes.off)
            try await client.release()
            await clock.pass(.milliseconds(70))
            #expect(try await client.propertyTable().shootingFileInfo == .waiting(1))
            #expect(await simulator.captures.last?.noiseReductionSeconds == nil)
            await client.disconnect()
        }
    }

    @Test func aBulbFrameGetsADarkFrameAsLongAsS2WasHeldOrAsTheCapWhenTheCapCutIt() throws {
        var held = try CameraDriver {
            $0.quirks = [.longExposureNR]
            $0.processingTime = .zero
        }
        held.connect()
        _ = held.send(.sdioSetExtDevicePropValue, [0xD20D], data: SonyShutterValue.bulb.ptpValue.encoded)
        _ = held.button(.s2Button, .down)
        held.wait(.seconds(7))
        _ = held.button(.s2Button, .up)
        #expect(held.camera.takeFinishedCaptures().first?.noiseReductionSeconds == 7)
        held.wait(.milliseconds(6999))
        #expect(held.camera.buffered == nil)
        held.wait(.milliseconds(1))
        #expect(held.camera.buffered != nil)

        var capped = try CameraDriver {
            $0.quirks = [.longExposureNR]
            $0.processingTime = .zero
            $0.exposureCap = .milliseconds(50)
        }
        capped.connect()
        _ = capped.send(.sdioSetExtDevicePropValue, [0xD20D], data: SonyShutterValue.bulb.ptpValue.encoded)
        _ = capped.button(.s2Button, .down)
        capped.wait(.seconds(240))
        _ = capped.button(.s2Button, .up)
        let record = try #require(capped.camera.takeFinishedCaptures().first)
        // BULB lasts as long as S2 is held; the cap shortens the dark frame after it.
        #expect(record.exposureSeconds == 240 && record.noiseReductionSeconds == 0.05)

        var short = try CameraDriver {
            $0.quirks = [.longExposureNR]
            $0.processingTime = .zero
        }
        short.connect()
        _ = short.send(.sdioSetExtDevicePropValue, [0xD20D], data: SonyShutterValue.bulb.ptpValue.encoded)
        _ = short.button(.s2Button, .down)
        short.wait(.milliseconds(500))
        _ = short.button(.s2Button, .up)
        #expect(short.camera.takeFinishedCaptures().first?.noiseReductionSeconds == nil)
    }

    @Test func withoutTheQuirkNRIsReportedOffAndTheCaptureLogLineIsUnchanged() throws {
        var driver = try CameraDriver { $0.processingTime = .zero }
        driver.connect()
        #expect(driver.camera.value(of: QuirkCodes.longExposureNR) == QuirkCodes.off)
        _ = driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: Speeds.twoSeconds.ptpValue.encoded)
        _ = driver.release()
        driver.wait(.seconds(2))
        let record = try #require(driver.camera.takeFinishedCaptures().first)
        #expect(record.noiseReductionSeconds == nil)
        #expect(driver.camera.buffered != nil)
        let line = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        #expect(!line.contains("noiseReduction"))
    }
}
