import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera
import TestSupport
import Testing

/// After a drop, the image the interrupted release left arrives with its own exposure time, and the runner's
/// rule (`DownloadQueue`) files it under a frame only when that time says it is that frame's.
@Suite("SonyCamera: images are attributed by their own exposure time", .timeLimit(.minutes(1)))
struct SonyCameraAttributionTests {
    static let position = ShootPosition(set: 1, frame: 1)

    @Test func theInterruptedReleasesImageIsFiledUnderItsFrame() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let simulatorClock = TestClock()
        try await SonyCameraRecoveryTests.afterADropWhileFrameOneProcesses(
            simulatorClock: simulatorClock, log: folder.appendingPathComponent("ops.jsonl")
        ) { camera, simulator, destination in
            async let fetched = camera.fetchAll(to: destination, waitingAtMost: .seconds(10))
            await SonyCameraRecoveryTests.advance(simulatorClock)
            let images = try await fetched
            #expect(images.map(\.fileName) == ["DSC00001_1-125s.JPG"])
            let image = try #require(images.first)
            #expect(image.exposure == SonyCameraRecoveryTests.fast)
            var queue = DownloadQueue()
            queue.fired(
                .init(
                    position: Self.position, setting: .timed(SonyCameraRecoveryTests.fast),
                    expected: .timed(SonyCameraRecoveryTests.fast), confirmed: false))
            #expect(queue.arrived(image).verdict == .frame(Self.position))
            #expect(await simulator.framesFired == 1)
        }
    }

    @Test func anImageOfAnotherExposureIsNeverFiledUnderTheFrame() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let simulatorClock = TestClock()
        try await SonyCameraRecoveryTests.afterADropWhileFrameOneProcesses(
            simulatorClock: simulatorClock, log: folder.appendingPathComponent("ops.jsonl")
        ) { camera, simulator, destination in
            // The next frame (1/30) is set; the 1/125 image the interrupted release left turns up meanwhile.
            let next = ShutterSpeed(numerator: 1, denominator: 30)
            try await camera.setShutterSpeed(.timed(next))
            async let fetched = camera.fetchAll(to: destination, waitingAtMost: .seconds(10))
            await SonyCameraRecoveryTests.advance(simulatorClock)
            let image = try #require(try await fetched.first)
            // Its EXIF, not the camera's setting, says what it is.
            #expect(image.exposure == SonyCameraRecoveryTests.fast)
            var queue = DownloadQueue()
            queue.fired(.init(position: Self.position, setting: .timed(next), expected: .timed(next), confirmed: false))
            guard case .unmatched(let reason)? = queue.arrived(image).verdict else {
                Issue.record("a 1/125 image was filed under a 1/30 frame")
                return
            }
            #expect(reason.contains("1/125"), "\(reason)")
            #expect(await simulator.framesFired == 1)
        }
    }
}
