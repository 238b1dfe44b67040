import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera
import SonyProtocol
import Synchronization
import TestSupport
import Testing

/// The caller's `beforeRelease` hook against the simulated body over loopback: it runs beside the
/// half-press (S1 down), and the release (S2 down) waits for it.
@Suite("SonyCamera against the simulator: the hook before the release", .realTime)
struct SonyCameraReleaseHookTests {
    static let fast = ShutterSpeed(numerator: 1, denominator: 250)
    static let s1 = UInt32(SonyControlCode.s1Button.rawValue)
    static let s2 = UInt32(SonyControlCode.s2Button.rawValue)

    /// The journal's error in these tests.
    struct JournalFull: Error, Equatable {}

    /// What a hook saw, written from its own task.
    final class HookLog: Sendable {
        private let state = Mutex((returned: false, cancelled: false))
        /// Notes that the hook returned, and whether its task was cancelled by then.
        func noteReturn() { state.withLock { $0 = (true, Task.isCancelled) } }
        /// Whether the hook returned, and whether it had been cancelled.
        var snapshot: (returned: Bool, cancelled: Bool) { state.withLock { $0 } }
    }

    /// Waits (real time: the simulator serves real TCP) until `condition` holds; fails the test after
    /// `TimingBounds.notAHang`.
    static func waitUntil(_ what: String, _ condition: () async -> Bool) async throws {
        if try await !eventually(every: .milliseconds(2), condition) {
            Issue.record("timed out waiting until \(what)")
        }
    }

    /// The 0x9207 presses the simulator logged after operation `after` (up to `through`), as (button, response).
    static func presses(in log: URL, after: Int, through: Int = .max) throws -> [(button: UInt32, response: String?)] {
        try SonyCameraCaptureTests.operations(in: log)
            .filter { $0.index > after && $0.index <= through && $0.name == "SDIO_ControlDevice" }
            .map { ($0.parameters.first ?? 0, $0.response) }
    }

    @Test(.realTime(timeLimit: .seconds(60)))
    func theReleaseWaitsForTheHookWhileTheHalfPressGoesDownBesideIt() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        let (entered, enter) = AsyncStream.makeStream(of: Void.self)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let hookLog = HookLog()
        let before = try await Lockstep.run(simulator: { $0.operationLogPath = log.path }) {
            camera, simulator, lockstep in
            try await lockstep.drive(simulator) { try await camera.setShutterSpeed(.timed(Self.fast)) }
            let before = await simulator.operationCount
            let capture = lockstep.task {
                try await camera.shoot(
                    exposure: Self.fast, to: CaptureDestination(directory: folder.appendingPathComponent("images"))
                ) {
                    enter.yield()
                    for await _ in gate { break }
                    hookLog.noteReturn()
                }
            }
            for await _ in entered { break }
            // S1 down is answered while the hook is held (they run side by side) ...
            try await Self.waitUntil("S1 down is answered") { await simulator.answeredOperationCount == before + 1 }
            // ... and once both sides wait (nothing runs, nothing on the wire), and a second of their time later
            // (before the keepalive's first read), S2 down has not come.
            await lockstep.settle(simulator)
            await lockstep.pass(.seconds(1), simulator)
            #expect(await simulator.operationCount == before + 1)
            #expect(await simulator.captures.isEmpty)
            open.yield()
            let frame = try await lockstep.drive(simulator) { try await capture.value }
            #expect(frame.images.map(\.fileName) == ["DSC00001_1-250s.JPG"])
            #expect(await simulator.captures.map(\.label) == ["1/250"])
            return before
        }
        #expect(hookLog.snapshot == (returned: true, cancelled: false))
        // The usual four presses, all answered OK: S1 down, S2 down, S2 up, S1 up.
        let presses = try Self.presses(in: log, after: before)
        #expect(presses.map(\.button) == [Self.s1, Self.s2, Self.s2, Self.s1])
        #expect(presses.allSatisfy { $0.response == "0x2001" })
    }

    @Test(.realTime(timeLimit: .seconds(60)))
    func aFailingHookLetsTheHalfPressGoAndFiresNothing() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        let images = CaptureDestination(directory: folder.appendingPathComponent("images"))
        let (before, after) = try await SimulatorHarness.run(simulator: { $0.operationLogPath = log.path }) {
            camera, simulator in
            try await camera.setShutterSpeed(.timed(Self.fast))
            let before = await simulator.operationCount
            await #expect(throws: JournalFull()) {
                _ = try await camera.shoot(exposure: Self.fast, to: images) { throw JournalFull() }
            }
            #expect(await simulator.captures.isEmpty)
            #expect(await camera.isConnected)
            let after = await simulator.operationCount
            // The camera is usable at once: the next capture fires one frame.
            let frame = try await camera.shoot(exposure: Self.fast, to: images)
            #expect(frame.images.count == 1)
            #expect(await simulator.captures.count == 1)
            return (before, after)
        }
        // S1 down beside the hook, then S1 up; no S2.
        let presses = try Self.presses(in: log, after: before, through: after)
        #expect(presses.map(\.button) == [Self.s1, Self.s1])
        #expect(presses.allSatisfy { $0.response == "0x2001" })
    }

    @Test(.realTime(timeLimit: .seconds(60)))
    func aRefusedHalfPressStillWaitsForTheHookBeforeItThrows() async throws {
        let folder = try TemporaryFolder(prefix: "hdrshoot-sony").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let hookLog = HookLog()
        let finished = Flag()
        // S1 down answers busy to the camera's every attempt (3 with the test configuration).
        let simulatorSetup: (inout SimulatorConfiguration) -> Void = {
            $0.operationLogPath = log.path
            $0.faults = [.busy(operation: 0x9207, count: 3)]
        }
        // No processing margin, so the release would throw at once if it did not wait for the hook.
        let before = try await Lockstep.run(simulator: simulatorSetup, camera: { $0.processingMargin = .zero }) {
            camera, simulator, lockstep in
            let before = await simulator.operationCount
            let capture = lockstep.task { () -> (any Error)? in
                defer { finished.set() }
                do {
                    _ = try await camera.shoot(exposure: Self.fast, to: CaptureDestination(directory: folder)) {
                        for await _ in gate { break }
                        hookLog.noteReturn()
                    }
                    return nil
                } catch {
                    return error
                }
            }
            // The camera's busy retries wait on its clock: time moves until the third refusal.
            try await lockstep.drive(simulator) {
                await lockstep.wire.wait { await simulator.answeredOperationCount == before + 3 }
            }
            // Both sides wait (nothing runs, nothing on the wire) and a second of their time passes: the capture
            // still waits for the hook.
            await lockstep.settle(simulator)
            await lockstep.pass(.seconds(1), simulator)
            #expect(!finished.isSet)
            open.yield()
            let error = try #require(await lockstep.drive(simulator) { try await capture.value })
            guard case .deviceBusy? = error as? SonyCameraError else {
                Issue.record("expected deviceBusy, got \(String(describing: error))")
                return before
            }
            #expect(await simulator.captures.isEmpty)
            return before
        }
        #expect(hookLog.snapshot == (returned: true, cancelled: false))
        // Three refused S1 downs and nothing else: S1 never went down, so there is nothing to let go.
        let presses = try Self.presses(in: log, after: before)
        #expect(presses.map(\.button) == [Self.s1, Self.s1, Self.s1])
        #expect(presses.allSatisfy { $0.response == "0x2019" })
    }
}
