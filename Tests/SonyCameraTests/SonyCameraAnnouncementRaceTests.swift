import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera
import TestSupport
import Testing

/// Events and answers travel on two connections, so a body's announcement of an image can reach hdrshoot before
/// the answer of a read the body made before the image was ready (seen through an SSH tunnel, and once in three
/// to twenty runs of LearnedLimitsLogTests on loopback). The image is there: it is fetched at once, not waited
/// for until the wait runs out and then shot again.
@Suite(.realTime(timeLimit: .seconds(120)))
struct SonyCameraAnnouncementRaceTests {
    @Test func anImageAnnouncedBeforeTheAnswerOfAReadThatMissedItIsFetchedAtOnce() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // The body's time is the test's: it decides when the image is ready and when a held answer goes out.
        let bodyClock = TestClock()
        try await SimulatorHarness.run(
            simulator: { $0.processingTime = .milliseconds(300) }, camera: { $0.keepaliveInterval = nil },
            simulatorClock: bodyClock
        ) { camera, simulator in
            // The speed the body starts at.
            let speed = ShutterSpeed(numerator: 1, denominator: 125)
            // The release is confirmed by the captured event at the end of its exposure (8 ms of body time); the
            // image then processes for 300 ms of body time.
            let release = Task { try await camera.release(exposure: speed, beforeRelease: {}) }
            try #require(try await eventually { await simulator.framesFired == 1 }, "the release fired nothing")
            // Past the exposure, not yet past the processing (ready at 308 ms).
            await bodyClock.waitForSleepers(1)
            bodyClock.advance(by: .milliseconds(100))
            _ = try await release.value
            #expect(await simulator.filesWaiting == 0)
            try #require(
                try await eventually {
                    let (handled, sent) = (await camera.eventsHandled, await simulator.eventsSent)
                    return handled == sent
                },
                "the release's events never reached the camera")
            let (sentBefore, handledBefore) = (await simulator.eventsSent, await camera.eventsHandled)
            let operations = await simulator.operationCount

            // The read nextImage starts with is answered only after a second of body time ...
            await simulator.setRoundTripDelay(.seconds(1))
            let fetch = Task {
                try await camera.nextImage(to: CaptureDestination(directory: folder), waitingAtMost: .seconds(30))
            }
            try #require(try await eventually { await simulator.operationCount > operations }, "no read came")
            await simulator.setRoundTripDelay(.zero)
            // ... and meanwhile the image is ready: 0xD215 changed and ObjectAdded go out at once, and the camera
            // has them before the answer, which counts no image.
            // Two sleepers on the body's clock: the held answer and the processing.
            await bodyClock.waitForSleepers(2)
            bodyClock.advance(by: .milliseconds(250))
            try #require(
                try await eventually {
                    let (handled, sent) = (await camera.eventsHandled, await simulator.eventsSent)
                    return sent > sentBefore && handled - handledBefore == sent - sentBefore
                }, "the image's announcements never reached the camera")
            #expect(await simulator.filesWaiting == 1)
            bodyClock.advance(by: .seconds(1))

            let image = try await fetch.value
            #expect(image?.exposure == speed, "the announced image was waited for instead of read")
            #expect(await simulator.filesWaiting == 0)
            #expect(await simulator.framesFired == 1)
        }
    }
}
