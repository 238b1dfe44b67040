import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera
import TestSupport
import Testing

/// Images a dropped session left in the camera's buffer: fetched by the next session, never blocking a release.
@Suite("SonyCamera against the simulator: recovering images an earlier session left", .realTime)
struct SonyCameraRecoveryTests {
    static let fast = ShutterSpeed(numerator: 1, denominator: 125)

    /// Busy answers are not retried, so a release the leftover image would block fails the test at once.
    static func noBusyRetry(_ configuration: inout SonyCameraConfiguration) {
        configuration.busyRetry = .none
    }

    @Test func connectingWithAnImageWaitingFetchesItIntoTheNextCapturesFolderThenFires() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let connectOperations = try await SimulatorHarness.operationsToConnect()
        // S1, S2 down, S2 up, S1 up, GetObjectInfo, then GetObject: the link drops with the image in the buffer.
        let getObject = connectOperations + 6
        let log = folder.appendingPathComponent("ops.jsonl")
        let reconnect = try await SimulatorHarness.run(
            simulator: {
                $0.faults = [.dropAtOperation(getObject)]
                $0.operationLogPath = log.path
            },
            camera: Self.noBusyRetry
        ) { camera, simulator in
            let first = CaptureDestination(directory: folder.appendingPathComponent("first"))
            await #expect {
                _ = try await camera.capture(exposure: Self.fast, to: first)
            } throws: { error in
                (error as? SonyCameraError)?.isConnectionLost == true
            }

            let beforeConnect = await simulator.operationCount
            try await camera.connect()
            let afterConnect = await simulator.operationCount
            var updates = await camera.statusUpdates().makeAsyncIterator()
            #expect(await updates.next() == .saving)

            let second = CaptureDestination(directory: folder.appendingPathComponent("second"), fileNamePrefix: "f2-")
            let beforeCapture = await simulator.operationCount
            let frame = try await camera.capture(exposure: Self.fast, to: second)
            // GetObjectInfo, GetObject and a full 0x9209 (0xD215 back at 0) before the usual six.
            #expect(await simulator.operationCount - beforeCapture == 9)
            #expect(frame.recoveredImages.map(\.fileName) == ["f2-DSC00001_1-125s.JPG"])
            #expect(frame.images.map(\.fileName) == ["f2-DSC00002_1-125s.JPG"])
            let recovered = try #require(frame.recoveredImages.first)
            #expect(recovered.path.hasPrefix(second.directory.path))
            let attributes = try FileManager.default.attributesOfItem(atPath: recovered.path)
            #expect((attributes[.size] as? NSNumber)?.intValue == 20_000)
            #expect(await simulator.captures.count == 2)
            let leftInFirst = (try? FileManager.default.contentsOfDirectory(atPath: first.directory.path)) ?? []
            #expect(leftInFirst.isEmpty)

            // Nothing is recovered twice: the next frame is an ordinary one.
            let next = try await camera.capture(exposure: Self.fast, to: second)
            #expect(next.recoveredImages.isEmpty)
            #expect(next.images.map(\.fileName) == ["f2-DSC00003_1-125s.JPG"])
            return (beforeConnect + 1)...afterConnect
        }
        // The reconnect reads the full 0x9209 dump anyway: seeing 0xD215 = 0x8001 costs no round trip.
        let names = try SonyCameraCaptureTests.operations(in: log).filter { reconnect.contains($0.index) }.map(\.name)
        #expect(
            names == [
                "OpenSession", "GetDeviceInfo", "SDIO_Connect", "SDIO_Connect", "SDIO_GetExtDeviceInfo", "SDIO_Connect",
                "SDIO_GetAllExtDevicePropInfo"
            ])
    }

    /// Runs a simulated body on a test clock (`simulatorClock`: exposures and processing end only when the
    /// test advances it) with a camera on `cameraClock`; frame 1 drops the link as it fires, and the camera
    /// has reconnected when `body` runs: the image of frame 1 is still processing. `quirks` shape the body.
    static func afterADropWhileFrameOneProcesses<T: Sendable>(
        simulatorClock: TestClock, cameraClock: any Clock<Duration> = ContinuousClock(), log: URL,
        quirks: [SimulatorQuirk] = [], _ body: (SonyCamera, CameraSimulator, CaptureDestination) async throws -> T
    ) async throws -> T {
        let configuration = SimulatorHarness.simulator {
            $0.faults = [.dropAtFrame(1)]
            $0.quirks = quirks
            $0.operationLogPath = log.path
        }
        return try await CameraSimulator.withRunning(configuration: configuration, clock: simulatorClock) { simulator in
            let camera = SonyCamera(
                configuration: SimulatorHarness.camera(port: simulator.port, Self.noBusyRetry), clock: cameraClock)
            let destination = CaptureDestination(
                directory: log.deletingLastPathComponent().appendingPathComponent("images"))
            do {
                try await camera.connect()
                await #expect {
                    _ = try await camera.capture(exposure: Self.fast, to: destination)
                } throws: { error in
                    (error as? SonyCameraError)?.isConnectionLost == true
                }
                try await camera.connect()
                let result = try await body(camera, simulator, destination)
                await camera.disconnect()
                return result
            } catch {
                await camera.disconnect()
                throw error
            }
        }
    }

    /// Lets the simulated body's time run on by `step` once its timer waits (images become ready).
    static func advance(_ clock: TestClock, by step: Duration = .seconds(1)) async {
        await clock.waitForSleepers(1)
        clock.advance(by: step)
    }

    /// Waits until the camera has published `wanted`, in order.
    static func waitForStatuses(_ wanted: [CameraStatus], in updates: inout AsyncStream<CameraStatus>.Iterator) async {
        for status in wanted {
            while let next = await updates.next(), next != status {}
        }
    }

    @Test(.realTime(timeLimit: .seconds(60)))
    func anImageFinishedAfterTheReconnectIsRecoveredBeforeTheRelease() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let simulatorClock = TestClock()
        try await Self.afterADropWhileFrameOneProcesses(
            simulatorClock: simulatorClock, log: folder.appendingPathComponent("ops.jsonl")
        ) { camera, simulator, destination in
            var updates = await camera.statusUpdates().makeAsyncIterator()
            // The connect-time dump showed an empty buffer: frame 1 is still processing.
            #expect(await updates.next() == .idle)
            await Self.advance(simulatorClock)
            // ObjectAdded for an image no capture of this session made: the camera holds an image.
            #expect(await updates.next() == .saving)

            try await withThrowingTaskGroup(of: CapturedFrame.self) { group in
                group.addTask { try await camera.capture(exposure: Self.fast, to: destination) }
                // Frame 2 fired (S1 up done); let its exposure and processing end.
                await Self.waitForStatuses([.exposing, .saving], in: &updates)
                await Self.advance(simulatorClock)
                let frame = try #require(try await group.next())
                #expect(frame.recoveredImages.map(\.fileName) == ["DSC00001_1-125s.JPG"])
                #expect(frame.images.map(\.fileName) == ["DSC00002_1-125s.JPG"])
            }
            #expect(await simulator.captures.count == 2)
            // The earlier attempt's image is kept apart from the frame's own, in `earlier/`.
            let files = try FileManager.default.contentsOfDirectory(atPath: destination.directory.path).sorted()
            #expect(files == ["DSC00002_1-125s.JPG", "earlier"])
            let earlier = try FileManager.default.contentsOfDirectory(atPath: destination.earlier.directory.path)
            #expect(earlier == ["DSC00001_1-125s.JPG"])
        }
    }

    @Test(.realTime(timeLimit: .seconds(60)))
    func aReleaseRefusedWhileTheInterruptedExposureFinishesWaitsForItsImageAndFiresOnce() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        let (simulatorClock, cameraClock) = (TestClock(), TestClock())
        // A one-image buffer: the release after the reconnect is refused while frame 1 processes.
        try await Self.afterADropWhileFrameOneProcesses(
            simulatorClock: simulatorClock, cameraClock: cameraClock, log: log, quirks: [.busyWhileBuffered]
        ) { camera, simulator, destination in
            var updates = await camera.statusUpdates().makeAsyncIterator()
            #expect(await updates.next() == .idle)
            try await withThrowingTaskGroup(of: CapturedFrame.self) { group in
                group.addTask { try await camera.capture(exposure: Self.fast, to: destination) }
                // The body refuses the release while it processes frame 1; the camera waits for that image.
                await cameraClock.waitForSleepers(1)
                await Self.advance(simulatorClock)
                // Frame 1 fetched, frame 2 fired; let its exposure and processing end.
                await Self.waitForStatuses([.exposing, .saving], in: &updates)
                await Self.advance(simulatorClock)
                let frame = try #require(try await group.next())
                #expect(frame.recoveredImages.map(\.fileName) == ["DSC00001_1-125s.JPG"])
                #expect(frame.images.map(\.fileName) == ["DSC00002_1-125s.JPG"])
            }
            #expect(await simulator.captures.count == 2)
        }
        let releases = try SonyCameraCaptureTests.operations(in: log).filter { $0.name == "SDIO_ControlDevice" }
        #expect(releases.filter { $0.response == "0x2019" }.count == 1)
    }
}
