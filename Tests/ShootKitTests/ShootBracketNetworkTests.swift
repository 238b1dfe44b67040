import Exposure
import Foundation
import Glibc
import NetworkMonitor
import Shooting
import Synchronization
import TestSupport
import Testing

@testable import ShootKit

/// The network pause through the controller, in-process on the test clock: scripted monitor events (with the
/// snapshot the monitor would hold) into the watch that guards each run, the in-memory camera holding frame 2's
/// shutter open while the host leaves the camera's Wi-Fi.
@Suite(.timeLimit(.minutes(1))) struct ShootBracketNetworkTests {
    static let camera = SSID("DIRECT-xxxx:ILCE-7M3")!

    /// What the monitor holds now (the test changes it before each event it reports).
    final class Current: Sendable {
        let snapshot = Mutex(ShootBracketNetworkTests.wifi(.connected(ssid: ShootBracketNetworkTests.camera)))
    }

    static func wifi(_ wireless: WirelessStatus, usable: Bool = true) -> NetworkSnapshot {
        NetworkSnapshot(
            interfaceName: "wlan0", interfaceIndex: 3, isUsable: usable,
            addresses: [IPAddress("192.168.122.10")!], wireless: wireless)
    }

    @Test func leavingTheCamerasWiFiHoldsTheNextFrameUntilTheHostIsBack() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var script = InMemoryCamera.Script()
        script.heldShots = [2]
        let camera = InMemoryCamera(script: script)
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        let plan = BracketPlan(sets: [[1000, 500, 250, 125].map { ShutterSpeed(numerator: 1, denominator: $0) }])
        let journal = ShootJournal(
            plan: plan, camera: CameraIdentity(model: "ILCE-7M3", address: "192.168.122.1:15740"),
            outputDirectory: folder.url.appendingPathComponent("out").path)
        try await store.create(journal)
        let controller = ShootController(messages: ShootControllerTests.PlainMessages())
        let current = Current()
        let (events, sink) = AsyncThrowingStream.makeStream(of: NetworkEvent.self)
        let shoot = BracketShoot(
            camera: camera, journal: journal, store: store, start: .start, restartingSet: false, check: .off,
            offered: nil, longest: nil,
            configuration: BracketRunner.Configuration(outputDirectory: folder.url.appendingPathComponent("out")),
            clock: TestClock())
        let watcher = controller.updates()
        let run = Task {
            await controller.shootBracket(
                shoot, manifest: ShootBracketTests.ManifestLog(),
                guardRun: { runner, body in
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            await NetworkWatch.follow(
                                events, snapshot: { current.snapshot.withLock { $0 } }, cameraSSID: Self.camera,
                                family: UInt8(AF_INET), into: runner, note: controller.note, failed: { _ in })
                        }
                        let result = await body()
                        sink.finish()
                        await group.waitForAll()
                        return result
                    }
                })
        }
        var seen: [ShootUpdate] = []
        for await update in watcher {
            seen.append(update)
            switch update {
            case .progress(let progress) where progress.frame == 2 && progress.phase == "capturing":
                // The host drops off the camera's Wi-Fi while frame 2's shutter is open.
                current.snapshot.withLock { $0 = Self.wifi(.disconnected, usable: false) }
                sink.yield(.disconnected(reason: 3))
            case .paused(let hold) where hold.reason == "network":
                #expect(controller.snapshot.holds.map(\.reason) == ["network"])
                camera.releaseCapture()
            case .progress(let progress) where progress.frame == 2 && progress.phase == "inCamera":
                // Frame 2 finished under the hold; the host rejoins.
                current.snapshot.withLock { $0 = Self.wifi(.connected(ssid: Self.camera)) }
                sink.yield(.connected(ssid: Self.camera))
            default:
                break
            }
            if case .finished = update { break }
        }
        let (result, final) = await run.value
        #expect(result.isComplete)
        #expect(final.savedCount == 4)
        let paused = try #require(
            seen.firstIndex { if case .paused(let hold) = $0 { hold.reason == "network" } else { false } })
        let resumed = try #require(
            seen.firstIndex { if case .resumed(let hold) = $0 { hold.reason == "network" } else { false } })
        let third = try #require(
            seen.firstIndex { if case .progress(let progress) = $0 { progress.frame == 3 } else { false } })
        // No frame started while the host was off the camera's network.
        #expect(paused < resumed && resumed < third)
        guard case .paused(let hold) = seen[paused] else { return }
        #expect(hold.detail?.hasPrefix("Paused: ") == true, "\(hold.detail ?? "")")
    }
}
