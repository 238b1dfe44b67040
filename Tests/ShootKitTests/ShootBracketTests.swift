import CameraSimulator
import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import Shooting
import SonyCamera
import TestSupport
import Testing

@testable import ShootKit

/// A whole bracket through the controller in-process: a real `SonyCamera` against the simulated body over
/// loopback, a real journal store and output folder; the range check reads the images the body rendered.
@Suite(.realTime) struct ShootBracketTests {
    /// Every manifest call, in order (the CLI's keeper writes the file; the controller only has to call it).
    actor ManifestLog: ShootManifestKeeping {
        var saved: [ShootPosition] = []
        var reopened = 0
        var writes = 0
        var checks: [RangeWatch.Record] = []

        func saved(_ progress: FrameProgress) { saved.append(progress.position) }
        func noteRange(frames: [ShootPosition: RangeWatch.FrameRecord], checks: [RangeWatch.Record]) {
            self.checks = checks
        }
        func reopen() { reopened += 1 }
        func write(_ journal: ShootJournal) { writes += 1 }
    }

    struct PlainMessages: ShootMessages {
        func message(for error: any Error) -> String { "\(error)" }
        func connectFailure(_ error: any Error) -> String { "no answer" }
    }

    /// `--shadow 1/40 --highlight 1/640 --frames 5 --ev 1` on the sunset: a stop short at both ends.
    static let speeds = [640, 320, 160, 80, 40].map { ShutterSpeed(numerator: 1, denominator: $0) }

    @Test func extendShootsTheMissingFramesAsAnotherRunOfTheSameShoot() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var simulator = SimulatorConfiguration.loopback()
        simulator.scene = .sunset
        let output = folder.url.appendingPathComponent("shoot")
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        let journal = ShootJournal(
            plan: BracketPlan(sets: [Self.speeds]), camera: CameraIdentity(model: "ILCE-7RM4", address: "127.0.0.1"),
            outputDirectory: output.path,
            recipe: ShootRecipe(
                shadow: "1/40", highlight: "1/640", frames: 5, spacing: "1", scale: "third",
                order: BracketOrder.fastFirst.rawValue, dedupe: false, linkShared: false))
        try await store.create(journal)
        let manifest = ManifestLog()
        let controller = ShootController(messages: PlainMessages())
        // Subscribed before the shoot starts, so the watcher hears every update, not a snapshot of those it missed.
        let subscription = controller.updates()
        let watcher = Task {
            var seen: [ShootUpdate] = []
            for await update in subscription { seen.append(update) }
            return seen
        }
        let (result, final) = try await CameraSimulator.withRunning(configuration: simulator) { body in
            let camera = SonyCamera(
                configuration: SonyCameraConfiguration(
                    host: "127.0.0.1", port: body.port,
                    identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests")))
            try await camera.connect()
            let shoot = BracketShoot(
                camera: camera, journal: journal, store: store, start: .start, restartingSet: false, check: .extend,
                offered: nil, longest: nil, configuration: BracketRunner.Configuration(outputDirectory: output))
            let outcome = await controller.shootBracket(shoot, manifest: manifest)
            await camera.disconnect()
            return outcome
        }
        await controller.finish(result)
        let updates = await watcher.value

        #expect(result.isComplete, "\(String(describing: result.stopReason))")
        #expect(final.plan.sets.count >= 2, "the extension is a set of the same journal")
        #expect((final.recipe?.extensions ?? 0) >= 1)
        #expect(final.savedCount == final.plan.totalExposures)
        let plans = updates.compactMap { update -> ShootUpdate.Plan? in
            if case .plan(let plan) = update { return plan }
            return nil
        }
        #expect(plans.count == final.plan.sets.count, "one plan update per run")
        #expect(plans.first?.speeds == [Self.speeds.map(\.label)])
        let notes = updates.compactMap { update -> String? in
            if case .note(let note) = update { return note.message }
            return nil
        }
        #expect(notes.contains { $0.hasPrefix("--check extend: adding ") }, "\(notes)")
        let brackets = updates.compactMap { update -> Bool? in
            if case .rangeCheck(let check) = update, check.scope == "bracket" { return check.holds }
            return nil
        }
        #expect(brackets.first == false && brackets.count >= 2)
        // Each run ends with its download phase: every frame fired, then the images still in the camera.
        let fired = updates.filter { if case .allFired = $0 { true } else { false } }
        #expect(fired.count == plans.count)
        // The manifest heard of every saved frame, and was reopened once per extension.
        #expect(await manifest.saved.count == final.plan.totalExposures)
        #expect(await manifest.reopened == final.recipe?.extensions)
        #expect(await manifest.checks.last?.scope == "bracket")
        #expect(controller.snapshot.finished?.complete == true)
    }
}
