import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera
import TestSupport
import Testing

/// Images a dropped session left in the camera's buffer: fetched by the next session, never blocking a release.
@Suite("SonyCamera against the simulator: recovering images an earlier session left")
struct SonyCameraRecoveryTests {
    static let fast = ShutterSpeed(numerator: 1, denominator: 125)

    /// Busy answers are not retried, so a release the leftover image would block fails the test at once.
    static func noBusyRetry(_ configuration: inout SonyCameraConfiguration) {
        configuration.busyRetry = .none
    }

    @Test func connectingWithAnImageWaitingFetchesItIntoTheNextCapturesFolderThenFires() async throws {
        let folder = try SimulatorHarness.temporaryFolder()
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
        #expect(names == [
            "OpenSession", "GetDeviceInfo", "SDIO_Connect", "SDIO_Connect", "SDIO_GetExtDeviceInfo", "SDIO_Connect",
            "SDIO_GetAllExtDevicePropInfo",
        ])
    }

    @Test(.timeLimit(.minutes(1)))
    func anImageFinishedAfterTheReconnectIsRecoveredBeforeTheRelease() async throws {
        let folder = try SimulatorHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Frame 1 drops the link as it fires; its image is still processing when the camera reconnects.
        try await SimulatorHarness.run(
            simulator: {
                $0.faults = [.dropAtFrame(1)]
                $0.processingTime = .seconds(2)
            },
            camera: Self.noBusyRetry
        ) { camera, simulator in
            let destination = CaptureDestination(directory: folder)
            await #expect {
                _ = try await camera.capture(exposure: Self.fast, to: destination)
            } throws: { error in
                (error as? SonyCameraError)?.isConnectionLost == true
            }
            try await camera.connect()
            var updates = await camera.statusUpdates().makeAsyncIterator()
            let atConnect = await updates.next()
            // 2 s of processing outlast the connect: the dump shows an empty buffer.
            #expect(atConnect == .idle)
            // Then ObjectAdded for an image no capture of this session made: the camera holds an image.
            var status = atConnect
            while status != .saving, status != nil { status = await updates.next() }
            #expect(status == .saving)

            let frame = try await camera.capture(exposure: Self.fast, to: destination)
            #expect(frame.recoveredImages.map(\.fileName) == ["DSC00001_1-125s.JPG"])
            #expect(frame.images.map(\.fileName) == ["DSC00002_1-125s.JPG"])
            #expect(await simulator.captures.count == 2)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(files == ["DSC00001_1-125s.JPG", "DSC00002_1-125s.JPG"])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aReleaseRefusedWhileTheInterruptedExposureFinishesWaitsForItsImageAndFiresOnce() async throws {
        let folder = try SimulatorHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        try await SimulatorHarness.run(
            simulator: {
                $0.faults = [.dropAtFrame(1)]
                $0.processingTime = .milliseconds(1500)
                $0.operationLogPath = log.path
            },
            camera: Self.noBusyRetry
        ) { camera, simulator in
            let destination = CaptureDestination(directory: folder.appendingPathComponent("images"))
            await #expect {
                _ = try await camera.capture(exposure: Self.fast, to: destination)
            } throws: { error in
                (error as? SonyCameraError)?.isConnectionLost == true
            }
            try await camera.connect()
            var updates = await camera.statusUpdates().makeAsyncIterator()
            #expect(await updates.next() == .idle)
            // At once: the body is still processing frame 1 and refuses the release.
            let frame = try await camera.capture(exposure: Self.fast, to: destination)
            #expect(frame.recoveredImages.map(\.fileName) == ["DSC00001_1-125s.JPG"])
            #expect(frame.images.map(\.fileName) == ["DSC00002_1-125s.JPG"])
            #expect(await simulator.captures.count == 2)
        }
        let releases = try SonyCameraCaptureTests.operations(in: log).filter { $0.name == "SDIO_ControlDevice" }
        #expect(releases.contains { $0.response == "0x2019" })
    }
}
