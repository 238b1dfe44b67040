import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera
import TestSupport
import Testing

/// A body whose 0xD215 lags behind a finished download (`d215-lag`), while the next frame's image still
/// processes: "no object" then means "not yet", never "lost" (issue 37, bug a).
@Suite(.timeLimit(.minutes(2))) struct SonyCameraLaggingBufferTests {
    @Test func anImageStillProcessingBehindALaggingBufferCountIsAwaitedNotGivenUp() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Lockstep.run(simulator: { $0.quirks = [.shootingFileInfoLag, .longExposureNR] }) {
            camera, simulator, lockstep in
            let fast = ShutterSpeed(numerator: 1, denominator: 1000)
            let slow = ShutterSpeed(numerator: 2, denominator: 1)
            let destination = CaptureDestination(directory: folder)
            // Two releases, capture first: the second image is still exposing when the first one is downloaded.
            for speed in [fast, slow] {
                try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(speed)) }
                _ = try await lockstep.drive(simulator) { try await camera.release(exposure: speed, beforeRelease: {}) }
            }
            let first = try await lockstep.drive(simulator) {
                try await camera.nextImage(to: destination, waitingAtMost: .seconds(10))
            }
            #expect(first?.exposure == fast)
            // 0xD215 still counts the file just fetched; GetObjectInfo answers "no object" while the 2 s frame
            // takes its dark frame. The wait is for that image, within the 10 s given.
            let second = try await lockstep.drive(simulator) {
                try await camera.nextImage(to: destination, waitingAtMost: .seconds(10))
            }
            #expect(second?.exposure == slow)
            #expect(await simulator.framesFired == 2)
            #expect(await simulator.filesWaiting == 0)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(files.count == 2, "\(files)")
        }
    }
}
