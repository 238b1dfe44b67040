import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera
import SonyProtocol
import TestSupport
import Testing

/// Firing (`release`) and fetching (`nextImage`) against the simulated body over loopback.
@Suite("SonyCamera against the simulator: release and transfer")
struct SonyCameraCaptureTests {
    static let fast = ShutterSpeed(numerator: 1, denominator: 250)

    @Test func firesAFrameAndSavesItUnderTheCamerasFileName() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        let images = folder.appendingPathComponent("images")
        // Both clocks virtual. The set runs in lockstep; the shot is stepped by hand, at points the test sees, so
        // the order of what crosses the wire is fixed: the camera's clock never moves (no timeout, no keepalive),
        // and the body's moves twice, to the end of the exposure once the four presses are answered, and to the
        // end of the processing once the fetch waits for the body's announcement. The operation timeout is 20 s,
        // so the only sleeper due 10 s after the shot starts is that wait (`waitForFirstImage`).
        let cameraSettings: (inout SonyCameraConfiguration) -> Void = { $0.operationTimeout = .seconds(20) }
        let before = try await Lockstep.run(simulator: { $0.operationLogPath = log.path }, camera: cameraSettings) {
            camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            // The set's change announcement can still be on its way, or arrived and not yet noted (then the
            // release would read 0x9209 first, or not): once the camera has taken in every event the body sent,
            // one read answers every announcement, and the shot starts without one.
            let sent = await simulator.eventsSent
            await lockstep.wire.wait { lockstep.wire.eventsReceived >= sent }
            while await camera.eventsHandled < sent { await Task.yield() }
            _ = await camera.mediaStatus()
            let before = await simulator.operationCount
            let (answered, start) = (lockstep.wire.requestsEnded, lockstep.camera.now)
            let shot = Task {
                try await camera.shoot(
                    exposure: Self.fast, to: CaptureDestination(directory: images, fileNamePrefix: "set1-"))
            }
            // S1 down, S2 down, S2 up, S1 up answered: the body exposes until its deadline.
            await lockstep.wire.wait { lockstep.wire.requestsEnded == answered + 4 }
            let exposureEnds = try #require(await simulator.nextDeadline)
            lockstep.body.advance(to: TestClock.Instant(offset: exposureEnds))
            // The captured event confirms the release; the fetch reads 0xD215 (the image is still processing) and
            // waits for the body's announcement.
            await lockstep.camera.waitForSleeper(
                until: start.advanced(by: SonyCamera.waitForFirstImage(Self.fast)))
            #expect(lockstep.wire.requestsEnded == answered + 5)
            let processed = try #require(await simulator.nextDeadline)
            #expect(processed > exposureEnds)
            lockstep.body.advance(to: TestClock.Instant(offset: processed))
            let frame = try await shot.value
            #expect(lockstep.camera.now == start)
            #expect(frame.release.evidence == .capturedEvent)
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
            return before
        }
        // The release is S1, S2 down, S2 up, S1 up, and its proof (the captured event) costs no round trip. The
        // fetch reads 0xD215 at once (still processing: empty), reads it again when the body announces the image,
        // then GetObjectInfo, GetObject, and the read that finds the buffer empty; never a read more.
        let records = try Self.operations(in: log).filter { $0.index > before }
        let presses = Array(repeating: "SDIO_ControlDevice", count: 4)
        let read = "SDIO_GetAllExtDevicePropInfo"
        #expect(records.map(\.name) == presses + [read, read, "GetObjectInfo", "GetObject", read, "CloseSession"])
        // The first read came at the end of the exposure, the second once the image was processed.
        if records.count == 10 { #expect(records[4].time < records[5].time && records[5].time == records[6].time) }
    }

    @Test func theBufferIsReadOnceAfterEachDownloadAndNotAgainBeforeTheNextRelease() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        let slower = ShutterSpeed(numerator: 1, denominator: 60)
        try await SimulatorHarness.run(simulator: { $0.operationLogPath = log.path }) { camera, _ in
            let images = folder.appendingPathComponent("images")
            try await camera.setShutterSpeed(.timed(Self.fast))
            _ = try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: images))
            try await camera.setShutterSpeed(.timed(slower))
            let frame = try await camera.shoot(exposure: slower, to: CaptureDestination(directory: images))
            #expect(frame.images.count == 1)
        }
        let records = try Self.operations(in: log)
        // Between the first image and the second release: the read that found the buffer empty, the set and
        // its read-back; nothing else.
        let download = try #require(records.firstIndex { $0.name == "GetObject" })
        let release = try #require(records[download...].firstIndex { $0.name == "SDIO_ControlDevice" })
        let between = records[(download + 1)..<release]
        #expect(between.filter { $0.name == "SDIO_SetExtDevicePropValue" }.count == 1)
        #expect(between.first?.name == "SDIO_GetAllExtDevicePropInfo")
        #expect(
            between.allSatisfy { $0.name == "SDIO_SetExtDevicePropValue" || $0.name == "SDIO_GetAllExtDevicePropInfo" })
    }

    @Test func disconnectLeavesWhatWaitsInTheCameraForTheNextSession() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        try await SimulatorHarness.run(simulator: { $0.operationLogPath = log.path }) { camera, simulator in
            try await camera.setShutterSpeed(.timed(Self.fast))
            _ = try await camera.release(exposure: Self.fast, beforeRelease: {})
            await camera.disconnect()
            // The image is fetched by whoever connects next (the runner always fetches before it lets go).
            try await camera.connect()
            let images = try await camera.fetchAll(
                to: CaptureDestination(directory: folder), waitingAtMost: .seconds(10))
            #expect(images.map(\.fileName) == ["DSC00001_1-250s.JPG"])
            #expect(await simulator.captures.count == 1)
        }
        let names = try Self.operations(in: log).map(\.name)
        // The first session ends with the release's presses and CloseSession: no fetch of its own.
        let close = try #require(names.firstIndex(of: "CloseSession"))
        #expect(names[..<close].last == "SDIO_ControlDevice")
        #expect(!names[..<close].contains("GetObject"))
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
            let frame = try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
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
                _ = try await camera.shoot(exposure: speed, to: CaptureDestination(directory: folder))
            }
            #expect(await simulator.captures.map(\.label) == ["1/60", "1/250", "1/1000"])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 3)
    }

    @Test func retriesABusyShutterReleaseWithoutFiringTwice() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run(simulator: { $0.faults = [.busyCapture(count: 2)] }) { camera, simulator in
            let frame = try await camera.shoot(
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
                _ = try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
            }
            #expect(await simulator.captures.isEmpty)
        }
    }

    @Test func aCameraThatNeverEmptiesItsBufferIsGivenTheTransferTimeoutThenNamedWithTheTimeItHad() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // In lockstep virtual time: the 2 s transfer wait runs out without a second of real time.
        try await Lockstep.run(
            simulator: { $0.faults = [.neverIdle] },
            camera: { $0.transferTimeout = .seconds(2) }
        ) { camera, simulator, lockstep in
            // The frame's image arrives; the body then offers it again and again.
            await #expect {
                _ = try await lockstep.drive(simulator) {
                    try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
                }
            } throws: { error in
                guard case let .imagesStillWaiting(fileInfo, waited)? = error as? SonyCameraError else { return false }
                return fileInfo == .waiting(1) && waited >= .seconds(2)
                    && "\(error)".hasPrefix("the camera still reports an image waiting to be fetched (0xD215 = 0x8001)")
            }
            // One frame fired, and the image that did arrive is on disk, nothing else.
            #expect(await simulator.captures.count == 1)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files == ["DSC00001_1-125s.JPG"])
        }
    }

    @Test func aDropDuringTheTransferIsALostConnectionAndLeavesNoPartialFile() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let getObject = try await SimulatorHarness.operationIndexWhileShooting(of: "GetObject")
        try await SimulatorHarness.run(simulator: { $0.faults = [.dropAtOperation(getObject)] }) { camera, simulator in
            await #expect {
                _ = try await camera.shootOnceTheImageIsReady(
                    exposure: ShutterSpeed(numerator: 1, denominator: 125), to: CaptureDestination(directory: folder),
                    on: simulator)
            } throws: { error in
                (error as? SonyCameraError)?.isConnectionLost == true
            }
            #expect(await simulator.captures.count == 1)
            #expect(await !camera.isConnected)
            var updates = await camera.statusUpdates().makeAsyncIterator()
            #expect(await updates.next() == .disconnected)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            #expect(files.isEmpty)
            // The runner reconnects with connect(); the image still waits in the buffer and is the next fetched.
            try await camera.connect()
            let images = try await camera.fetchAll(to: CaptureDestination(directory: folder), waitingAtMost: .zero)
            #expect(images.map(\.fileName) == ["DSC00001_1-125s.JPG"])
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
            try await withThrowingTaskGroup(of: ShotFrame.self) { group in
                group.addTask {
                    try await camera.shoot(exposure: exposure, to: CaptureDestination(directory: folder))
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
                #expect(frame.images.count == 1)
            }
            #expect(await simulator.captures.map(\.label) == ["BULB"])
            #expect(await simulator.captures.first?.exposureSeconds == 60)
        }
    }
}
