import CameraRemoteAPI
import Exposure
import Foundation
import LegacyCamera
import LegacyCameraSimulator
import Shooting
import TestSupport
import Testing

/// `LegacySonyCamera` against the simulated legacy body over loopback HTTP: the session, the shutter, the
/// release and the pictures, each with the quirks real bodies show.
@Suite(.realTime(timeLimit: .seconds(120)))
struct LegacySonyCameraTests {
    @Test func connectingCallsStartRecModeAndReadsTheModeAndTheBodysSpeeds() async throws {
        try await LegacyHarness.run { camera, simulator in
            #expect(await camera.isConnected)
            let calls = await simulator.calls
            #expect(calls.contains("startRecMode"))
            #expect(calls.firstIndex(of: "startRecMode")! < calls.firstIndex(of: "setPostviewImageSize")!)
            #expect(await camera.identity.model == "ILCE-6000")
            #expect(await camera.apiVersions == ["1.0", "1.1", "1.2", "1.3"])
            #expect(await camera.application?.name == "Smart Remote Control")
            #expect(try await camera.shootingMode() == .manual)
            let speeds = try await camera.availableShutterSpeeds()
            #expect(speeds.count == LegacySimulatorConfiguration.manualShutterLabels.count)
            #expect(speeds.contains(.bulb))
            #expect(speeds.contains(.timed(ShutterSpeed(numerator: 30, denominator: 1))))
            #expect(speeds.contains(.timed(ShutterSpeed(numerator: 1, denominator: 4000))))
            // By value onto the planner's scale: 0.4" is the 4/10 stop, 1/3 the 0.3" stop.
            #expect(speeds.contains(.timed(ShutterSpeed(numerator: 4, denominator: 10))))
            #expect(speeds.contains(.timed(ShutterSpeed(numerator: 1, denominator: 3))))
            #expect(try await camera.currentShutterSpeed() == .timed(ShutterSpeed(numerator: 1, denominator: 60)))
        }
    }

    @Test func aBodyWithoutStartRecModeIsUsedAsItIs() async throws {
        try await LegacyHarness.run(simulator: { $0.needsStartRecMode = false }) { camera, simulator in
            #expect(await camera.isConnected)
            #expect(await !simulator.calls.contains("startRecMode"))
        }
    }

    @Test(arguments: [("Aperture", ShootingMode.aperturePriority), ("Program Auto", .program)])
    func outsideMAndSTheModeIsReportedAndNoSpeedIsOffered(mode: String, expected: ShootingMode) async throws {
        try await LegacyHarness.run(simulator: { $0.exposureMode = mode }) { camera, _ in
            let found = try await camera.shootingMode()
            let speeds = try await camera.availableShutterSpeeds()
            #expect(found == expected)
            #expect(speeds == [])
        }
    }

    @Test func aModeHdrshootCannotNameIsAnErrorSayingWhichItIs() async throws {
        try await LegacyHarness.run(simulator: { $0.exposureMode = "Intelligent Auto" }) { camera, _ in
            await #expect(throws: LegacySonyCameraError.unsupportedMode(current: "Intelligent Auto")) {
                _ = try await camera.shootingMode()
            }
        }
    }

    @Test func aSetThatAppliesLateIsConfirmedBeforeItReturns() async throws {
        try await LegacyHarness.run(simulator: { $0.settingDelay = .milliseconds(100) }) { camera, simulator in
            try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 250)))
            // Read straight after: the body applied it already.
            #expect(try await camera.currentShutterSpeed() == .timed(ShutterSpeed(numerator: 1, denominator: 250)))
            #expect(await simulator.calls.filter { $0 == "setShutterSpeed" }.count == 1)
            #expect(await simulator.calls.filter { $0 == "getShutterSpeed" }.count >= 2)
        }
    }

    @Test func setsThatFailNowAndThenAreRetriedInsideTheCall() async throws {
        try await LegacyHarness.run(simulator: { $0.setFailureEvery = 2 }) { camera, simulator in
            for denominator in [125, 250, 500, 1000] {
                try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: denominator)))
            }
            #expect(try await camera.currentShutterSpeed() == .timed(ShutterSpeed(numerator: 1, denominator: 1000)))
            // Every second set fails once with [1, "Any"] and is sent again.
            #expect(await simulator.calls.filter { $0 == "setShutterSpeed" }.count == 7)
        }
    }

    @Test func aSpeedTheBodyLacksIsAPermanentErrorListingWhatItOffers() async throws {
        try await LegacyHarness.run { camera, _ in
            do {
                try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 8000)))
                Issue.record("1/8000 is not offered by an ILCE-6000")
            } catch let error as LegacySonyCameraError {
                guard case let .shutterSpeedNotOffered(requested, available) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(requested == "1/8000")
                #expect(available.contains("1/4000"))
                #expect(!error.isTransient && !error.isConnectionLost)
            }
        }
    }

    @Test func aReleaseKeepsThePostviewPendingAndNextImageSavesItWithItsOwnExposure() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await LegacyHarness.run { camera, simulator in
            try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 125)))
            let hook = HookCounter()
            let release = try await camera.release(
                exposure: ShutterSpeed(numerator: 1, denominator: 125), beforeRelease: hook.hook())
            #expect(hook.calls == 1)
            #expect(release.evidence == .imageWaiting)
            #expect(release.imagesWaiting == 1)
            #expect(await simulator.captures.map(\.label) == ["1/125"])
            let destination = CaptureDestination(directory: folder.url, fileNamePrefix: "f1_")
            let image = try #require(try await camera.nextImage(to: destination, waitingAtMost: .seconds(5)))
            #expect(image.fileName == "f1_pict1.JPG")
            #expect(image.byteCount == 20_000)
            #expect(image.exposure == ShutterSpeed(numerator: 1, denominator: 125))
            #expect(image.dateTimeOriginal?.hasPrefix("2026:01:01") == true)
            #expect(FileManager.default.fileExists(atPath: image.path))
            // The body's "Original" size: asked for at connect.
            #expect(await simulator.calls.contains("setPostviewImageSize"))
            #expect(try await camera.nextImage(to: destination, waitingAtMost: .zero) == nil)
            // Moved never over a file: a taken name gets a suffix.
            let unmatched = folder.url.appendingPathComponent("unmatched")
            try FileManager.default.createDirectory(at: unmatched, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(
                atPath: unmatched.appendingPathComponent("a.JPG").path, contents: Data([1]))
            let moved = try await camera.move(image, toFolder: unmatched, name: "a.JPG")
            #expect(moved.fileName == "a-1.JPG")
            #expect(FileManager.default.contents(atPath: moved.path)?.count == 20_000)
            #expect(!FileManager.default.fileExists(atPath: image.path))
        }
    }

    @Test func aHookThatFailsFiresNothingAndIsRethrownUnchanged() async throws {
        try await LegacyHarness.run { camera, simulator in
            let hook = HookCounter()
            await #expect(throws: HookFailure()) {
                _ = try await camera.release(
                    exposure: ShutterSpeed(numerator: 1, denominator: 60),
                    beforeRelease: hook.hook(throwing: HookFailure()))
            }
            #expect(hook.calls == 1)
            #expect(await simulator.captures.isEmpty)
        }
    }

    @Test func aLongExposureAnsweredStillCapturingIsAwaited() async throws {
        try await LegacyHarness.run(simulator: {
            $0.initialShutter = "1/3"
            $0.captureAnswerTimeout = .milliseconds(150)
        }) { camera, simulator in
            _ = try await camera.release(exposure: ShutterSpeed(numerator: 1, denominator: 3), beforeRelease: {})
            let calls = await simulator.calls
            #expect(calls.contains("awaitTakePicture"))
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let image = try await camera.nextImage(
                to: CaptureDestination(directory: folder.url), waitingAtMost: .seconds(1))
            #expect(image?.exposure == ShutterSpeed(numerator: 1, denominator: 3))
        }
    }

    @Test func bulbWithAutoISOIsRefusedBeforeTheHookAndNothingFires() async throws {
        try await LegacyHarness.run { camera, simulator in
            try await camera.setShutterSpeed(.bulb)
            let hook = HookCounter()
            await #expect(throws: LegacySonyCameraError.bulbNeedsFixedISO(current: "AUTO")) {
                _ = try await camera.release(
                    exposure: ShutterSpeed(numerator: 40, denominator: 1), beforeRelease: hook.hook())
            }
            #expect(hook.calls == 0)
            #expect(await simulator.captures.isEmpty)
        }
    }

    @Test func bulbIsHeldForTheExposureOnTheClockAndItsImageRecordsTheHeldTime() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await LegacyHarness.run(simulator: { $0.isoSpeedRate = "100" }) { camera, simulator in
            try await camera.setShutterSpeed(.bulb)
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await camera.release(exposure: ShutterSpeed(numerator: 3, denominator: 10), beforeRelease: {})
            #expect(clock.now - start >= .milliseconds(300))
            let capture = try #require(await simulator.captures.first)
            #expect(capture.label == "BULB")
            #expect(abs(capture.exposureSeconds - 0.3) < 0.1, "held \(capture.exposureSeconds) s")
            #expect(
                await simulator.calls.filter { $0.hasSuffix("BulbShooting") } == [
                    "startBulbShooting", "stopBulbShooting"
                ])
            let image = try #require(
                try await camera.nextImage(to: CaptureDestination(directory: folder.url), waitingAtMost: .seconds(2)))
            #expect(image.exposure == ShutterSpeed(numerator: 3, denominator: 10))
        }
    }

    @Test func aConnectionDroppedAtTheReleaseIsConnectionLostAndThePictureIsFetchedAfterTheReconnect() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await LegacyHarness.run(simulator: { $0.dropConnectionAtShot = 1 }) { camera, simulator in
            do {
                _ = try await camera.release(exposure: ShutterSpeed(numerator: 1, denominator: 60), beforeRelease: {})
                Issue.record("the body dropped the connection instead of answering")
            } catch let error as LegacySonyCameraError {
                #expect(error.isConnectionLost, "\(error)")
            }
            #expect(await !camera.isConnected)
            #expect(await simulator.captures.count == 1)
            await camera.disconnect()
            try await camera.connect()
            let image = try #require(
                try await camera.nextImage(to: CaptureDestination(directory: folder.url), waitingAtMost: .seconds(2)))
            #expect(image.exposure == ShutterSpeed(numerator: 1, denominator: 60))
            #expect(
                try await camera.nextImage(to: CaptureDestination(directory: folder.url), waitingAtMost: .zero) == nil)
        }
    }

    @Test(arguments: [false, true])
    func aPictureTakenBeforeTheFirstConnectIsFetchedOnlyWhenAskedFor(adopting: Bool) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await LegacyHarness.run { first, simulator in
            _ = try await first.release(exposure: ShutterSpeed(numerator: 1, denominator: 60), beforeRelease: {})
            await first.disconnect()
            // Another process (a resume) connects to the same body.
            let second = LegacySonyCamera(
                configuration: try LegacyHarness.camera(for: simulator) { $0.adoptsEarlierPictures = adopting })
            try await second.connect()
            let image = try await second.nextImage(to: CaptureDestination(directory: folder.url), waitingAtMost: .zero)
            #expect((image != nil) == adopting)
            if !adopting {
                #expect(await second.takeNotes().contains { $0.contains("taken before hdrshoot connected") })
            }
            await second.disconnect()
        }
    }

    @Test func statusFollowsTheReleaseAndTheDownload() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await LegacyHarness.run { camera, _ in
            let updates = await camera.statusUpdates()
            var iterator = updates.makeAsyncIterator()
            #expect(await iterator.next() == .idle)
            _ = try await camera.release(exposure: ShutterSpeed(numerator: 1, denominator: 60), beforeRelease: {})
            _ = try await camera.nextImage(to: CaptureDestination(directory: folder.url), waitingAtMost: .zero)
            var seen: [Shooting.CameraStatus] = []
            while let status = await iterator.next(), status != .idle || !seen.contains(.saving) {
                seen.append(status)
            }
            #expect(seen.contains(.saving))
        }
    }

    @Test func aBracketThroughTheRunnerSavesEveryFrameWithoutEverPollingTwice() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await LegacyHarness.run(simulator: { $0.setFailureEvery = 3 }) { camera, simulator in
            let speeds = [1000, 250, 60, 15].map { ShutterSpeed(numerator: 1, denominator: $0) }
            let runner = makeRunner(
                camera, plan: BracketPlan(sets: [speeds]), clock: ContinuousClock(), outputDirectory: folder.url)
            let result = await runner.run()
            #expect(result.isComplete, "\(String(describing: result.stopReason))")
            #expect(await simulator.captures.map(\.label) == ["1/1000", "1/250", "1/60", "1/15"])
            let files = try FileManager.default.contentsOfDirectory(
                atPath: folder.url.appendingPathComponent("set-01").path)
            #expect(files.sorted() == ["pict1.JPG", "pict2.JPG", "pict3.JPG", "pict4.JPG"])
            #expect(await simulator.refusedLongPolls == 0)
            #expect(await simulator.calls.contains("getEvent"))
        }
    }

    @Test func configurationReadsEveryWayAnAddressIsWritten() throws {
        func endpoint(_ text: String) throws -> String {
            let configuration = try LegacySonyCameraConfiguration(url: text)
            switch configuration.location {
            case let .endpoint(url): return url.description
            case let .description(url): return "description " + url.description
            }
        }
        #expect(try endpoint("http://192.168.122.1:8080") == "http://192.168.122.1:8080/sony/camera")
        #expect(try endpoint("http://192.168.122.1:8080/") == "http://192.168.122.1:8080/sony/camera")
        #expect(try endpoint("http://192.168.122.1:10000/sony") == "http://192.168.122.1:10000/sony/camera")
        #expect(try endpoint("http://192.168.122.1:8080/sony/camera") == "http://192.168.122.1:8080/sony/camera")
        #expect(try endpoint("http://192.168.122.1:64321/dd.xml") == "description http://192.168.122.1:64321/dd.xml")
        #expect(
            try LegacySonyCameraConfiguration(url: "http://192.168.122.1:8080/sony").address
                == "http://192.168.122.1:8080")
        #expect(throws: CameraRemoteAPIError.self) { try LegacySonyCameraConfiguration(url: "ftp://camera") }
    }
}
