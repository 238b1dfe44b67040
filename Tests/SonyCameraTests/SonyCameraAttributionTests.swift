import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera
import TestSupport
import Testing

/// After a drop, an image is filed under a frame only when its own exposure time says it is that frame's.
@Suite("SonyCamera: images are attributed by their own exposure time", .timeLimit(.minutes(1)))
struct SonyCameraAttributionTests {
    @Test func theInterruptedReleasesImageIsRecoveredForItsFrame() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let simulatorClock = TestClock()
        try await SonyCameraRecoveryTests.afterADropWhileFrameOneProcesses(
            simulatorClock: simulatorClock, log: folder.appendingPathComponent("ops.jsonl")
        ) { camera, simulator, destination in
            async let recovered = camera.recoverInterruptedCapture(
                exposure: SonyCameraRecoveryTests.fast, to: destination, waitingAtMost: .seconds(10))
            await SonyCameraRecoveryTests.advance(simulatorClock)
            let frame = try #require(try await recovered)
            #expect(frame.images.map(\.fileName) == ["DSC00001_1-125s.JPG"])
            #expect(frame.actualSpeed == .timed(SonyCameraRecoveryTests.fast))
            #expect(frame.unmatchedImages.isEmpty)
            #expect(await simulator.framesFired == 1)
        }
    }

    @Test func anImageOfAnotherExposureIsKeptAsUnmatchedAndNeverFiledUnderTheFrame() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let simulatorClock = TestClock()
        try await SonyCameraRecoveryTests.afterADropWhileFrameOneProcesses(
            simulatorClock: simulatorClock, log: folder.appendingPathComponent("ops.jsonl")
        ) { camera, simulator, destination in
            // The next frame (1/30) is set; the 1/125 image the interrupted release left turns up meanwhile.
            let next = ShutterSpeed(numerator: 1, denominator: 30)
            try await camera.setShutterSpeed(.timed(next))
            async let recovered = camera.recoverInterruptedCapture(
                exposure: next, to: destination, waitingAtMost: .seconds(10))
            await SonyCameraRecoveryTests.advance(simulatorClock)
            #expect(try await recovered == nil)
            let unmatched = destination.directory.appendingPathComponent("unmatched")
            let kept = try FileManager.default.contentsOfDirectory(atPath: unmatched.path)
            #expect(kept == ["DSC00001_1-125s-1-125s.JPG"])
            let own = try FileManager.default.contentsOfDirectory(atPath: destination.directory.path)
            #expect(own == ["unmatched"])
            #expect(await camera.takeNotes().contains { $0.contains("has an exposure of 1/125, not 1/30") })
            #expect(await simulator.framesFired == 1)
        }
    }
}
