import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera
import SonyProtocol
import TestSupport
import Testing

/// Connecting to the simulated body over loopback, reading its settings, and setting shutter speeds.
@Suite("SonyCamera against the simulator: session and shutter speed")
struct SonyCameraShutterTests {
    @Test func connectsToAProtocol300BodyAndReadsItsSettings() async throws {
        try await SimulatorHarness.run { camera, _ in
            #expect(await camera.isConnected)
            #expect(await camera.identity.model == "ILCE-7M3")
            #expect(await camera.protocolVersion == .v3_00)
            #expect(try await camera.shootingMode() == .manual)
            #expect(try await camera.currentShutterSpeed() == .timed(ShutterSpeed(numerator: 1, denominator: 125)))
            let speeds = try await camera.availableShutterSpeeds()
            #expect(speeds.first == .bulb)
            #expect(speeds.contains(.timed(ShutterSpeed(numerator: 30, denominator: 1))))
            #expect(speeds.contains(.timed(ShutterSpeed(numerator: 1, denominator: 8000))))
        }
    }

    @Test func aSessionsFactsLiveAndEndWithItsLink() async throws {
        try await SimulatorHarness.run { camera, _ in
            #expect(await camera.deviceInfo?.model == "ILCE-7M3")
            #expect(await camera.extDeviceInfo?.protocolVersion == .v3_00)
            #expect(await camera.properties.shutterSpeed != nil)
            await camera.disconnect()
            // Nothing of the closed session is left to read, so nothing stale is shown as current.
            #expect(await camera.deviceInfo == nil)
            #expect(await camera.extDeviceInfo == nil)
            #expect(await camera.properties.codes.isEmpty)
            #expect(await camera.identity.model.isEmpty)
            try await camera.connect()
            #expect(await camera.deviceInfo?.model == "ILCE-7M3")
            #expect(await camera.properties.shutterSpeed != nil)
        }
    }

    @Test func startUpClaimsRemotePriorityAndTheFirstReadBackConfirmsIt() async throws {
        try await SimulatorHarness.run { camera, simulator in
            // Start-up: OpenSession, GetDeviceInfo, SDIO_Connect 1 and 2, 0x9202, SDIO_Connect 3, a full
            // 0x9209, and 0xD25A = PC remote (the body lets us), with no read of its own ...
            #expect(await simulator.operationCount == 8)
            // ... the first shutter read-back carries its confirmation.
            try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 250)))
            #expect(await camera.properties.priorityKey == .pcRemote)
        }
    }

    @Test func setsASpeedOnProtocol300WithOneSetAndOneReadBack() async throws {
        try await SimulatorHarness.run { camera, simulator in
            let before = await simulator.operationCount
            try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 250)))
            #expect(await simulator.operationCount - before == 2)
            #expect(try await camera.currentShutterSpeed() == .timed(ShutterSpeed(numerator: 1, denominator: 250)))
        }
    }

    @Test func setsSlowSpeedsByValueInTheCamerasOwnEncoding() async throws {
        try await SimulatorHarness.run { camera, _ in
            // The body writes 30" as 300/10 and 2.5" as 25/10: matched by value, sent in its encoding.
            try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 30, denominator: 1)))
            #expect(await camera.properties.shutterSpeed == SonyShutterValue(numerator: 300, denominator: 10))
            try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 5, denominator: 2)))
            #expect(await camera.properties.shutterSpeed == SonyShutterValue(numerator: 25, denominator: 10))
        }
    }

    @Test func aSpeedAlreadySetCostsNoRoundTrip() async throws {
        try await SimulatorHarness.run { camera, simulator in
            let before = await simulator.operationCount
            try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 125)))
            _ = try await camera.shootingMode()
            _ = try await camera.availableShutterSpeeds()
            #expect(await simulator.operationCount == before)
        }
    }

    @Test(arguments: [(125, 1000), (125, 4), (8000, 3), (60, 80)])
    func stepsToASpeedOnProtocol200WithAtMostTwoSteps(from: Int, to: Int) async throws {
        // In Lockstep virtual time: the body's step delays and the read-backs' waits cost no real time.
        try await Lockstep.run(simulator: { $0.protocolVersion = 200 }) { camera, simulator, lockstep in
            #expect(await camera.protocolVersion == .v2_00)
            if from != 125 {
                try await lockstep.drive(simulator) {
                    try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: from)))
                }
            }
            let before = await simulator.operationCount
            try await lockstep.drive(simulator) {
                try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: to)))
            }
            let now = try await lockstep.drive(simulator) { try await camera.currentShutterSpeed() }
            #expect(now == .timed(ShutterSpeed(numerator: 1, denominator: to)))
            // One notch jump and its read-back; a correction would add one more of each.
            #expect(await simulator.operationCount - before <= 4)
        }
    }

    @Test func stepsToBulbOnProtocol200() async throws {
        try await Lockstep.run(simulator: { $0.protocolVersion = 200 }) { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.bulb) }
            #expect(try await lockstep.drive(simulator) { try await camera.currentShutterSpeed() } == .bulb)
        }
    }

    @Test func refusesASpeedTheCameraDoesNotOffer() async throws {
        try await SimulatorHarness.run(simulator: { $0.fastestShutterDenominator = 4000 }) { camera, simulator in
            let before = await simulator.operationCount
            await #expect {
                try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 8000)))
            } throws: { error in
                guard case let .shutterSpeedNotOffered(requested, available)? = error as? SonyCameraError else {
                    return false
                }
                return requested == "1/8000" && available.last == "1/4000" && available.first == "BULB"
            }
            #expect(await simulator.operationCount == before)
        }
    }

    @Test func refusesToSetTheSpeedInAperturePriorityNamingTheMode() async throws {
        try await SimulatorHarness.run(simulator: { $0.exposureMode = .aperturePriority }) { camera, _ in
            #expect(try await camera.shootingMode() == .aperturePriority)
            await #expect(throws: SonyCameraError.unsupportedMode(current: "A")) {
                try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 250)))
            }
            let info = try await camera.info()
            #expect(!info.canShoot)
            #expect(info.blockers.first?.contains("M (manual) or S") == true)
        }
    }

    @Test func setsTheSpeedInShutterPriority() async throws {
        try await SimulatorHarness.run(simulator: { $0.exposureMode = .shutterPriority }) { camera, _ in
            #expect(try await camera.shootingMode() == .shutterPriority)
            try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 500)))
            #expect(try await camera.info().canShoot)
        }
    }

    @Test(arguments: [
        (SimulatedExposureMode.shutterPriority, ShootingMode.shutterPriority), (.manual, .manual),
        (.aperturePriority, .aperturePriority), (.program, .program)
    ])
    func aBodyWritingItsModeAsAU16IsReadInThe200Encoding(
        dial: SimulatedExposureMode, mode: ShootingMode
    ) async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run(simulator: {
            $0.protocolVersion = 200
            $0.exposureMode = dial
            $0.quirks = [.modeU16]
        }) { camera, simulator in
            #expect(try await camera.shootingMode() == mode)
            guard mode.allowsShutterControl else { return }
            // S on a 2.00 body (0x0004) shoots like S on a 3.00 body (0x00030004).
            let speed = ShutterSpeed(numerator: 1, denominator: 125)
            try await camera.setShutterSpeed(.timed(speed))
            let frame = try await camera.shoot(exposure: speed, to: CaptureDestination(directory: folder))
            #expect(frame.images.count == 1)
            #expect(await simulator.framesFired == 1)
        }
    }

    @Test func retriesABusySetInsideTheModule() async throws {
        try await SimulatorHarness.run(simulator: { $0.faults = [.busy(operation: 0x9205, count: 5)] }) {
            camera, simulator in
            // Start-up gave up claiming PC-remote priority after 3 busy answers (best effort) and went on.
            #expect(await camera.isConnected)
            #expect(await camera.properties.priorityKey == .cameraPosition)
            let before = await simulator.operationCount
            try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 250)))
            // Two busy answers, the accepted set, one read-back.
            #expect(await simulator.operationCount - before == 4)
            #expect(try await camera.currentShutterSpeed() == .timed(ShutterSpeed(numerator: 1, denominator: 250)))
        }
    }

    @Test func aCameraBusyThreeTimesIsAFinalNonTransientError() async throws {
        try await SimulatorHarness.run(simulator: { $0.faults = [.busy(operation: 0x9205, count: 6)] }) { camera, _ in
            await #expect {
                try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 250)))
            } throws: { error in
                guard let sony = error as? SonyCameraError, case let .deviceBusy(_, attempts) = sony else {
                    return false
                }
                return attempts == 3 && !sony.isTransient && !sony.isConnectionLost
            }
            // The session survives a busy camera.
            #expect(await camera.isConnected)
            try await camera.setShutterSpeed(.timed(ShutterSpeed(numerator: 1, denominator: 250)))
        }
    }
}
