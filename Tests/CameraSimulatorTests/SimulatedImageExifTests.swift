import Foundation
import ImageMetadata
import PTPIP
import SonyProtocol
import TestSupport
import Testing

@testable import CameraSimulator

@Suite("Simulated camera: EXIF and file numbers of its images")
struct SimulatedImageExifTests {
    @Test(arguments: [0, 1, 3, 4, 5, 65_537, 200_000 - 7])
    func anExifImageKeepsItsExactSizeAValidLayoutAndItsFields(extra: Int) throws {
        let exif = ExifFields(
            exposureTime: ExifRational(numerator: 1, denominator: 250), dateTimeOriginal: "2026:11:23 15:04:05",
            make: "SONY", model: "ILCE-7M3")
        let comment = "hdrshoot simulator frame 1 shutter 1/250"
        let size = GeneratedImage.minimumSize(comment: comment, exif: exif) + extra
        let bytes = GeneratedImage(size: size, fileName: "DSC00001_1-250s.JPG", comment: comment, exif: exif).allBytes
        #expect(bytes.count == size)
        let markers = try #require(GeneratedImageTests.markers(bytes))
        // APP1 right after SOI, no JFIF APP0, then the image.
        #expect(Array(markers.prefix(2)) == [0xD8, 0xE1] && !markers.contains(0xE0) && markers.contains(0xC0))
        #expect(try ExifReader.read(bytes.prefix(ExifReader.suggestedPrefixLength)) == exif)
    }

    @Test(arguments: [
        (
            SonyShutterValue(numerator: 1, denominator: 250), Duration.milliseconds(4),
            ExifRational(numerator: 1, denominator: 250)
        ),
        (
            SonyShutterValue(numerator: 25, denominator: 10), .milliseconds(50),
            ExifRational(numerator: 25, denominator: 10)
        ),
        (
            SonyShutterValue(numerator: 300, denominator: 10), .seconds(30),
            ExifRational(numerator: 300, denominator: 10)
        ),
        (.bulb, .seconds(40), ExifRational(numerator: 40, denominator: 1)),
        (.bulb, .milliseconds(3_549), ExifRational(numerator: 35, denominator: 10)),
        (.bulb, .milliseconds(3_550), ExifRational(numerator: 36, denominator: 10)),
        (.bulb, .milliseconds(10), ExifRational(numerator: 1, denominator: 10))
    ])
    func exposureTimeIsTheSetSpeedOrTheHeldBulbTime(value: SonyShutterValue, held: Duration, expected: ExifRational) {
        #expect(SimulatedCamera.exposureTime(of: value, held: held) == expected)
    }

    @Test(arguments: [
        (1, "DSC00001_1-250s.JPG"), (42, "DSC00042_1-250s.JPG"), (9999, "DSC09999_1-250s.JPG"),
        (10_000, "DSC00001_1-250s.JPG")
    ])
    func fileNumbersRunFromOneTo9999ThenStartAgain(frame: Int, expected: String) {
        #expect(SimulatedCamera.fileName(frame: frame, label: "1/250") == expected)
    }

    @Test func dateTimeOriginalIsTheBodyClockWhenTheShutterFired() throws {
        var driver = try CameraDriver {
            $0.processingTime = .zero
            $0.cameraClock = ExifDateTime(year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 30)
        }
        driver.connect()
        driver.wait(.milliseconds(45_500))
        _ = driver.send(
            .sdioSetExtDevicePropValue, [0xD20D],
            data: SonyShutterValue(numerator: 1, denominator: 1000).ptpValue.encoded)
        _ = driver.release()
        driver.wait(.milliseconds(1))
        let exif = try #require(driver.camera.buffered?.image.exif)
        #expect(exif.dateTimeOriginal == "2027:01:01 00:00:15")
        #expect(exif.exposureTime == ExifRational(numerator: 1, denominator: 1000))
        #expect(exif.model == "ILCE-7M3" && exif.make == "SONY")
    }

    @Test func aBulbFrameRecordsHowLongS2WasHeld() throws {
        var driver = try CameraDriver { $0.processingTime = .zero }
        driver.connect()
        _ = driver.send(.sdioSetExtDevicePropValue, [0xD20D], data: SonyShutterValue.bulb.ptpValue.encoded)
        _ = driver.button(.s1Button, .down)
        _ = driver.button(.s2Button, .down)
        driver.wait(.milliseconds(3_500))
        _ = driver.button(.s2Button, .up)
        let image = try #require(driver.camera.buffered?.image)
        #expect(
            try ExifReader.read(image.bytes(in: 0..<4096)).exposureTime == ExifRational(numerator: 35, denominator: 10))
        #expect(image.fileName == "DSC00001_BULB.JPG")
    }

    @Test func theComputerClockSetsTheBodyClockWhenNoneIsGiven() throws {
        let moment = Date(timeIntervalSince1970: 1_795_000_000) // 2026-11-18 11:06:40 UTC
        let configuration = SimulatorConfiguration().withCameraClockSet(
            now: moment, timeZone: TimeZone(identifier: "UTC")!)
        #expect(
            configuration.cameraClock == ExifDateTime(year: 2026, month: 11, day: 18, hour: 11, minute: 6, second: 40))
        var fixed = SimulatorConfiguration()
        fixed.cameraClock = ExifDateTime(year: 2020, month: 1, day: 1)
        #expect(fixed.withCameraClockSet(now: moment).cameraClock == fixed.cameraClock)
    }

    @Test func theBuiltInBodyWritesItsModelName() throws {
        #expect(try SimulatorDatasets(configuration: SimulatorConfiguration()).modelName == "ILCE-7M3")
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
    func aReplayedBodyWritesTheModelNameOfItsRecordedDeviceInfo() throws {
        var configuration = SimulatorConfiguration()
        configuration.replayDeviceInfoPath =
            Fixtures.root.appendingPathComponent("sony/rx100m7_GetDeviceInfo_0x1001.payload.bin").path
        #expect(try SimulatorDatasets(configuration: configuration).modelName == "DSC-RX100M7")
    }
}
