import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera
import SonyProtocol
import TestSupport
import Testing

/// Firing, waiting and fetching against the simulated body over loopback.
@Suite("SonyCamera against the simulator: capture and transfer")
struct SonyCameraCaptureTests {
    static let fast = ShutterSpeed(numerator: 1, denominator: 250)

    @Test func capturesAFrameAndSavesItUnderTheCamerasFileName() async throws {
        let folder = try SimulatorHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run { camera, simulator in
            try await camera.setShutterSpeed(.timed(Self.fast))
            let before = await simulator.operationCount
            let frame = try await camera.capture(exposure: Self.fast, to: CaptureDestination(directory: folder, fileNamePrefix: "set1-"))
            let used = await simulator.operationCount - before
            // S1, S2 down, S2 up, S1 up, GetObjectInfo, GetObject, one 0x9209: the wait costs nothing.
            #expect(used == 7)
            #expect(frame.images.count == 1)
            let image = try #require(frame.images.first)
            #expect(image.fileName == "set1-DSC00001_1-250s.JPG")
            #expect(image.byteCount == 20_000)
            let attributes = try FileManager.default.attributesOfItem(atPath: image.path)
            #expect((attributes[.size] as? NSNumber)?.intValue == 20_000)
            #expect(frame.actualSpeed == .timed(Self.fast))
            #expect(await simulator.captures.map(\.label) == ["1/250"])
            // Idle again at once: the runner's idle wait costs no timer.
            var updates = await camera.statusUpdates().makeAsyncIterator()
            #expect(await updates.next() == .idle)
        }
    }

    @Test func neverOverwritesAnExistingFile() async throws {
        let folder = try SimulatorHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let taken = folder.appendingPathComponent("DSC00001_1-250s.JPG")
        try Data("keep me".utf8).write(to: taken)
        try await SimulatorHarness.run { camera, _ in
            try await camera.setShutterSpeed(.timed(Self.fast))
            let frame = try await camera.capture(exposure: Self.fast, to: CaptureDestination(directory: folder))
            #expect(frame.images.map(\.fileName) == ["DSC00001_1-250s-1.JPG"])
        }
        #expect(try String(contentsOf: taken, encoding: .utf8) == "keep me")
    }

    @Test func shootsSeveralFramesInARowOnProtocol200() async throws {
        let folder = try SimulatorHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let speeds = [60, 250, 1000].map { ShutterSpeed(numerator: 1, denominator: $0) }
        try await SimulatorHarness.run(simulator: { $0.protocolVersion = 200 }) { camera, simulator in
            for speed in speeds {
                try await camera.setShutterSpeed(.timed(speed))
                _ = try await camera.capture(exposure: speed, to: CaptureDestination(directory: folder))
            }
            #expect(await simulator.captures.map(\.label) == ["1/60", "1/250", "1/1000"])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 3)
    }

    @Test func retriesABusyShutterReleaseWithoutFiringTwice() async throws {
        let folder = try SimulatorHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run(simulator: { $0.faults = [.busyCapture(count: 2)] }) { camera, simulator in
            let frame = try await camera.capture(exposure: ShutterSpeed(numerator: 1, denominator: 125), to: CaptureDestination(directory: folder))
            #expect(frame.images.count == 1)
            #expect(await simulator.captures.count == 1)
        }
    }

    @Test func refusesToFireInAperturePriority() async throws {
        let folder = try SimulatorHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run(simulator: { $0.exposureMode = .aperturePriority }) { camera, simulator in
            await #expect(throws: SonyCameraError.unsupportedMode(current: "A")) {
                _ = try await camera.capture(exposure: Self.fast, to: CaptureDestination(directory: folder))
            }
            #expect(await simulator.captures.isEmpty)
        }
    }

    @Test func aCameraThatNeverEmptiesItsBufferTimesOut() async throws {
        let folder = try SimulatorHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run(
            simulator: { $0.faults = [.neverIdle] },
            camera: { $0.transferTimeout = .milliseconds(300) }
        ) { camera, _ in
            await #expect {
                _ = try await camera.capture(exposure: Self.fast, to: CaptureDestination(directory: folder))
            } throws: { error in
                guard case let .imagesStillWaiting(fileInfo, _)? = error as? SonyCameraError else { return false }
                return fileInfo == 0x8001
            }
            // The image that did arrive is on disk, nothing else.
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files == ["DSC00001_1-125s.JPG"])
        }
    }

    @Test func aDropDuringTheTransferIsALostConnectionAndLeavesNoPartialFile() async throws {
        let folder = try SimulatorHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let connectOperations = try await SimulatorHarness.operationsToConnect()
        // S1, S2 down, S2 up, S1 up, GetObjectInfo, then GetObject: drop there.
        let getObject = connectOperations + 6
        try await SimulatorHarness.run(simulator: { $0.faults = [.dropAtOperation(getObject)] }) { camera, simulator in
            await #expect {
                _ = try await camera.capture(exposure: ShutterSpeed(numerator: 1, denominator: 125), to: CaptureDestination(directory: folder))
            } throws: { error in
                (error as? SonyCameraError)?.isConnectionLost == true
            }
            #expect(await simulator.captures.count == 1)
            #expect(await !camera.isConnected)
            var updates = await camera.statusUpdates().makeAsyncIterator()
            #expect(await updates.next() == .disconnected)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.isEmpty)
            // The runner reconnects with connect(); the image still waits in the buffer and is the next fetched.
            try await camera.connect()
            #expect(await camera.isConnected)
        }
    }

    @Test func holdsTheReleaseForTheWholeBulbExposureOnTheInjectedClock() async throws {
        let folder = try SimulatorHarness.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = TestClock()
        try await SimulatorHarness.run(clock: clock) { camera, simulator in
            try await camera.setShutterSpeed(.bulb)
            let exposure = ShutterSpeed(numerator: 60, denominator: 1)
            try await withThrowingTaskGroup(of: CapturedFrame.self) { group in
                group.addTask { try await camera.capture(exposure: exposure, to: CaptureDestination(directory: folder)) }
                // The capture parks on the clock for the exposure, with S2 held and nothing fired yet.
                await clock.waitForSleepers(1)
                #expect(clock.pendingDeadlines.contains { $0.offset == .seconds(60) })
                #expect(await simulator.captures.isEmpty)
                clock.advance(by: .seconds(60))
                let frame = try #require(try await group.next())
                #expect(frame.actualSpeed == .bulb)
                #expect(frame.images.count == 1)
            }
            #expect(await simulator.captures.map(\.label) == ["BULB"])
        }
    }
}
