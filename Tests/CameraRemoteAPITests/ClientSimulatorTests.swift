import CameraRemoteAPI
import ImageMetadata
import LegacyCameraSimulator
import TestSupport
import Testing

/// The client against the legacy simulator over real loopback HTTP: every method the bracket needs.
@Suite(.realTime) struct ClientSimulatorTests {
    @Test func connectsThroughTheDeviceDescriptionToTheCameraService() async throws {
        let simulator = try LegacyCameraSimulator(configuration: plainConfiguration())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await simulator.run() }
            defer { simulator.close() }
            let (client, description) = try await CameraRemoteAPIClient.connect(
                descriptionURL: simulator.descriptionURL)
            defer { client.close() }
            #expect(description.friendlyName == "ILCE-6000")
            #expect(description.apiVersion == "1.0")
            #expect(client.endpoint == RemoteURL(host: "127.0.0.1", port: simulator.port, path: "/sony/camera"))
            #expect(try await client.getVersions() == ["1.0", "1.1", "1.2", "1.3"])
        }
    }

    @Test(.enabled(if: TestHost.hasIPv6Loopback, "needs IPv6: ::1 cannot be bound here"))
    func worksOverIPv6LoopbackWithABracketedHostInEveryURL() async throws {
        let simulator = try LegacyCameraSimulator(configuration: plainConfiguration(), host: "::1")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await simulator.run() }
            defer { simulator.close() }
            #expect(simulator.descriptionURL == "http://[::1]:\(simulator.port)/dd.xml")
            let (client, _) = try await CameraRemoteAPIClient.connect(descriptionURL: simulator.descriptionURL)
            defer { client.close() }
            #expect(client.endpoint.host == "::1")
            try await client.setPostviewImageSize("Original")
            guard case let .postview(urls) = try await client.actTakePicture(), let url = urls.first else {
                Issue.record("no postview URL")
                return
            }
            #expect(url.hasPrefix("http://[::1]:\(simulator.port)/postview/"))
            #expect(try await client.downloadPostview(url).count == 20_000)
        }
    }

    @Test func readsApplicationInfoModeIsoAndShutter() async throws {
        try await withLegacySimulator(plainConfiguration()) { _, client in
            let info = try await client.getApplicationInfo()
            #expect(info.name == "Smart Remote Control")
            #expect(info.version == "2.1.4")
            #expect(try await client.getExposureMode() == "Manual")
            #expect(try await client.getIsoSpeedRate() == "AUTO")
            #expect(try await client.getShutterSpeed() == "1/60")
            let available = try await client.getAvailableShutterSpeed()
            #expect(available.current == "1/60")
            #expect(available.candidates == LegacySimulatorConfiguration.manualShutterLabels)
        }
    }

    @Test func aBodyThatNeedsStartRecModeRefusesShootingUntilThenAndListsMoreAfter() async throws {
        var configuration = plainConfiguration()
        configuration.needsStartRecMode = true
        // The body's time runs on a test clock: its 200 ms of getting ready pass while the long poll waits.
        let (body, recModeDelay) = (TestClock(), configuration.recModeDelay)
        try await withLegacySimulator(configuration, clock: body) { _, client in
            let before = try await client.getAvailableApiList()
            #expect(before.contains("startRecMode"))
            #expect(!before.contains("actTakePicture"))
            await #expect(
                throws: CameraRemoteAPIError.api(.cameraNotReady, message: "Camera Not Ready", method: "actTakePicture")
            ) {
                _ = try await client.actTakePicture()
            }
            #expect(try await client.getEvent(longPoll: false).cameraStatus == .notReady)
            try await client.startRecMode()
            // The body gets ready a moment later: the long poll reports it.
            var event = try await client.getEvent(longPoll: false)
            while event.cameraStatus != .idle {
                event = try await answered(on: body) { try await client.getEvent(longPoll: true) }
            }
            #expect(body.now.offset >= recModeDelay)
            #expect(event.availableAPIs?.contains("actTakePicture") == true)
            #expect(try await client.getAvailableApiList().contains("setShutterSpeed"))
        }
    }

    @Test func aShotTakesItsRealExposureAndPassesCapturingAndSaving() async throws {
        try await withLegacySimulator(plainConfiguration()) { _, client in
            try await client.setShutterSpeed("0.5\"")
            #expect(try await client.getShutterSpeed() == "0.5\"")
            _ = try await client.getEvent(longPoll: false)
            let clock = ContinuousClock()
            let started = clock.now
            async let statuses: [CameraStatus] = {
                var seen: [CameraStatus] = []
                while seen.last != .idle || seen.count < 2 {
                    if let status = try await client.getEvent(longPoll: true).cameraStatus { seen.append(status) }
                }
                return seen
            }()
            let outcome = try await client.actTakePicture()
            let elapsed = clock.now - started
            guard case let .postview(urls) = outcome else {
                Issue.record("expected a postview, got \(outcome)")
                return
            }
            #expect(urls.count == 1)
            #expect(elapsed >= .milliseconds(500))
            let seen = try await statuses
            #expect(seen.contains(.stillCapturing))
            #expect(seen.last == .idle)
        }
    }

    @Test func theOriginalPostviewCarriesTheExposureInItsExif() async throws {
        try await withLegacySimulator(plainConfiguration()) { _, client in
            try await client.setPostviewImageSize("Original")
            try await client.setShutterSpeed("1/250")
            guard case let .postview(urls) = try await client.actTakePicture(), let url = urls.first else {
                Issue.record("no postview URL")
                return
            }
            let image = try await client.downloadPostview(url)
            #expect(image.count == 20_000)
            let exif = try ExifReader.read(image)
            #expect(exif.exposureTime == ExifRational(numerator: 1, denominator: 250))
            #expect(exif.model == "ILCE-6000")
            #expect(exif.make == "SONY")
        }
    }

    @Test func aPostviewLargerThanAllowedIsRefusedAndOneOnAnotherHostIsNotFetched() async throws {
        try await withLegacySimulator(plainConfiguration()) { _, client in
            guard case let .postview(urls) = try await client.actTakePicture(), let url = urls.first else {
                Issue.record("no postview URL")
                return
            }
            await #expect(throws: CameraRemoteAPIError.self) {
                _ = try await client.downloadPostview(url, maximumBytes: 100)
            }
            await #expect(throws: CameraRemoteAPIError.self) {
                _ = try await client.downloadPostview("http://10.0.0.1:8080/postview/pict1.JPG")
            }
        }
    }

    @Test func aLongExposureAnswers40403AndAwaitTakePictureFinishesIt() async throws {
        var configuration = plainConfiguration()
        configuration.captureAnswerTimeout = .milliseconds(300)
        // The body's time runs on a test clock, moved on while each call waits for the exposure.
        let body = TestClock()
        try await withLegacySimulator(configuration, clock: body) { _, client in
            try await client.setShutterSpeed("1\"")
            let first = try await answered(on: body) { try await client.actTakePicture() }
            #expect(first == .stillCapturing)
            var waits = 1
            var outcome = try await answered(on: body) { try await client.awaitTakePicture() }
            while outcome == .stillCapturing {
                waits += 1
                outcome = try await answered(on: body) { try await client.awaitTakePicture() }
            }
            guard case let .postview(urls) = outcome else { return }
            #expect(urls.count == 1)
            #expect(waits >= 2)
        }
    }

    @Test func saveAtShotKeepsOnlyThatPictureSaving() async throws {
        var configuration = plainConfiguration()
        configuration.captureAnswerTimeout = .milliseconds(300)
        configuration.saveAtShot = .init(shot: 2, duration: .seconds(10))
        // The body's time runs on a test clock, moved on while each call waits.
        let body = TestClock()
        try await withLegacySimulator(configuration, clock: body) { _, client in
            try await client.setShutterSpeed("1/250")
            // Shot 1 saves for the usual 20 ms: its postview comes with the answer.
            guard case .postview = try await answered(on: body, { try await client.actTakePicture() }) else {
                Issue.record("shot 1 did not answer with its postview")
                return
            }
            // Shot 2 saves for 10 s: still saving when the answer is due (300 ms), and for 9 s after that.
            #expect(try await answered(on: body) { try await client.actTakePicture() } == .stillCapturing)
            var waits = 0
            var outcome = TakePictureOutcome.stillCapturing
            while outcome == .stillCapturing, waits < 100 {
                waits += 1
                outcome = try await answered(on: body) { try await client.awaitTakePicture() }
            }
            #expect(waits >= 30, "\(waits)")
            guard case let .postview(urls) = outcome else {
                Issue.record("shot 2 never answered with its postview")
                return
            }
            #expect(urls.first?.hasSuffix("pict2.JPG") == true, "\(urls)")
        }
    }

    @Test func aBulbExposureLastsFromStartToStopAndShowsUpInTheEvents() async throws {
        var configuration = plainConfiguration()
        configuration.isoSpeedRate = "100"
        // The body's time runs on a test clock: the test holds the shutter open for 400 ms of it.
        let body = TestClock()
        try await withLegacySimulator(configuration, clock: body) { _, client in
            try await client.setShutterSpeed("BULB")
            _ = try await client.getEvent(longPoll: false)
            try await client.startBulbShooting()
            #expect(try await client.getEvent(longPoll: false).cameraStatus == .stillCapturing)
            body.advance(by: .milliseconds(400))
            try await client.stopBulbShooting()
            var event = try await answered(on: body) { try await client.getEvent(longPoll: true) }
            while event.takePictureURLs.isEmpty {
                event = try await answered(on: body) { try await client.getEvent(longPoll: true) }
            }
            let exif = try ExifReader.read(try await client.downloadPostview(event.takePictureURLs[0]))
            let seconds = try #require(exif.exposureSeconds)
            #expect(seconds >= 0.4 && seconds < 1.5)
        }
    }

    @Test func bulbWithAutoISOIsRefusedAsBodiesDo() async throws {
        try await withLegacySimulator(plainConfiguration()) { _, client in
            try await client.setShutterSpeed("BULB")
            #expect(try await client.getIsoSpeedRate() == "AUTO")
            await #expect(
                throws: CameraRemoteAPIError.api(.shootingFail, message: "Shooting Fail", method: "startBulbShooting")
            ) {
                try await client.startBulbShooting()
            }
        }
    }

    @Test func bulbCallsOutsideBulbAreRefused() async throws {
        try await withLegacySimulator(plainConfiguration()) { _, client in
            await #expect(
                throws: CameraRemoteAPIError.api(.illegalState, message: "Illegal State", method: "startBulbShooting")
            ) {
                try await client.startBulbShooting()
            }
        }
    }
}
