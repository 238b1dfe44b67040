import Exposure
import Foundation
import Shooting
import SonyCamera
import Synchronization
import TestSupport

/// The world's disk: it keeps what the process made durable and loses what it did not when the world crashes.
///
/// An image file is durable once the process awaited its fsyncs (`makeDurable`, a `move` into its set folder, a
/// file left behind that resume adopted); the journal is written atomically and fsynced by `JournalStore` and is
/// always kept. At a crash every other file of the shoot loses what was not synced: it is gone (its name never
/// reached the folder's durable state) or cut short, as the seed draws. A whole image lost that way is an image
/// lost for good (the body let it go once its last byte was sent), so its frame may be fired again.
final class SimulatedDisk: Sendable {
    private struct State {
        var durable: Set<String> = []
        var random: SeededRandom
        var lostImages = 0
    }

    private let state: Mutex<State>

    init(random: SeededRandom) {
        state = Mutex(State(random: random))
    }

    /// Whole images the crashes lost (each allows its frame one more release).
    var lostImages: Int { state.withLock { $0.lostImages } }

    func markDurable(_ paths: [String]) {
        state.withLock { $0.durable.formUnion(paths) }
    }

    /// A crash: every file under `folder` the process did not make durable loses its unsynced bytes. Returns a
    /// line per file for the timeline.
    func crash(folder: URL, wholeImageSize: Int) -> [String] {
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var lines: [String] = []
        // By path, not in the directory's order: the seed's draws fall on the same files on every run.
        for url in files.compactMap({ $0 as? URL }).sorted(by: { $0.path < $1.path }) {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            let (durable, deleted, keep) = state.withLock { state -> (Bool, Bool, Int) in
                if state.durable.contains(path) { return (true, false, size) }
                let deleted = state.random.chance(0.5)
                let keep = size == 0 ? 0 : Int(state.random.next() % UInt64(size))
                if size == wholeImageSize, !url.lastPathComponent.contains("-partial") { state.lostImages += 1 }
                return (false, deleted, keep)
            }
            if durable { continue }
            let name = String(path.dropFirst(folder.path.count))
            if deleted {
                try? FileManager.default.removeItem(atPath: path)
                lines.append("disk: \(name) (\(size) B, not synced) is gone")
            } else {
                truncate(path, off_t(keep))
                lines.append("disk: \(name) (\(size) B, not synced) keeps \(keep) B")
            }
        }
        return lines
    }
}

/// The runner's camera in the world: the real `SonyCamera`, with the simulated disk told which files the process
/// made durable (nothing once the process is killed).
struct DiskCamera: RemoteCamera {
    let inner: SonyCamera
    let disk: SimulatedDisk
    let gate: ProcessGate
    /// The deliberate break the world tries (`SimulationWorld.breakage`).
    var breakage: SimulationWorld.DeliberateBreak?

    private func durable(_ paths: [String]) {
        if !gate.isKilled { disk.markDurable(paths) }
    }

    var identity: CameraIdentity { get async { await inner.identity } }
    var isConnected: Bool { get async { await inner.isConnected } }
    func connect() async throws { try await inner.connect() }
    func disconnect() async { await inner.disconnect() }
    func shootingMode() async throws -> ShootingMode { try await inner.shootingMode() }
    func rememberedBufferCapacity() async -> Int? { await inner.rememberedBufferCapacity() }
    func rememberBufferCapacity(_ capacity: Int) async { await inner.rememberBufferCapacity(capacity) }
    func availableShutterSpeeds() async throws -> [CameraShutterSpeed] { try await inner.availableShutterSpeeds() }
    func currentShutterSpeed() async throws -> CameraShutterSpeed { try await inner.currentShutterSpeed() }
    func setShutterSpeed(_ speed: CameraShutterSpeed) async throws { try await inner.setShutterSpeed(speed) }
    func release(exposure: ShutterSpeed, beforeRelease: @Sendable () async throws -> Void) async throws -> Release {
        try await inner.release(exposure: exposure, beforeRelease: beforeRelease)
    }
    func nextImage(to destination: CaptureDestination, waitingAtMost: Duration) async throws -> SavedImage? {
        try await inner.nextImage(to: destination, waitingAtMost: waitingAtMost)
    }
    func move(_ image: SavedImage, toFolder folder: URL, name: String) async throws -> SavedImage {
        // SonyCamera awaits the file's fsyncs, then moves it durably.
        let moved = try await inner.move(image, toFolder: folder, name: name)
        durable([moved.path])
        return moved
    }
    func transferSettings() async -> TransferSettings { await inner.transferSettings() }
    func makeDurable(_ frame: CapturedFrame) async throws {
        // The deliberate break `save-before-fsync`: the frame is recorded saved without its fsyncs awaited.
        if breakage == .saveBeforeFsync { return }
        try await inner.makeDurable(frame)
        durable((frame.images + frame.recoveredImages + frame.unmatchedImages).map(\.path))
    }
    func filesLeftBehind(in destination: CaptureDestination, known: Set<String>) async throws -> [SavedImage] {
        // Each adopted file is made durable again before it is returned.
        let files = try await inner.filesLeftBehind(in: destination, known: known)
        durable(files.map(\.path))
        return files
    }
    func mediaStatus() async -> MediaStatus {
        var status = await inner.mediaStatus()
        // The deliberate break `full-card-unread`: the card's shots left never reach the runner.
        if breakage == .fullCardUnread { status.remainingShots = nil }
        return status
    }
    func takeNotes() async -> [String] { await inner.takeNotes() }
    func statusUpdates() async -> AsyncStream<CameraStatus> { await inner.statusUpdates() }
}
