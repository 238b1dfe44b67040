import CameraSimulator
import ImageMetadata
import PTPIP
import PTPIPCodec
import SonyProtocol
import Testing

@Suite("Simulator over loopback TCP: what its images say about themselves")
struct SimulatorExifLoopbackTests {
    @Test func capturedJPEGsCarryTheSpeedThatFiredAndTheModelAndNumbersContinueAfterAReconnect() async throws {
        try await withSimulator({
            $0.imageSize = 150_000
            $0.exposureCap = .milliseconds(5)
        }) { simulator in
            // First session: 1/250, then 2.5" (25/10: the cap shortens the wait, not what the image records).
            var client = try await connectClient(to: simulator)
            try await client.startSonySession()
            let first = try await client.shoot(SonyShutterValue(numerator: 1, denominator: 250))
            #expect(first.name == "DSC00001_1-250s.JPG")
            #expect(first.exif.exposureTime == ExifRational(numerator: 1, denominator: 250))
            #expect(first.exif.model == "ILCE-7M3")
            let second = try await client.shoot(SonyShutterValue(numerator: 25, denominator: 10))
            #expect(second.name == "DSC00002_2.5s.JPG")
            #expect(second.exif.exposureTime == ExifRational(numerator: 25, denominator: 10))
            #expect(second.exif.exposureSeconds == 2.5)
            #expect(second.exif.dateTimeOriginalValue != nil)
            await client.disconnect()

            // A new session on the same body: the card's numbering carries on.
            client = try await connectClient(to: simulator)
            try await client.startSonySession()
            let third = try await client.shoot(SonyShutterValue(numerator: 1, denominator: 8000))
            #expect(third.name == "DSC00003_1-8000s.JPG")
            #expect(third.exif.exposureTime == ExifRational(numerator: 1, denominator: 8000))
            #expect(third.size == 150_000)
            await client.disconnect()
        }
    }
}

extension PTPIPClient {
    /// Sets the shutter speed, releases, waits for the image and downloads it: its name, size and EXIF.
    fileprivate func shoot(_ speed: SonyShutterValue) async throws -> (name: String, size: Int, exif: ExifFields) {
        _ = try await execute(.sdioSetExtDevicePropValue, parameters: [0xD20D], sending: speed.ptpValue.encoded)
        try await release()
        _ = try await waitForEvent(.sonyObjectAdded)
        let info = try ObjectInfo(
            decoding: try await execute(.getObjectInfo, parameters: [SonyObjectHandle.stillImage]).data)
        let image = try await execute(.getObject, parameters: [SonyObjectHandle.stillImage]).data
        return (info.filename, image.count, try ExifReader.read(image.prefix(ExifReader.suggestedPrefixLength)))
    }
}
