import CameraSimulator
import PTPIP
import PTPIPCodec
import SonyProtocol
import TestSupport
import Testing

/// The buffer over loopback TCP in virtual time: the library's PTP/IP client shoots three frames back to back,
/// then fetches 0xFFFFC001 oldest first until 0xD215 reads 0.
@Suite("Simulator buffer over loopback TCP, driven by the library's PTP/IP client")
struct SimulatorBufferLoopbackTests {
    @Test func threeFramesShotBackToBackAreFetchedInOrderUntilD215ReadsZero() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.processingTime = .milliseconds(500) }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            let speeds = [Speeds.fast, Speeds.faster, SonyShutterValue(numerator: 1, denominator: 200)]
            for speed in speeds {
                try await client.setShutter(speed)
                try await client.release()
                // The shutter closes (0xC206); the image processes behind it while the next one is set and fired.
                await clock.pass(.milliseconds(10))
                #expect(try await client.waitForEvent(.capturedEvent).parameters == [])
            }
            #expect(await simulator.framesFired == 3)
            await clock.pass(.seconds(1))
            var info = try await client.propertyTable().shootingFileInfo
            #expect(info == .waiting(3))
            var names: [String] = []
            var counts: [Int] = []
            while let waiting = info, waiting.hasImages {
                counts.append(waiting.imagesWaiting)
                let object = try ObjectInfo(
                    decoding: try await client.execute(.getObjectInfo, parameters: [SonyObjectHandle.stillImage]).data)
                let image = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage]).data
                #expect(image.count == Int(object.objectCompressedSize))
                names.append(object.filename)
                info = try await client.propertyTable().shootingFileInfo
                guard names.count <= 3 else { break }
            }
            #expect(counts == [3, 2, 1])
            #expect(names == ["DSC00001_1-125s.JPG", "DSC00002_1-160s.JPG", "DSC00003_1-200s.JPG"])
            #expect(info == .empty)
            await client.disconnect()
        }
    }
}
