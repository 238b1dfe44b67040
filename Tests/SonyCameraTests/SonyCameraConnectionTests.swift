import CameraSimulator
import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import Shooting
import SonyCamera
import SonyProtocol
import TestSupport
import Testing

/// Connecting with retry, refusing non-Sony answers, bounded disconnects, and the RX100M7 replay.
@Suite("SonyCamera against the simulator: connecting", .realTime)
struct SonyCameraConnectionTests {
    @Test func retriesARefusedFirstConnectionAfterTheFirstBackoff() async throws {
        let clock = TestClock()
        try await CameraSimulator.withRunning(
            configuration: SimulatorHarness.simulator { $0.faults = [.refuseConnections(1)] }
        ) { simulator in
            let camera = SonyCamera(
                configuration: SimulatorHarness.camera(port: simulator.port) {
                    $0.connectBackoff = [.seconds(2), .seconds(5), .seconds(10)]
                },
                clock: clock)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await camera.connectRetrying() }
                await clock.waitForSleepers(1)
                #expect(clock.pendingDeadlines.map(\.offset) == [.seconds(2)])
                #expect(await !camera.isConnected)
                clock.advance(by: .seconds(2))
                try await group.waitForAll()
            }
            #expect(await camera.isConnected)
            await camera.disconnect()
        }
    }

    @Test func givesUpAfterFourAttemptsWithBackoffTwoFiveTenSeconds() async throws {
        // A port nobody listens on, bound but not listening, so no parallel test is handed it meanwhile.
        let closedPort = try LoopbackSocket()
        defer { closedPort.close() }
        let port = closedPort.port
        let clock = TestClock()
        let camera = SonyCamera(
            configuration: SimulatorHarness.camera(port: port) {
                $0.connectBackoff = [.seconds(2), .seconds(5), .seconds(10)]
            },
            clock: clock)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await #expect {
                    try await camera.connectRetrying()
                } throws: { error in
                    guard let sony = error as? SonyCameraError, case let .connectFailed(address, attempts, last) = sony
                    else { return false }
                    return address == "127.0.0.1:\(port)" && attempts == 4
                        && last == .connectionRefused(address: "127.0.0.1:\(port)")
                        && sony.isConnectionLost && sony.description.contains("Ctrl w/ Smartphone")
                }
            }
            for pause in [2, 5, 10] {
                await clock.waitForSleepers(1)
                #expect(clock.pendingDeadlines.map(\.offset) == [clock.now.offset + .seconds(pause)])
                clock.advance(by: .seconds(pause))
            }
            try await group.waitForAll()
        }
        #expect(clock.now.offset == .seconds(17))
    }

    @Test func eachRetryIsAnnouncedWithItsWaitBeforeTheWait() async throws {
        // A port nobody listens on, bound but not listening, so no parallel test is handed it meanwhile.
        let closedPort = try LoopbackSocket()
        defer { closedPort.close() }
        let port = closedPort.port
        let clock = TestClock()
        let camera = SonyCamera(
            configuration: SimulatorHarness.camera(port: port) { $0.connectBackoff = [.seconds(2), .seconds(5)] },
            clock: clock)
        let heard = RetryLog()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await #expect(throws: SonyCameraError.self) {
                    try await camera.connectRetrying { retry in
                        await heard.append(retry)
                    }
                }
            }
            for pause in [2, 5] {
                await clock.waitForSleepers(1)
                // Announced before the wait starts: the photographer hears of it at once.
                #expect(await heard.retries.last?.delay == .seconds(pause))
                clock.advance(by: .seconds(pause))
            }
            try await group.waitForAll()
        }
        let refused = PTPIPError.connectionRefused(address: "127.0.0.1:\(port)")
        let attempts = await heard.retries
        #expect(attempts.map(\.failedAttempt) == [1, 2])
        #expect(attempts.allSatisfy { $0.maximumAttempts == 3 && $0.error as? PTPIPError == refused })
    }

    /// The retries `connectRetrying` announced, in order.
    private actor RetryLog {
        var retries: [SonyCamera.ConnectRetry] = []
        func append(_ retry: SonyCamera.ConnectRetry) { retries.append(retry) }
    }

    @Test func aSingleConnectMakesOneAttempt() async throws {
        // A port nobody listens on, bound but not listening, so no parallel test is handed it meanwhile.
        let closedPort = try LoopbackSocket()
        defer { closedPort.close() }
        let port = closedPort.port
        let camera = SonyCamera(configuration: SimulatorHarness.camera(port: port), clock: TestClock())
        await #expect(
            throws: SonyCameraError.connectFailed(
                address: "127.0.0.1:\(port)", attempts: 1, last: .connectionRefused(address: "127.0.0.1:\(port)"))
        ) {
            try await camera.connect()
        }
    }

    @Test(arguments: [
        (PTPIPError.connectionRefused(address: "a"), true),
        (PTPIPError.timedOut(address: "a", during: "connect"), true),
        (PTPIPError.connectionReset(during: "connect"), true),
        (PTPIPError.initFailed(reason: .busy), true),
        (PTPIPError.hostUnreachable(address: "a"), false),
        (PTPIPError.networkUnreachable(address: "a"), false),
        (PTPIPError.initFailed(reason: .rejectedInitiator), false)
    ])
    func retriesOnlyRefusedTimedOutAndResetConnections(error: PTPIPError, retried: Bool) {
        #expect(SonyCamera.isRetryableConnectFailure(error) == retried)
    }

    @Test func anUnreachableHostFailsFastWithAnActionableMessage() {
        let error = SonyCamera.connectError(
            PTPIPError.hostUnreachable(address: "192.168.122.1:15740"), address: "192.168.122.1:15740", attempts: 1)
        guard case .unreachable? = error as? SonyCameraError else {
            Issue.record("expected .unreachable, got \(error)")
            return
        }
        #expect("\(error)".contains("camera's Wi-Fi"))
    }

    @Test func aCameraThatStopsAnsweringTimesOutAndDisconnectsWithinItsBound() async throws {
        let connectOperations = try await SimulatorHarness.operationsToConnect()
        try await SimulatorHarness.run(
            simulator: { $0.faults = [.hangAtOperation(connectOperations + 1)] },
            // The connect itself runs under this timeout too: generous enough for a loaded machine.
            camera: {
                $0.operationTimeout = .seconds(2)
                $0.disconnectTimeout = .milliseconds(300)
            }
        ) { camera, _ in
            await #expect {
                try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 250)))
            } throws: { error in
                (error as? SonyCameraError)?.isConnectionLost == true
            }
            #expect(await !camera.isConnected)
            let started = ContinuousClock.now
            await camera.disconnect()
            #expect(ContinuousClock.now - started < .seconds(2))
        }
    }

    @Test func disconnectClosesTheSessionAndPublishesDisconnected() async throws {
        try await SimulatorHarness.run { camera, simulator in
            var updates = await camera.statusUpdates().makeAsyncIterator()
            #expect(await updates.next() == .idle)
            await camera.disconnect()
            #expect(await updates.next() == .disconnected)
            #expect(await !camera.isConnected)
            await camera.disconnect() // harmless twice
            await #expect(throws: SonyCameraError.notConnected) { _ = try await camera.shootingMode() }
        }
    }

    @Test func refusesADeviceThatIsNotASonyCamera() async throws {
        // A Canon-like DeviceInfo: Microsoft's vendor extension (6), no Sony SDIO operations.
        let canon = DeviceInfo(
            vendorExtensionID: 6, vendorExtensionVersion: 100, vendorExtensionDescription: "microsoft.com: 1.0",
            operationsSupported: [.getDeviceInfo, .openSession, .closeSession, .getObject], eventsSupported: [],
            devicePropertiesSupported: [], captureFormats: [], imageFormats: [], manufacturer: "Canon Inc.",
            model: "Canon EOS R6", deviceVersion: "1.0", serialNumber: "123")
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("canon-deviceinfo.bin")
        try Data(canon.encoded()).write(to: path)
        try await SimulatorHarness.run(simulator: { $0.replayDeviceInfoPath = path.path }, connect: false) {
            camera, simulator in
            await #expect(throws: SonyCameraError.notSonyCamera(manufacturer: "Canon Inc.", model: "Canon EOS R6")) {
                try await camera.connect()
            }
            #expect(await !camera.isConnected)
        }
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
    func readsTheReplayedRX100M7AsRecorded() async throws {
        let sony = Fixtures.root.appendingPathComponent("sony")
        try await SimulatorHarness.run(simulator: {
            $0.replayDeviceInfoPath = sony.appendingPathComponent("rx100m7_GetDeviceInfo_0x1001.payload.bin").path
            $0.replayExtDeviceInfoPath =
                sony.appendingPathComponent("rx100m7_SDIO_GetExtDeviceInfo_0x9202.payload.bin").path
            $0.replayPropertiesPath =
                sony.appendingPathComponent("rx100m7_SDIO_GetAllExtDevicePropInfo_0x9209.payload.bin").path
        }) { camera, _ in
            let info = try await camera.info()
            RX100M7Expectations.check(info)
        }
    }
}

/// What the real RX100M7 dump says, checked both through the simulator and straight from the bytes.
enum RX100M7Expectations {
    static func check(_ info: SonyCameraInfo) {
        #expect(info.model == "DSC-RX100M7")
        #expect(info.firmware == "1.00")
        #expect(info.protocolVersion == "3.00")
        #expect(info.exposureMode == "M")
        #expect(info.canShoot)
        #expect(info.currentShutterSpeed?.label == "1/15")
        #expect(info.availableShutterSpeeds.count == 62)
        #expect(info.availableShutterSpeeds.first == .bulb)
        #expect(info.availableShutterSpeeds.dropFirst().first?.label == "30\"")
        #expect(info.availableShutterSpeeds.last?.label == "1/32000")
    }
}
