import CameraSimulator
import Exposure
import Foundation
import PTPIP
import Shooting
import SonyCamera
import SonyProtocol
import TestSupport
import Testing

/// Bodies that behave unlike the reference, each modelled by a simulator quirk, against `SonyCamera`
/// over real loopback TCP.
@Suite(.timeLimit(.minutes(2))) struct SonyCameraFieldTests {
    private static let fast = ShutterSpeed(numerator: 1, denominator: 250)

    // MARK: - 1. Idle link drop

    @Test func aBodyThatDropsAnIdleLinkAfterTenSecondsStaysConnectedForAMinute() async throws {
        try await Lockstep.run(
            simulator: { $0.quirks = [.idleDrop(.seconds(10))] }
        ) { camera, simulator, lockstep in
            let before = await simulator.operationCount
            await lockstep.pass(.seconds(60), simulator)
            #expect(await camera.isConnected)
            // One cheap read every 2 s of silence: 30 in a minute (at 2, 4, ... 60 s), never a silence of 10 s.
            let reads = await simulator.operationCount - before
            #expect(reads == 30, "\(reads) keepalive reads")
        }
    }

    @Test func withoutTheKeepaliveTheSameBodyDropsTheLink() async throws {
        try await Lockstep.run(
            simulator: { $0.quirks = [.idleDrop(.seconds(10))] }, camera: { $0.keepaliveInterval = nil }
        ) { camera, simulator, lockstep in
            await lockstep.pass(.seconds(12), simulator)
            // The drop reaches the camera over real TCP: it notices within the bound, or the test fails.
            let dropped = try await eventually { await !camera.isConnected }
            #expect(dropped, "the link was still up after the idle drop")
        }
    }

    @Test func aLongExposureWithNoiseReductionOnAnIdleDroppingBodyIsFetchedInOneRelease() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Lockstep.run(simulator: { $0.quirks = [.idleDrop(.seconds(10)), .longExposureNR] }) {
            camera, simulator, lockstep in
            let four = ShutterSpeed(numerator: 4, denominator: 1)
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(four)) }
            // 4" exposure + 4" dark frame + processing: 8 s of waiting, bridged by keepalive reads.
            let frame = try await lockstep.drive(simulator) {
                try await camera.shoot(exposure: four, to: CaptureDestination(directory: folder))
            }
            #expect(frame.images.count == 1)
            #expect(frame.actualSpeed == .timed(four))
            #expect(await simulator.framesFired == 1)
            #expect(await camera.isConnected)
        }
    }

    @Test func aThirtySecondFrameWithNoiseReductionIsWaitedForPastItsDarkFrame() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Lockstep.run(simulator: { $0.quirks = [.longExposureNR] }) { camera, simulator, lockstep in
            let thirty = ShutterSpeed(numerator: 30, denominator: 1)
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(thirty)) }
            #expect(await camera.longExposureNR == true)
            // 30" + a 30" dark frame: longer than the exposure plus the 10 s margin, within the wait.
            let frame = try await lockstep.drive(simulator) {
                try await camera.shoot(exposure: thirty, to: CaptureDestination(directory: folder))
            }
            #expect(frame.images.count == 1 && frame.actualSpeed == .timed(thirty))
            #expect(await simulator.captures.first?.noiseReductionSeconds == 30)
        }
    }

    @Test func anAbandonedBulbFrameLetsTheShutterGoAtOnce() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Lockstep.run { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.bulb) }
            let capture = lockstep.task {
                try await camera.shoot(
                    exposure: ShutterSpeed(numerator: 120, denominator: 1), to: CaptureDestination(directory: folder))
            }
            // S2 is held for 2' on the camera's clock; 10 s into it the shoot is abandoned.
            await lockstep.pass(.seconds(10), simulator)
            #expect(await simulator.captures.isEmpty)
            capture.cancel()
            await #expect(throws: CancellationError.self) { try await capture.value }
            // S2 went up at once: the body ended the exposure after the 10 s it was held.
            let record = try #require(await simulator.captures.first)
            #expect(record.label == "BULB")
            #expect(record.exposureSeconds == 10, "\(record.exposureSeconds)")
        }
    }

    // MARK: - 4. First release ignored after connect

    @Test func aReleaseIgnoredRightAfterConnectingIsPressedOnceMoreAndFiresOnce() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Lockstep.run(
            simulator: { $0.quirks = [.startupNoFire(.seconds(3))] }
        ) { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            let frame = try await lockstep.drive(simulator) {
                try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
            }
            #expect(frame.images.count == 1)
            #expect(await simulator.framesFired == 1)
            #expect(await camera.takeNotes().contains { $0.contains("ignored the first shutter release") })
        }
    }

    @Test func aReleaseThatFiredIsNeverPressedAgainEvenWhenItsImageIsSlow() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // No ignored releases, but a slow body with a one-image buffer: the early-release check presses again,
        // is answered busy (the body is still processing) and waits for the one image.
        try await Lockstep.run(
            simulator: {
                $0.processingTime = .seconds(5)
                $0.quirks = [.busyWhileBuffered]
            }
        ) { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            let frame = try await lockstep.drive(simulator) {
                try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
            }
            #expect(frame.images.count == 1)
            #expect(await simulator.framesFired == 1)
        }
    }

    @Test func aFullBufferRightAfterConnectingIsNotTakenForTheStartUpAndWaitsOutNoSettle() async throws {
        // A body that holds two captures, shot at once after connecting (`run --confirm`): the third release, well
        // inside the start-up settle, fires nothing because the buffer is full. Two releases fired, so the body is
        // past its start-up: the release is given up after its one window (the runner then fetches and presses
        // again) instead of waiting out the 3 s settle and pressing it a second time into the same full buffer.
        try await Lockstep.run(
            simulator: { $0.bufferCapacity = 2 }
        ) { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            for _ in 0..<2 {
                _ = try await lockstep.drive(simulator) {
                    try await camera.release(exposure: Self.fast, beforeRelease: {})
                }
            }
            let pressesBefore = lockstep.wire.requested.filter { $0 == .sdioControlDevice }.count
            var ignored = false
            do {
                _ = try await lockstep.drive(simulator) {
                    try await camera.release(exposure: Self.fast, beforeRelease: {})
                }
                Issue.record("a release into a full buffer was confirmed")
            } catch SonyCameraError.releaseIgnored {
                ignored = true
            }
            #expect(ignored)
            let presses = lockstep.wire.requested.filter { $0 == .sdioControlDevice }.count - pressesBefore
            // One release is four button operations: S1 down, S2 down, S2 up, S1 up.
            #expect(presses == 4)
            #expect(await simulator.framesFired == 2)
            #expect(await !camera.takeNotes().contains { $0.contains("ignored the first shutter release") })
        }
    }

    // MARK: - 5. Focus once, then held

    @Test func anAFBodyFocusesOnceThenShootsInMFAndIsPutBackToAF() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Lockstep.run(
            simulator: {
                $0.focusMode = .singleAF
                $0.quirks = [.afLock(.milliseconds(300))]
            }
        ) { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            for _ in 0..<2 {
                let frame = try await lockstep.drive(simulator) {
                    try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
                }
                #expect(frame.images.count == 1)
                #expect(await camera.focusMode == .manual)
            }
            #expect(await simulator.framesFired == 2)
            #expect(await camera.takeNotes().contains { $0.contains("focused once (AF-S)") })
            await camera.disconnect()
            try await camera.connect()
            #expect(await camera.focusMode == .singleAF)
        }
    }

    @Test func aShootThatDiedInMFPutsTheFocusBackWhenItsResumeEnds() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = folder.appendingPathComponent("config")
        let record = try await SimulatorHarness.run(
            simulator: { $0.focusMode = .singleAF }, camera: { $0.focusRecordDirectory = records }
        ) { camera, _ in
            try await camera.setShutterSpeed(.timed(Self.fast))
            _ = try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
            // In MF for the shoot: what to put back is on disk, so a process that dies now loses nothing.
            let files = try FileManager.default.contentsOfDirectory(atPath: records.path)
            #expect(files.count == 1 && files[0].hasPrefix("focus-restore-"))
            let saved = try String(contentsOf: records.appendingPathComponent(files[0]), encoding: .utf8)
            #expect(saved == "500A=2\n")
            return (records.appendingPathComponent(files[0]), saved)
        }
        // This process ends the shoot and puts AF-S back (the record goes). One that died instead leaves the
        // body in MF and the record behind: a new process (the resume) shoots in MF without focusing again,
        // then puts AF-S back.
        #expect(!FileManager.default.fileExists(atPath: record.0.path))
        try Data(record.1.utf8).write(to: record.0)
        try await SimulatorHarness.run(
            simulator: { $0.focusMode = .manual }, camera: { $0.focusRecordDirectory = records }
        ) { camera, _ in
            try await camera.setShutterSpeed(.timed(Self.fast))
            _ = try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
            #expect(await camera.takeNotes().contains { $0.contains("still in MF from the interrupted shoot") })
            await camera.disconnect()
            #expect(try FileManager.default.contentsOfDirectory(atPath: records.path).isEmpty)
            try await camera.connect()
            #expect(await camera.focusMode == .singleAF)
        }
    }

    @Test func focusThatNeverLocksStopsBeforeAnythingFires() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Lockstep.run(
            simulator: {
                $0.focusMode = .singleAF
                $0.quirks = [.afFail]
            }
        ) { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            await #expect {
                try await lockstep.drive(simulator) {
                    try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
                }
            } throws: { error in
                guard case .focusFailed(let mode, _)? = error as? SonyCameraError else { return false }
                return mode == "AF-S" && "\(error)".contains("MF")
            }
            #expect(await simulator.framesFired == 0)
        }
    }

    @Test func aBodyWithAFocusSwitchFocusesEveryFrameAndWarns() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Lockstep.run(
            simulator: {
                $0.focusMode = .singleAF
                $0.quirks = [.focusSwitch, .afLock(.milliseconds(300))]
            }
        ) { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            for _ in 0..<2 {
                _ = try await lockstep.drive(simulator) {
                    try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
                }
            }
            #expect(await simulator.framesFired == 2)
            #expect(await camera.focusMode == .singleAF)
            #expect(await camera.takeNotes().contains { $0.contains("frames may not align") })
        }
    }

    // MARK: - 6, 7, 8. Shutter lists and setting

    @Test(arguments: [SimulatorQuirk.shutterRange(listInD229: false), .shutterRange(listInD229: true)])
    func aShutterSpeedSentAsARangeStillShoots(quirk: SimulatorQuirk) async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run(simulator: { $0.quirks = [quirk] }) { camera, simulator in
            let speeds = try await camera.availableShutterSpeeds()
            #expect(speeds.contains(.timed(Self.fast)) && speeds.contains(.bulb))
            #expect(speeds.contains(.timed(ShutterSpeed(numerator: 30, denominator: 1))))
            try await camera.setShutterSpeed(.timed(Self.fast))
            #expect(try await camera.currentShutterSpeed() == .timed(Self.fast))
            let frame = try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
            #expect(frame.actualSpeed == .timed(Self.fast))
            #expect(await simulator.framesFired == 1)
        }
    }

    @Test func anUnlistedShutterRangeIsSteppedToItsRealEndsOnceAndRememberedForTheBody() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-body-record").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // An ILCE-6000: 0xD20D a range of 0..0xFFFFFFFF naming no speeds, notch steps only, 1/4000 at most.
        try await Self.onAnILCE6000(recordingIn: folder) { camera, simulator, lockstep in
            let start = try await lockstep.drive(simulator) { try await camera.currentShutterSpeed() }
            // Before: Sony's widest series is all hdrshoot can assume, 1/8000 included.
            let assumed = try await lockstep.drive(simulator) { try await camera.availableShutterSpeeds() }
            #expect(assumed.contains(.timed(ShutterSpeed(numerator: 1, denominator: 8000))))
            let found = try await lockstep.drive(simulator) { try await camera.learnShutterLimits() }
            let limits = ShutterLimits(
                fastest: ShutterSpeed(numerator: 1, denominator: 4000),
                slowest: ShutterSpeed(numerator: 30, denominator: 1))
            #expect(found == .probed(limits))
            let speeds = try await lockstep.drive(simulator) { try await camera.availableShutterSpeeds() }
            #expect(speeds.contains(.timed(limits.fastest)) && speeds.contains(.timed(limits.slowest)))
            #expect(!speeds.contains(.timed(ShutterSpeed(numerator: 1, denominator: 5000))))
            // The dial is put back where the photographer left it.
            #expect(try await lockstep.drive(simulator) { try await camera.currentShutterSpeed() } == start)
            // Kept by serial, durable, in Sony's own values: 1/4000 is 0x00010FA0, 30" is 0x012C000A (300/10).
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files == ["shutter-limits-00000000000000003282933004190000"], "\(files)")
            let text = try String(contentsOf: folder.appendingPathComponent(files[0]), encoding: .utf8)
            #expect(text == "fastest=0x00010FA0\nslowest=0x012C000A\n")
            // The next time, the record answers: no notch is stepped.
            let steps = lockstep.wire.requested.filter { $0 == .sdioControlDevice }.count
            #expect(steps >= 3, "\(steps) steps")
            let again = try await lockstep.drive(simulator) { try await camera.learnShutterLimits() }
            #expect(again == .remembered(limits))
            #expect(lockstep.wire.requested.filter { $0 == .sdioControlDevice }.count == steps)
        }
    }

    @Test func anUnlistedShutterRangeIsSteppedOnlyToThePlansExtremesAndAgainWhenAPlanNeedsMore() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-limits").url
        defer { try? FileManager.default.removeItem(at: folder) }
        @Sendable func speed(_ numerator: Int, _ denominator: Int) -> ShutterSpeed {
            ShutterSpeed(numerator: numerator, denominator: denominator)
        }
        try await Self.onAnILCE6000(recordingIn: folder) { camera, simulator, lockstep in
            func presses() -> Int { lockstep.wire.requested.filter { $0 == .sdioControlDevice }.count }
            // A plan of 1/1000 ... 1/15: the body reaches both, so both are only as far as the plan needed.
            let small = try await lockstep.drive(simulator) {
                try await camera.learnShutterLimits(needing: speed(1, 1000)...speed(1, 15))
            }
            let reached = ShutterLimits(
                fastest: speed(1, 1000), slowest: speed(1, 15), fastestIsEnd: false, slowestIsEnd: false)
            #expect(small == .probed(reached))
            let speeds = try await lockstep.drive(simulator) { try await camera.availableShutterSpeeds() }
            #expect(!speeds.contains(.timed(speed(1, 2000))) && !speeds.contains(.timed(speed(1, 8))))
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            let record = try String(contentsOf: folder.appendingPathComponent(files[0]), encoding: .utf8)
            #expect(record.hasSuffix("reached=fastest,slowest\n"), "\(record)")
            // The same plan again: the record answers, nothing is stepped.
            let steps = presses()
            let same = try await lockstep.drive(simulator) {
                try await camera.learnShutterLimits(needing: speed(1, 500)...speed(1, 30))
            }
            #expect(same == .remembered(reached) && presses() == steps)
            // A plan to 1/8000 needs more than the record knows: stepped again, and the body stops at 1/4000, its
            // end; the slow side keeps what the earlier plan saw.
            let more = try await lockstep.drive(simulator) {
                try await camera.learnShutterLimits(needing: speed(1, 8000)...speed(1, 30))
            }
            #expect(
                more
                    == .probed(
                        ShutterLimits(
                            fastest: speed(1, 4000), slowest: speed(1, 15), fastestIsEnd: true, slowestIsEnd: false)))
            #expect(presses() > steps)
        }
    }

    @Test func aDirectSetIgnoredWhileAnImageWaitsIsNotTakenForABodyToStep() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // alpha-fairy's body: it takes direct sets, but none while images wait in its buffer. The set is given up
        // (the runner then downloads and sets again) instead of stepping the session notch by notch.
        try await Lockstep.run(
            simulator: { $0.quirks = [.speedIgnoredWhileBuffered] },
            camera: { $0.shutterConfirmTimeout = .milliseconds(300) }
        ) { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            _ = try await lockstep.drive(simulator) { try await camera.release(exposure: Self.fast, beforeRelease: {}) }
            let steps = lockstep.wire.requested.filter { $0 == .sdioControlDevice }.count
            let slower = CameraShutterSpeed.timed(ShutterSpeed(numerator: 1, denominator: 125))
            var notTaken = false
            do {
                try await lockstep.drive(simulator) { try await camera.setShutterSpeed(slower) }
            } catch SonyCameraError.shutterSpeedNotConfirmed {
                notTaken = true
            }
            #expect(notTaken)
            #expect(lockstep.wire.requested.filter { $0 == .sdioControlDevice }.count == steps)
            #expect(await !camera.takeNotes().contains { $0.contains("notch by notch") })
            // Fetched, the body takes the direct set again.
            let image = try await lockstep.drive(simulator) {
                try await camera.nextImage(to: CaptureDestination(directory: folder), waitingAtMost: .seconds(5))
            }
            #expect(image != nil)
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(slower) }
            #expect(try await lockstep.drive(simulator) { try await camera.currentShutterSpeed() } == slower)
            #expect(lockstep.wire.requested.filter { $0 == .sdioControlDevice }.count == steps)
        }
    }

    @Test func aBodyThatListsItsSpeedsIsNeverStepped() async throws {
        try await Lockstep.run { camera, simulator, lockstep in
            let found = try await lockstep.drive(simulator) { try await camera.learnShutterLimits() }
            #expect(found == nil)
            #expect(!lockstep.wire.requested.contains(.sdioControlDevice))
        }
    }

    @Test(arguments: [SimulatorQuirk.directSetRefused(.invalidDevicePropValue), .directSetIgnored])
    func aRefusedOrIgnoredDirectSetFallsBackToNotchStepsForTheSession(quirk: SimulatorQuirk) async throws {
        try await Lockstep.run(
            simulator: { $0.quirks = [quirk] }, camera: { $0.shutterConfirmTimeout = .milliseconds(300) }
        ) { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            #expect(try await lockstep.drive(simulator) { try await camera.currentShutterSpeed() } == .timed(Self.fast))
            let slower = ShutterSpeed(numerator: 1, denominator: 60)
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(slower)) }
            #expect(try await lockstep.drive(simulator) { try await camera.currentShutterSpeed() } == .timed(slower))
            let notes = await camera.takeNotes()
            #expect(notes.count == 1 && notes[0].contains("notch by notch"), "\(notes)")
        }
    }

    @Test func aLostNotchIsSentAgainFromTheReadBack() async throws {
        try await Lockstep.run(
            simulator: {
                $0.protocolVersion = 200
                $0.quirks = [.lostNotch(2)]
            },
            camera: { $0.stepConfirmTimeout = .milliseconds(300) }
        ) { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            #expect(try await lockstep.drive(simulator) { try await camera.currentShutterSpeed() } == .timed(Self.fast))
        }
    }

    @Test func moreLostNotchesThanTheRetriesStopWithTheStuckSpeedNamed() async throws {
        _ = try await Lockstep.run(
            simulator: {
                $0.protocolVersion = 200
                $0.quirks = [.lostNotch(10)]
            },
            camera: { $0.stepConfirmTimeout = .milliseconds(100) }
        ) { camera, simulator, lockstep in
            await #expect {
                try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            } throws: { error in
                if case .shutterSpeedRejected(let requested, _)? = error as? SonyCameraError {
                    return requested == "1/250"
                }
                return false
            }
        }
    }

    // MARK: - 9, 10, 11. No events, busy start, a lagging 0xD215

    @Test(arguments: [
        [SimulatorQuirk.noEvents], [.busyAtStart(4)], [.shootingFileInfoLag], [.noEvents, .shootingFileInfoLag],
        [.capturedEventListedNotSent], [.noShootingFileInfo], [.noShootingFileInfo, .noEvents],
        [.noShootingFileInfo, .capturedEventListedNotSent]
    ])
    func threeFramesShootOnAnAwkwardBody(quirks: [SimulatorQuirk]) async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // In Lockstep virtual time, the connect included: a busy start-up retries on the camera's clock.
        try await Lockstep.run(simulator: { $0.quirks = quirks }, connect: false) { camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.connect() }
            for denominator in [1000, 500, 250] {
                let speed = ShutterSpeed(numerator: 1, denominator: denominator)
                try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(speed)) }
                let frame = try await lockstep.drive(simulator) {
                    try await camera.shoot(exposure: speed, to: CaptureDestination(directory: folder))
                }
                #expect(frame.images.count == 1 && frame.actualSpeed == .timed(speed))
            }
            #expect(await simulator.framesFired == 3)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.filter { $0.hasSuffix(".JPG") }.count == 3)
            // The disconnect puts the focus back and closes the session on the camera's clock.
            try await lockstep.drive(simulator) { await camera.disconnect() }
        }
    }

    @Test(arguments: [
        [SimulatorQuirk.capturedEventListedNotSent], [.noShootingFileInfo], [.noShootingFileInfo, .noEvents],
        [.noEvents]
    ])
    func threeReleasesThenOneFetchFireEachFrameOnceAndFetchEveryImage(quirks: [SimulatorQuirk]) async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // Capture first, download behind, as the runner does: three confirmed releases, then the buffer.
        try await Lockstep.run(simulator: { $0.quirks = quirks }) { camera, simulator, lockstep in
            let speeds = [1000, 500, 250].map { ShutterSpeed(numerator: 1, denominator: $0) }
            for speed in speeds {
                try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(speed)) }
                _ = try await lockstep.drive(simulator) { try await camera.release(exposure: speed, beforeRelease: {}) }
            }
            #expect(await simulator.framesFired == 3)
            let images = try await lockstep.drive(simulator) {
                try await camera.fetchAll(
                    to: CaptureDestination(directory: folder), waitingAtMost: .seconds(10), expecting: 3)
            }
            #expect(images.map(\.exposure) == speeds)
            #expect(await simulator.framesFired == 3)
            #expect(await simulator.filesWaiting == 0)
        }
    }

    // MARK: - 12. Transfers never destroy an image

    @Test(arguments: [SimulatorQuirk.transferLong(100), .transferShort(100)])
    func aDataPhaseOfTheWrongLengthIsKeptAndMarked(quirk: SimulatorQuirk) async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run(simulator: { $0.quirks = [quirk] }) { camera, _ in
            try await camera.setShutterSpeed(.timed(Self.fast))
            let frame = try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
            let image = try #require(frame.images.first)
            let expected = 20_000 + (quirk == .transferLong(100) ? 100 : -100)
            #expect(image.byteCount == expected)
            let size = try FileManager.default.attributesOfItem(atPath: image.path)[.size] as? Int
            #expect(size == expected)
            #expect(image.problem?.contains("announced 20000") == true)
        }
    }

    @Test(arguments: [SimulatorQuirk.objectInfoEmpty, .objectInfoGarbled])
    func anImageWithoutUsableInformationIsNamedFromItsContent(quirk: SimulatorQuirk) async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SimulatorHarness.run(simulator: { $0.quirks = [quirk] }) { camera, _ in
            try await camera.setShutterSpeed(.timed(Self.fast))
            let frame = try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder))
            let image = try #require(frame.images.first)
            #expect(image.fileName.hasPrefix("unnamed-") && image.fileName.hasSuffix(".JPG"), "\(image.fileName)")
            #expect(image.byteCount == 20_000)
            #expect(frame.actualSpeed == .timed(Self.fast))
        }
    }

    /// An ILCE-6000 on the Lockstep: 0xD20D a range of 0..0xFFFFFFFF naming no speeds (protocol 2.00, notch steps
    /// only, 1/4000 at most); the limits the camera learns are recorded for the body in `folder`.
    private static func onAnILCE6000<T: Sendable>(
        recordingIn folder: URL, _ body: (SonyCamera, CameraSimulator, Lockstep) async throws -> T
    ) async throws -> T {
        try await Lockstep.run(
            simulator: {
                $0.protocolVersion = 200
                $0.fastestShutterDenominator = 4000
                $0.quirks = [.shutterRange(listInD229: false)]
            },
            camera: {
                $0.stepConfirmTimeout = .milliseconds(300)
                $0.bodyRecordDirectory = folder
            }, body)
    }
}
