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

    @Test func connectingWithAnImageWaitingFetchesItFirstThenTheNextReleaseFiresOnce() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // The link drops at the first GetObject: the image stays in the buffer.
        let getObject = try await SimulatorHarness.operationIndexWhileShooting(of: "GetObject")
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
                _ = try await camera.shootOnceTheImageIsReady(exposure: Self.fast, to: first, on: simulator)
            } throws: { error in
                (error as? SonyCameraError)?.isConnectionLost == true
            }

            let beforeConnect = await simulator.operationCount
            try await camera.connect()
            let afterConnect = await simulator.operationCount
            var updates = await camera.statusUpdates().makeAsyncIterator()
            #expect(await updates.next() == .saving)

            // What the runner does after a reconnect: fetch what waits before anything fires.
            let second = CaptureDestination(directory: folder.appendingPathComponent("second"), fileNamePrefix: "f2-")
            let beforeFetch = await simulator.operationCount
            let waiting = try await camera.fetchAll(to: second, waitingAtMost: .zero)
            // GetObjectInfo, GetObject, and the read that shows 0xD215 back at 0: the connect's dump said an
            // image waits, so no read of its own comes first.
            #expect(await simulator.operationCount - beforeFetch == 3)
            #expect(waiting.map(\.fileName) == ["f2-DSC00001_1-125s.JPG"])
            let recovered = try #require(waiting.first)
            #expect(recovered.exposure == Self.fast)
            #expect(recovered.path.hasPrefix(second.directory.path))
            let attributes = try FileManager.default.attributesOfItem(atPath: recovered.path)
            #expect((attributes[.size] as? NSNumber)?.intValue == 20_000)
            #expect(await simulator.captures.count == 1)
            let leftInFirst = (try? FileManager.default.contentsOfDirectory(atPath: first.directory.path)) ?? []
            #expect(leftInFirst.isEmpty)

            // Nothing is fetched twice: the next frame is an ordinary one.
            let next = try await camera.shoot(exposure: Self.fast, to: second)
            #expect(next.images.map(\.fileName) == ["f2-DSC00002_1-125s.JPG"])
            #expect(await simulator.captures.count == 2)
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
                    _ = try await camera.shoot(exposure: Self.fast, to: destination)
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
    func anImageFinishedAfterTheReconnectIsFetchedBeforeTheNextRelease() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let simulatorClock = TestClock()
        try await Self.afterADropWhileFrameOneProcesses(
            simulatorClock: simulatorClock, log: folder.appendingPathComponent("ops.jsonl")
        ) { camera, simulator, destination in
            var updates = await camera.statusUpdates().makeAsyncIterator()
            // The connect-time dump showed an empty buffer: frame 1 is still processing.
            #expect(await updates.next() == .idle)
            // The runner fetches first after a reconnect, waiting for the cut-off release's image.
            async let fetched = camera.fetchAll(to: destination, waitingAtMost: .seconds(10))
            await Self.advance(simulatorClock)
            let waiting = try await fetched
            #expect(waiting.map(\.fileName) == ["DSC00001_1-125s.JPG"])
            #expect(waiting.first?.exposure == Self.fast)

            try await withThrowingTaskGroup(of: ShotFrame.self) { group in
                group.addTask { try await camera.shoot(exposure: Self.fast, to: destination) }
                // Frame 2 fired (S1 up done); let its exposure and processing end.
                await Self.waitForStatuses([.exposing, .saving], in: &updates)
                await Self.advance(simulatorClock)
                let frame = try #require(try await group.next())
                #expect(frame.images.map(\.fileName) == ["DSC00002_1-125s.JPG"])
            }
            #expect(await simulator.captures.count == 2)
            let files = try FileManager.default.contentsOfDirectory(atPath: destination.directory.path).sorted()
            #expect(files == ["DSC00001_1-125s.JPG", "DSC00002_1-125s.JPG"])
        }
    }

    @Test(.realTime(timeLimit: .seconds(60)))
    func aReleaseRefusedWhileTheInterruptedExposureFinishesFiresNothingAndFiresOnceAfterTheFetch() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        let (simulatorClock, cameraClock) = (TestClock(), TestClock())
        // A one-image buffer: a release after the reconnect is refused while frame 1 processes.
        try await Self.afterADropWhileFrameOneProcesses(
            simulatorClock: simulatorClock, cameraClock: cameraClock, log: log, quirks: [.busyWhileBuffered]
        ) { camera, simulator, destination in
            var updates = await camera.statusUpdates().makeAsyncIterator()
            #expect(await updates.next() == .idle)
            // Busy means nothing fired (the runner retries it after its backoff).
            await #expect {
                _ = try await camera.release(exposure: Self.fast, beforeRelease: {})
            } throws: { error in
                guard case .deviceBusy? = error as? SonyCameraError else { return false }
                return true
            }
            #expect(await simulator.framesFired == 1)
            // The runner fetches what the camera holds, waiting for frame 1's image, then fires frame 2 once.
            async let fetched = camera.fetchAll(to: destination, waitingAtMost: .seconds(10))
            await cameraClock.waitForSleepers(1)
            await Self.advance(simulatorClock)
            #expect(try await fetched.map(\.fileName) == ["DSC00001_1-125s.JPG"])
            try await withThrowingTaskGroup(of: ShotFrame.self) { group in
                group.addTask { try await camera.shoot(exposure: Self.fast, to: destination) }
                await Self.waitForStatuses([.exposing, .saving], in: &updates)
                await Self.advance(simulatorClock)
                let frame = try #require(try await group.next())
                #expect(frame.images.map(\.fileName) == ["DSC00002_1-125s.JPG"])
            }
            #expect(await simulator.captures.count == 2)
        }
        let releases = try SonyCameraCaptureTests.operations(in: log).filter { $0.name == "SDIO_ControlDevice" }
        #expect(releases.filter { $0.response == "0x2019" }.count == 1)
    }
}
