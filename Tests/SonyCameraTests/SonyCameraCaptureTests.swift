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
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run { camera, simulator in
            try await camera.setShutterSpeed(.timed(Self.fast))
            let before = await simulator.operationCount
            let frame = try await camera.capture(
                exposure: Self.fast, to: CaptureDestination(directory: folder, fileNamePrefix: "set1-"))
            let used = await simulator.operationCount - before
            // S1, S2 down, S2 up, S1 up, GetObjectInfo, GetObject: the wait costs nothing, and the check that
            // 0xD215 is back to 0 rides on the next 0x9209 read.
            #expect(used == 6)
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

    @Test func theEmptyBufferCheckRidesOnTheNextShutterReadBack() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        let slower = ShutterSpeed(numerator: 1, denominator: 60)
        try await SimulatorHarness.run(simulator: { $0.operationLogPath = log.path }) { camera, _ in
            let images = folder.appendingPathComponent("images")
            try await camera.setShutterSpeed(.timed(Self.fast))
            _ = try await camera.capture(exposure: Self.fast, to: CaptureDestination(directory: images))
            try await camera.setShutterSpeed(.timed(slower))
            let frame = try await camera.capture(exposure: slower, to: CaptureDestination(directory: images))
            #expect(frame.images.count == 1)
        }
        let records = try Self.operations(in: log)
        // Between the first image and the second release: the set and its read-back, which is a full 0x9209
        // (it also shows 0xD215 back at 0); no read of its own right after the download.
        let download = try #require(records.firstIndex { $0.name == "GetObject" })
        let release = try #require(records[download...].firstIndex { $0.name == "SDIO_ControlDevice" })
        let between = records[(download + 1)..<release]
        #expect(between.filter { $0.name == "SDIO_SetExtDevicePropValue" }.count == 1)
        let reads = between.filter { $0.name == "SDIO_GetAllExtDevicePropInfo" }
        #expect(reads.first?.parameters == [0])
        #expect(
            between.allSatisfy { $0.name == "SDIO_SetExtDevicePropValue" || $0.name == "SDIO_GetAllExtDevicePropInfo" })
    }

    @Test func disconnectMakesSureNoImageIsLeftInTheCamera() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        try await SimulatorHarness.run(simulator: { $0.operationLogPath = log.path }) { camera, _ in
            try await camera.setShutterSpeed(.timed(Self.fast))
            _ = try await camera.capture(exposure: Self.fast, to: CaptureDestination(directory: folder))
        }
        let names = try Self.operations(in: log).map(\.name)
        // After the last GetObject: a full 0x9209 (0xD215 reads 0), then CloseSession.
        let lastObject = try #require(names.lastIndex(of: "GetObject"))
        #expect(Array(names[(lastObject + 1)...]) == ["SDIO_GetAllExtDevicePropInfo", "CloseSession"])
    }

    /// The simulator's operation log, once it is written.
    static func operations(in log: URL) throws -> [OperationRecord] {
        let text = try String(contentsOf: log, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try JSONDecoder().decode(OperationRecord.self, from: Data($0.utf8))
        }
    }

    @Test func neverOverwritesAnExistingFile() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
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
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
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
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run(simulator: { $0.faults = [.busyCapture(count: 2)] }) { camera, simulator in
            let frame = try await camera.capture(
                exposure: ShutterSpeed(numerator: 1, denominator: 125), to: CaptureDestination(directory: folder))
            #expect(frame.images.count == 1)
            #expect(await simulator.captures.count == 1)
        }
    }

    @Test func refusesToFireInAperturePriority() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run(simulator: { $0.exposureMode = .aperturePriority }) { camera, simulator in
            await #expect(throws: SonyCameraError.unsupportedMode(current: "A")) {
                _ = try await camera.capture(exposure: Self.fast, to: CaptureDestination(directory: folder))
            }
            #expect(await simulator.captures.isEmpty)
        }
    }

    @Test func aCameraThatNeverEmptiesItsBufferTimesOutBeforeTheNextRelease() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // In lockstep virtual time: the 2 s transfer wait runs out twice (in the second capture and in the
        // disconnect's best-effort fetch of the leftover image) without a second of real time.
        try await Lockstep.run(
            simulator: { $0.faults = [.neverIdle] },
            camera: { $0.transferTimeout = .seconds(2) }
        ) { camera, simulator, lockstep in
            // The first frame's image arrives; the check that the buffer emptied is deferred to the next read.
            let first = try await lockstep.drive(simulator) {
                try await camera.capture(exposure: Self.fast, to: CaptureDestination(directory: folder))
            }
            #expect(first.images.map(\.fileName) == ["DSC00001_1-125s.JPG"])
            await #expect {
                _ = try await lockstep.drive(simulator) {
                    try await camera.capture(exposure: Self.fast, to: CaptureDestination(directory: folder))
                }
            } throws: { error in
                guard case let .imagesStillWaiting(fileInfo, _)? = error as? SonyCameraError else { return false }
                return fileInfo == .waiting(1)
                    && "\(error)".hasPrefix("the camera still reports an image waiting to be fetched (0xD215 = 0x8001)")
            }
            // The second frame was never fired, and the image that did arrive is on disk, nothing else.
            #expect(await simulator.captures.count == 1)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files == ["DSC00001_1-125s.JPG"])
            // The disconnect waits for the leftover image on the camera's clock too.
            try await lockstep.drive(simulator) { await camera.disconnect() }
        }
    }

    @Test func aDropDuringTheTransferIsALostConnectionAndLeavesNoPartialFile() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let connectOperations = try await SimulatorHarness.operationsToConnect()
        // S1, S2 down, S2 up, S1 up, GetObjectInfo, then GetObject: drop there.
        let getObject = connectOperations + 6
        try await SimulatorHarness.run(simulator: { $0.faults = [.dropAtOperation(getObject)] }) { camera, simulator in
            await #expect {
                _ = try await camera.capture(
                    exposure: ShutterSpeed(numerator: 1, denominator: 125), to: CaptureDestination(directory: folder))
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

    @Test(.timeLimit(.minutes(1)))
    func holdsTheReleaseForTheWholeBulbExposureOnTheInjectedClock() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // Body and client each on a virtual clock, moved together: the body's image records how long S2 was held
        // on its clock, and the client checks that against the exposure it held.
        let (clock, bodyClock) = (TestClock(), TestClock())
        try await SimulatorHarness.run(clock: clock, simulatorClock: bodyClock) { camera, simulator in
            try await camera.setShutterSpeed(.bulb)
            let exposure = ShutterSpeed(numerator: 60, denominator: 1)
            try await withThrowingTaskGroup(of: CapturedFrame.self) { group in
                group.addTask {
                    try await camera.capture(exposure: exposure, to: CaptureDestination(directory: folder))
                }
                // The capture parks on the clock for the exposure, with S2 held and nothing fired yet (the
                // other sleeper is the link's keepalive).
                await clock.waitForSleepers(2)
                #expect(clock.pendingDeadlines.contains { $0.offset == .seconds(60) })
                #expect(await simulator.captures.isEmpty)
                bodyClock.advance(by: .seconds(60))
                clock.advance(by: .seconds(60))
                // S2 up ends the exposure; the body's processing runs on its own clock.
                let ended = try await eventually { await !simulator.captures.isEmpty }
                try #require(ended, "S2 up never reached the body")
                await bodyClock.waitForSleepers(1)
                bodyClock.advance(by: .seconds(1))
                let frame = try #require(try await group.next())
                // The speed the frame was shot at comes from its image: BULB held for 60".
                #expect(frame.actualSpeed == .timed(exposure))
                #expect(frame.images.count == 1 && frame.unmatchedImages.isEmpty)
            }
            #expect(await simulator.captures.map(\.label) == ["BULB"])
            #expect(await simulator.captures.first?.exposureSeconds == 60)
        }
    }
}
