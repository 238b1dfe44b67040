import CameraSimulator
import Exposure
import Foundation
import Posix
import Shooting
import Synchronization
import TestSupport
import Testing

@testable import ShootKit

/// A new bracket's order in the layer (`ShootController.start`): the output folder refused when it holds another
/// shoot before anything reaches the camera, and `--auto`'s metering before the plan. Real folders with real
/// manifests, and for `--auto` the real metering against the simulated body on 127.0.0.1.
@Suite(.realTime(timeLimit: .seconds(60))) struct ShootControllerNewBracketTests {
    /// The steps the front end's closures were called for, in order.
    final class Steps: Sendable {
        private let seen = Mutex<[String]>([])
        func note(_ step: String) { seen.withLock { $0.append(step) } }
        var all: [String] { seen.withLock { $0 } }
    }

    static let given = BracketRequest(
        readings: .given(
            shadow: ParsedSpeed(speed: ShutterSpeed(numerator: 1, denominator: 40), typed: "1/40", wasSnapped: false),
            highlight: ParsedSpeed(
                speed: ShutterSpeed(numerator: 1, denominator: 640), typed: "1/640", wasSnapped: false)))
    static let metered = BracketRequest(readings: .metered)

    /// Writes the manifest of a shoot with `status` into `folder`, as a finished or stopped run leaves it; returns
    /// the shoot's id and the status its manifest says.
    static func leaveShoot(in folder: String, status: ShootJournal.Status) async throws -> (String, String) {
        try FileSystem.makeDirectories(folder, permissions: 0o755)
        var journal = ShootJournal(
            plan: BracketPlan(sets: [[ShutterSpeed(numerator: 1, denominator: 100)]]),
            camera: CameraIdentity(model: "ILCE-7RM4", address: "127.0.0.1"), outputDirectory: folder)
        journal.status = status
        let manifest = ShootManifest(journal: journal, planned: [:], actual: [:])
        #expect(try await manifest.write(to: folder) == .written)
        return (journal.id, manifest.status)
    }

    /// Starts `request` into `folder` with closures that only note their step (the metering finds nothing: it
    /// throws, so a test that reaches it says so).
    static func start(_ request: BracketRequest, into folder: String, steps: Steps) async throws -> [String] {
        struct NotMetered: Error {}
        let controller = ShootController(messages: ShootStartTests.PlainMessages())
        return try await controller.start(
            request, into: folder,
            meter: { _ in
                steps.note("meter")
                throw NotMetered()
            },
            plan: { metering in
                steps.note(metering == nil ? "plan" : "plan metered")
                return "planned"
            },
            prepare: { planned in
                steps.note("prepare \(planned)")
                return steps.all
            })
    }

    @Test(arguments: [ShootJournal.Status.complete, .stopped(.stopRequested)])
    func aGivenBracketIsPlannedThenRefusedBeforeThePreparationWhenTheFolderHoldsAShoot(
        status: ShootJournal.Status
    ) async throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let folder = temporary.url.appendingPathComponent("shoot").path
        let (id, said) = try await Self.leaveShoot(in: folder, status: status)
        let steps = Steps()
        await #expect(throws: OutputFolderError.holdsAnotherShoot(path: folder, occupant: .shoot(id: id, status: said)))
        {
            _ = try await Self.start(Self.given, into: folder, steps: steps)
        }
        // The photographer's readings are planned first (their refusals come first); nothing is prepared.
        #expect(steps.all == ["plan"])
    }

    @Test func aMeteredBracketIsRefusedBeforeAnythingFiresWhenTheFolderHoldsAShoot() async throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let folder = temporary.url.appendingPathComponent("shoot").path
        let (id, said) = try await Self.leaveShoot(in: folder, status: .complete)
        #expect(said == "complete")
        let steps = Steps()
        await #expect(throws: OutputFolderError.holdsAnotherShoot(path: folder, occupant: .shoot(id: id, status: said)))
        {
            _ = try await Self.start(Self.metered, into: folder, steps: steps)
        }
        #expect(steps.all.isEmpty, "no probe fired into a folder that is not free")
        #expect(!FileSystem.exists(folder + "/probes"))
    }

    @Test func aManifestThatIsNotHdrshootsKeepsTheFolderToo() async throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let folder = temporary.url.path
        try FileSystem.replace(folder + "/" + ShootManifest.fileName, with: Array("not json".utf8))
        let steps = Steps()
        await #expect(throws: OutputFolderError.holdsAnotherShoot(path: folder, occupant: .unreadable)) {
            _ = try await Self.start(Self.given, into: folder, steps: steps)
        }
    }

    @Test func aFreeFolderGetsTheGivenPlanPreparedAndNothingMetered() async throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let steps = Steps()
        // A folder that does not exist yet is free, and so is one without a manifest.
        for folder in [temporary.url.appendingPathComponent("new").path, temporary.url.path] {
            #expect(
                try await Self.start(Self.given, into: folder, steps: steps).suffix(2) == ["plan", "prepare planned"])
        }
        #expect(!steps.all.contains("meter"))
    }

    @Test func autoMetersTheSimulatedBodyIntoTheFolderThenPlansFromWhatItFound() async throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let folder = temporary.url.appendingPathComponent("auto").path
        let steps = Steps()
        let controller = ShootController(messages: ShootStartTests.PlainMessages())
        var simulator = SimulatorConfiguration.loopback()
        simulator.scene = .sunset
        let (found, planned) = try await CameraSimulator.withRunning(configuration: simulator) { body in
            let target = CameraTarget.address(CameraAddress(host: "127.0.0.1", port: body.port))
            return try await controller.start(
                Self.metered, into: folder,
                meter: { folder in
                    steps.note("meter")
                    return try await AutoMetering.measure(
                        with: target, reach: CameraTargetTests.QuietReach(), scene: nil, folder: folder,
                        progress: { _ in }, say: { _ in })
                },
                plan: { metering in
                    steps.note("plan")
                    return try #require(metering)
                },
                prepare: { metering in
                    steps.note("prepare")
                    return (metering, await body.framesFired)
                })
        }
        #expect(steps.all == ["meter", "plan", "prepare"])
        // The plan was given what the probes found, and the probes are real exposures in the folder's probes/.
        #expect(!found.result.probes.isEmpty && found.result.probes.count <= 8)
        #expect(planned == found.result.probes.count)
        #expect(found.files.allSatisfy { $0.hasPrefix(folder + "/probes/") && FileSystem.exists($0) })
        #expect(found.readings.highlight <= found.readings.shadow)
    }

    @Test func theRefusalsSayWhichShootHoldsTheFolderAndWhatToDo() {
        let finished = OutputFolderError.holdsAnotherShoot(
            path: "/out", occupant: .shoot(id: "20261122-000000-abcd", status: "complete"))
        #expect(
            finished.sentence
                == "the folder /out already holds the finished shoot 20261122-000000-abcd; pass --output with a new folder"
        )
        let unfinished = OutputFolderError.holdsAnotherShoot(
            path: "/out", occupant: .shoot(id: "20261122-000000-abcd", status: "stopped"))
        #expect(
            unfinished.sentence
                == "the folder /out already holds the unfinished shoot 20261122-000000-abcd; pass --output with a new "
                + "folder, or continue that shoot with `hdrshoot resume --id 20261122-000000-abcd`")
        #expect(
            OutputFolderError.holdsAnotherShoot(path: "/out", occupant: .unreadable).sentence
                == "the folder /out already holds a manifest.json that is not one of hdrshoot's; pass --output with a "
                + "new folder")
    }
}
