import CameraSimulator
import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import SonyCamera
import Synchronization
import TestSupport
import Testing

@testable import ShootKit
@testable import Shooting

/// A handed-over bracket through the controller's `prepare`, `shoot` and `conclude` in-process, as `run`, `resume`
/// and serve's shoots go through them: a real `SonyCamera` against the simulated body over loopback, a real journal
/// store, the real manifest keeper writing `manifest.json`.
@Suite(.realTime) struct PreparedBracketTests {
    struct PlainMessages: ShootMessages {
        func message(for error: any Error) -> String { "\(error)" }
        func connectFailure(_ error: any Error) -> String { "no answer" }
    }

    static let speeds = [1000, 250, 60].map { ShutterSpeed(numerator: 1, denominator: $0) }

    /// A new journal of one three-frame set in `folder`, already in its store.
    static func journal(in folder: TemporaryFolder) async throws -> (ShootJournal, JournalStore) {
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        let journal = ShootJournal(
            plan: BracketPlan(sets: [speeds]), camera: CameraIdentity(model: "ILCE-7RM4", address: "127.0.0.1"),
            outputDirectory: folder.url.appendingPathComponent("shoot").path,
            recipe: ShootRecipe(
                shadow: "1/60", highlight: "1/1000", frames: 3, spacing: "2", scale: "third",
                order: BracketOrder.fastFirst.rawValue, dedupe: false, linkShared: false))
        try await store.create(journal)
        return (journal, store)
    }

    static func settings(transfer: TransferChoice = .all) -> BracketSettings {
        BracketSettings(transfer: transfer, check: .off, bufferLimit: 4) { output, buffer, downloads in
            BracketRunner.Configuration(outputDirectory: output, bufferLimit: buffer, downloads: downloads)
        }
    }

    static func camera(port: UInt16) -> SonyCamera {
        SonyCamera(
            configuration: SonyCameraConfiguration(
                host: "127.0.0.1", port: port,
                identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests")))
    }

    @Test func aPreparedBracketIsShotWrittenToItsManifestAndFinished() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (journal, store) = try await Self.journal(in: folder)
        let controller = ShootController(messages: PlainMessages())
        let warnings = Warnings()
        let (result, final) = try await CameraSimulator.withRunning(configuration: .loopback()) { body in
            let camera = Self.camera(port: body.port)
            try await camera.connect()
            let prepared = PreparedBracket(
                camera: camera, journal: journal, store: store, start: .start, restartingSet: false, planned: [:],
                actual: [:], overhead: 0.1)
            let execution = try await controller.prepare(
                prepared, settings: Self.settings(), network: nil, warn: warnings.add)
            #expect(execution.transferNote == nil && execution.shoot.configuration.downloads)
            #expect(execution.shoot.configuration.bufferLimit <= 4)
            let (result, final) = await controller.shoot(execution, warn: warnings.add)
            await controller.conclude(execution, result: result, journal: final)
            return (result, final)
        }
        #expect(result.isComplete, "\(String(describing: result.stopReason))")
        #expect(final.savedCount == 3)
        // The manifest on disk lists every saved frame, and the controller ended in `finished`.
        let manifest = try #require(await ShootManifest.load(from: journal.outputDirectory))
        #expect(manifest.frames.count == 3 && manifest.saved == 3)
        #expect(controller.snapshot.finished?.complete == true)
        #expect(warnings.all.isEmpty, "\(warnings.all)")
    }

    @Test func aBracketStoppedBeforeItsFirstFrameTakesAwayTheFolderItMade() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (journal, store) = try await Self.journal(in: folder)
        try FileManager.default.createDirectory(atPath: journal.outputDirectory, withIntermediateDirectories: true)
        let controller = ShootController(messages: PlainMessages())
        let result = try await CameraSimulator.withRunning(configuration: .loopback()) { body in
            let camera = Self.camera(port: body.port)
            try await camera.connect()
            var prepared = PreparedBracket(
                camera: camera, journal: journal, store: store, start: .start, restartingSet: false, planned: [:],
                actual: [:], overhead: 0.1)
            prepared.removesUnusedOutput = true
            let execution = try await controller.prepare(
                prepared, settings: Self.settings(), network: nil, warn: { _ in })
            // Nothing fired: the run is concluded as a stop before the first frame.
            let stopped = ShootResult(
                saved: 0, total: 3, savedThisRun: 0, resumePosition: .start, stopReason: .stopRequested)
            await controller.conclude(execution, result: stopped, journal: journal)
            return stopped
        }
        #expect(!result.isComplete)
        #expect(!FileManager.default.fileExists(atPath: journal.outputDirectory), "the folder it made is gone")
        #expect(controller.snapshot.finished?.complete == false)
    }
}

/// Warnings said during a shoot.
final class Warnings: Sendable {
    private let said = Mutex<[String]>([])
    /// Adds one.
    @Sendable func add(_ text: String) { said.withLock { $0.append(text) } }
    /// All so far.
    var all: [String] { said.withLock { $0 } }
}
