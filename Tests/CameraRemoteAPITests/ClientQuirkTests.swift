import CameraRemoteAPI
import LegacyCameraSimulator
import TestSupport
import Testing

/// The client against the legacy simulator's quirks, each as a real body shows it, over loopback HTTP.
@Suite(.realTime) struct ClientQuirkTests {
    @Test func aSetAppliesLateAndTheLongPollReportsWhenItHas() async throws {
        var configuration = plainConfiguration()
        configuration.settingDelay = .milliseconds(300)
        // The body's time runs on a test clock: it moves only while a long poll waits for a change.
        let body = TestClock()
        try await withLegacySimulator(configuration, clock: body) { _, client in
            _ = try await client.getEvent(longPoll: false)
            try await client.setShutterSpeed("1/4")
            #expect(try await client.getShutterSpeed() == "1/60")
            var event = try await answered(on: body) { try await client.getEvent(longPoll: true) }
            while event.shutterSpeed?.current != "1/4" {
                event = try await answered(on: body) { try await client.getEvent(longPoll: true) }
            }
            #expect(body.now.offset >= .milliseconds(300))
            #expect(try await client.getShutterSpeed() == "1/4")
        }
    }

    @Test func aSetThatFailsNowAndThenIsATransientAnyError() async throws {
        var configuration = plainConfiguration()
        configuration.setFailureEvery = 2
        try await withLegacySimulator(configuration) { _, client in
            try await client.setShutterSpeed("1/125")
            do throws(CameraRemoteAPIError) {
                try await client.setShutterSpeed("1/250")
                Issue.record("the second set should fail")
            } catch {
                #expect(error == .api(.any, message: "Any", method: "setShutterSpeed"))
                #expect(error.isTransient)
                #expect(!error.isConnectionLost)
            }
            try await client.setShutterSpeed("1/250")
            #expect(try await client.getShutterSpeed() == "1/250")
        }
    }

    @Test func aSecondLongPollIsRefusedByTheClientAndByTheCamera() async throws {
        var configuration = plainConfiguration()
        configuration.longPollTimeout = .seconds(2)
        // The body's time runs on a test clock: its first long poll waits until the test moves it past 2 s.
        let body = TestClock()
        try await withLegacySimulator(configuration, clock: body) { simulator, client in
            _ = try await client.getEvent(longPoll: false)
            // Another client of the same body (its own guard cannot know about the first).
            let other = try CameraRemoteAPIClient(endpoint: client.endpoint)
            defer { other.close() }
            async let first = client.getEvent(longPoll: true)
            // Wait until the camera holds the first long poll (it looks for a change on the body's clock).
            await body.waitForSleepers(1)
            #expect(await simulator.calls.filter { $0 == "getEvent" }.count == 2)
            await #expect(throws: CameraRemoteAPIError.longPollAlreadyRunning) {
                _ = try await client.getEvent(longPoll: true)
            }
            do throws(CameraRemoteAPIError) {
                _ = try await other.getEvent(longPoll: true)
                Issue.record("the camera should refuse a second long poll")
            } catch {
                #expect(error == .api(.alreadyPolling, message: "Already Running Polling Api", method: "getEvent"))
                #expect(error.isTransient)
            }
            // The first long poll still answers (at the camera's own timeout, nothing having changed).
            body.advance(by: .seconds(2))
            #expect(try await first.cameraStatus == .idle)
        }
    }

    @Test(arguments: ["Aperture", "Program Auto"])
    func outsideMAndSTheShutterHasNoCandidatesAndCannotBeSet(mode: String) async throws {
        var configuration = plainConfiguration()
        configuration.exposureMode = mode
        try await withLegacySimulator(configuration) { _, client in
            let exposureMode = try await client.getExposureMode()
            let available = try await client.getAvailableShutterSpeed()
            #expect(exposureMode == mode)
            #expect(available.candidates == [])
            await #expect(
                throws: CameraRemoteAPIError.api(
                    .illegalArgument, message: "Illegal Argument", method: "setShutterSpeed")
            ) {
                try await client.setShutterSpeed("1/60")
            }
        }
    }

    @Test func shutterPriorityOffersEverySpeedButBulb() async throws {
        var configuration = plainConfiguration()
        configuration.exposureMode = "Shutter"
        try await withLegacySimulator(configuration) { _, client in
            let labels = RemoteShutterLabels(candidates: try await client.getAvailableShutterSpeed().candidates)
            #expect(!labels.offersBulb)
            #expect(labels.speeds.count == 52)
        }
    }

    @Test func aConnectionDroppedAtAShotIsLostTheShotIsTakenAndTheNextCallWorks() async throws {
        var configuration = plainConfiguration()
        configuration.dropConnectionAtShot = 2
        try await withLegacySimulator(configuration) { _, client in
            guard case .postview = try await client.actTakePicture() else {
                Issue.record("shot 1 should answer")
                return
            }
            _ = try await client.getEvent(longPoll: false)
            do throws(CameraRemoteAPIError) {
                _ = try await client.actTakePicture()
                Issue.record("shot 2 should lose the connection")
            } catch {
                #expect(error.isConnectionLost, "\(error)")
                #expect(error.isTransient)
            }
            var event = try await client.getEvent(longPoll: false)
            while event.takePictureURLs.isEmpty { event = try await client.getEvent(longPoll: true) }
            #expect(event.takePictureURLs.first?.hasSuffix("/postview/pict2.JPG") == true)
            guard case .postview = try await client.actTakePicture() else {
                Issue.record("shot 3 should answer")
                return
            }
        }
    }

    @Test func anUnknownMethodAndAWrongVersionAreTheCamerasErrors() async throws {
        try await withLegacySimulator(plainConfiguration()) { _, client in
            await #expect(throws: CameraRemoteAPIError.api(.noSuchMethod, message: "No Such Method", method: "actZoom"))
            {
                _ = try await client.call("actZoom", [.string("in"), .string("start")])
            }
            await #expect(
                throws: CameraRemoteAPIError.api(
                    .unsupportedVersion, message: "Unsupported Version", method: "getShutterSpeed")
            ) {
                _ = try await client.call("getShutterSpeed", version: "9.9")
            }
        }
    }

    @Test func aLongPollPastTheClientsTimeoutIsATransientTimeout() async throws {
        var configuration = plainConfiguration()
        // The body holds the poll far longer than the client waits: only the client's bound can end it.
        configuration.longPollTimeout = .seconds(60)
        let simulator = try LegacyCameraSimulator(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await simulator.run() }
            defer { simulator.close() }
            // The client's 200 ms run on the test clock (a parallel run on 2 cores once let the body's 5 s pass
            // first on the real clock).
            let clock = TestClock()
            let client = try CameraRemoteAPIClient(
                endpoint: RemoteURL(host: "127.0.0.1", port: simulator.port, path: "/sony/camera"), clock: clock,
                longPollTimeout: .milliseconds(200))
            defer { client.close() }
            _ = try await client.getEvent(longPoll: false)
            let poll = Task { try await client.getEvent(longPoll: true) }
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(200))
            switch await poll.result {
            case .success:
                Issue.record("the long poll should time out")
            case let .failure(error):
                guard let error = error as? CameraRemoteAPIError, case .timedOut = error else {
                    Issue.record("expected a timeout, got \(error)")
                    return
                }
                #expect(error.isTransient)
            }
            // The client is usable again at once.
            #expect(try await client.getShutterSpeed() == "1/60")
        }
    }

    @Test func nothingListeningIsARefusedConnectionThatMeansReconnect() async throws {
        let simulator = try LegacyCameraSimulator()
        let port = simulator.port
        simulator.close()
        let client = try CameraRemoteAPIClient(endpoint: RemoteURL(host: "127.0.0.1", port: port, path: "/sony/camera"))
        defer { client.close() }
        do throws(CameraRemoteAPIError) {
            _ = try await client.getVersions()
            Issue.record("nothing listens")
        } catch {
            #expect(error == .connectionRefused(address: "127.0.0.1:\(port)"))
            #expect(error.isConnectionLost)
        }
    }
}
