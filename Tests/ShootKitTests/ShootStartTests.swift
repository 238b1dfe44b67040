import CameraSimulator
import Exposure
import Foundation
import ImageLuminance
import PTPIP
import PTPIPCodec
import Posix
import Shooting
import SonyCamera
import TestSupport
import Testing

@testable import ShootKit

/// Every way a shoot starts (`NewBracketStart`, `ResumedBracketStart`, `NewSeriesStart`, `ResumedSeriesStart`)
/// driven through the controller in-process, from connecting to finished: a real `SonyCamera` against the
/// simulated body over loopback, a real journal store and output folder. The front end only answers: confirm
/// shoots to the end, decline leaves nothing recorded.
@Suite(.realTime(timeLimit: .seconds(60))) struct ShootStartTests {
    struct PlainMessages: ShootMessages {
        func message(for error: any Error) -> String { "\(error)" }
        func connectFailure(_ error: any Error) -> String { "no answer" }
    }

    /// The speeds of the 3-frame bracket 1/640 ... 1/40 (two stops apart).
    static let speeds = [640, 160, 40].map { ShutterSpeed(numerator: 1, denominator: $0) }

    /// Makes the folder as a front end would (the CLI says what is wrong with a path it cannot make).
    static let makeFolder: OutputFolderMaker = { path in
        try FileSystem.makeDirectories(path, permissions: 0o755)
    }

    /// Runs `body` with a camera (not connected: the controller connects it) on a simulated body.
    static func withBody<T: Sendable>(
        scene: Scene.Name? = nil, _ body: (SonyCamera) async throws -> T
    ) async throws -> T {
        var configuration = SimulatorConfiguration.loopback()
        if let scene { configuration.scene = scene }
        return try await CameraSimulator.withRunning(configuration: configuration) { simulator in
            let camera = SonyCamera(
                configuration: SonyCameraConfiguration(
                    host: "127.0.0.1", port: simulator.port,
                    identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests")))
            return try await body(camera)
        }
    }

    /// Shoots a recorded bracket through `controller` to its end, as a front end does after the journal step.
    static func shootBracket(
        _ prepared: PreparedBracket, controller: ShootController, check: RangeCheckMode = .off
    ) async throws -> ShootResult {
        let settings = BracketSettings(transfer: .all, check: check, bufferLimit: 5) { folder, buffer, downloads in
            var configuration = BracketRunner.Configuration(outputDirectory: folder)
            configuration.bufferLimit = buffer
            configuration.downloads = downloads
            return configuration
        }
        return try await controller.shootToEnd(prepared, settings: settings, network: nil, warn: { _ in })
    }

    /// Prepares `start` on a simulated body, answering its proposal with `agree`, and shoots what is recorded.
    static func run<Start: ShootStart, Outcome: Sendable>(
        _ start: Start, controller: ShootController, agree: Bool, scene: Scene.Name? = nil,
        shoot: @escaping (Start.Recorded) async throws -> Outcome
    ) async throws -> Outcome {
        await controller.connecting()
        return try await withBody(scene: scene) { camera in
            try await controller.prepare(
                start, camera: camera, address: "127.0.0.1", progress: { _ in },
                ask: { proposal in
                    guard proposal != nil else {
                        // Nothing proposed (a series): the front end's own no refuses.
                        guard agree else { throw ShootPreparationError.declined }
                        return
                    }
                    #expect(controller.snapshot.state == .proposed)
                    await controller.send(agree ? .confirm : .decline)
                },
                shoot: shoot)
        }
    }

    /// What `body` returns when the answer was yes; when it was no, that `body` threw the declined error (nil).
    static func answered<T>(_ agree: Bool, _ body: () async throws -> T) async throws -> T? {
        do {
            let outcome = try await body()
            #expect(agree, "a declined start shot nothing")
            return outcome
        } catch ShootPreparationError.declined {
            #expect(!agree, "an agreed start was not declined")
            return nil
        }
    }

    /// `--frames 3 --ev 2` from 1/640 to 1/40 into `output`.
    static func newBracket(output: String, store: JournalStore) throws -> NewBracketStart {
        NewBracketStart(
            planner: try BracketPlanner(frames: 3, spacing: EVAmount(stops: 2)), shadow: speeds[2],
            highlight: speeds[0], longest: ShutterSpeed.longestTimed, overhead: 0.5, notes: [], metering: nil,
            outputDirectory: output, linkShared: false, store: store, makeFolder: makeFolder)
    }

    @Test(arguments: [true, false])
    func aNewBracketIsProposedThenShotToTheEndOrLeavesNothingWhenDeclined(agree: Bool) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("shoot").path
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        let controller = ShootController(messages: PlainMessages())
        let start = try Self.newBracket(output: output, store: store)
        let outcome = try await Self.answered(agree) {
            try await Self.run(start, controller: controller, agree: agree) { prepared in
                #expect(prepared.journal.plan.sets == [Self.speeds])
                #expect(prepared.journal.recipe?.frames == 3)
                return try await Self.shootBracket(prepared, controller: controller)
            }
        }
        #expect(controller.snapshot.summary?.exposures == 3)
        #expect(controller.snapshot.summary?.speeds == [Self.speeds.map(\.label)])
        if agree {
            #expect(outcome?.isComplete == true)
            #expect(controller.snapshot.state == .finished)
            #expect(controller.snapshot.finished?.complete == true)
            let journal = try await store.latest()
            #expect(journal?.savedCount == 3 && journal?.isUnfinished == false)
            let names = try FileSystem.contentsOfDirectory(output + "/set-01")
            #expect(names.filter { $0.hasSuffix(".JPG") }.count == 3, "\(names)")
        } else {
            // Declined: no journal, and no output folder was made.
            #expect(try await store.latest() == nil)
            #expect(!FileSystem.exists(output))
        }
    }

    @Test func aBracketTheBodyCannotShootIsRefusedWithItsBlockerBeforeTheQuestion() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        var start = try Self.newBracket(output: folder.url.appendingPathComponent("shoot").path, store: store)
        // A shadow reading past `--longest`: the plan cannot be matched at all, the planner's sentence its blocker.
        start.planner = try BracketPlanner(
            frames: 3, spacing: EVAmount(stops: 2), longest: ShutterSpeed(numerator: 1, denominator: 1))
        start.shadow = ShutterSpeed.longestTimed
        let controller = ShootController(messages: PlainMessages())
        await #expect(throws: ShootPreparationError.self) {
            try await Self.run(start, controller: controller, agree: true) { _ in
                Issue.record("a refused start recorded nothing to shoot")
            }
        }
        #expect(try await store.latest() == nil)
    }

    @Test(arguments: [true, false])
    func aResumedBracketShootsWhatRemainsOrLeavesTheJournalAsItWas(agree: Bool) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("shoot").path
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        let journal = ShootJournal(
            plan: BracketPlan(sets: [Self.speeds]), camera: CameraIdentity(model: "ILCE-7RM4", address: "127.0.0.1"),
            outputDirectory: output)
        try await store.create(journal)
        let lock = try await store.lock(id: journal.id)
        defer { withExtendedLifetime(lock) {} }
        let start = ResumedBracketStart(
            journal: journal, resumePosition: .start, restartingSet: false, followsCamera: true, store: store)
        let controller = ShootController(messages: PlainMessages())
        let outcome = try await Self.answered(agree) {
            try await Self.run(start, controller: controller, agree: agree) { prepared in
                #expect(prepared.start == .start)
                return try await Self.shootBracket(prepared, controller: controller)
            }
        }
        #expect(controller.snapshot.summary?.shoot == journal.id)
        #expect(controller.snapshot.summary?.start == ShootUpdate.Position(.start))
        let after = try await store.load(id: journal.id)
        if agree {
            #expect(outcome?.isComplete == true)
            #expect(after.savedCount == 3 && !after.isUnfinished)
            #expect(controller.snapshot.finished?.complete == true)
        } else {
            // A declined resume leaves the journal as it was: not written again, nothing shot.
            #expect(after.revision == journal.revision && after.frames == journal.frames)
            #expect(after.status == .inProgress)
        }
    }

    /// Shoots a recorded series through `controller` on a test clock (one repetition: nothing to wait for).
    static func shootSeries(_ launch: SeriesLaunch, controller: ShootController) async -> SeriesResult {
        guard let record = launch.journal.series else { preconditionFailure("a series journal") }
        let shoot = SeriesShoot(
            launch,
            configuration: BracketRunner.Configuration(outputDirectory: URL(fileURLWithPath: record.rootDirectory)),
            clocks: SeriesClocks(wallClock: .fixed(ShootSeriesTests.firstStart), clock: TestClock()))
        return await controller.shootSeriesToEnd(shoot).0
    }

    @Test(arguments: [true, false])
    func aNewSeriesIsRecordedFromTheYesAndShotOrLeavesNothingWhenDeclined(agree: Bool) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.url.appendingPathComponent("series").path
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        // Built as a front end builds it: from the `.series` request and the planner (frames and spacing in it).
        let reading = { (speed: ShutterSpeed) in ParsedSpeed(speed: speed, typed: speed.label, wasSnapped: false) }
        let request = ShootRequest.series(
            BracketRequest(readings: .given(shadow: reading(Self.speeds[2]), highlight: reading(Self.speeds[0]))),
            schedule: SeriesRequest(every: .seconds(60), end: .count(1)))
        guard case .series(let bracket, let schedule) = request else { preconditionFailure("a series request") }
        let start = NewSeriesStart(
            bracket, schedule: schedule,
            planner: try BracketPlanner(frames: 3, spacing: EVAmount(sixths: 12), scale: .third, order: .fastFirst),
            longest: nil, root: root, overhead: 0.5, warnings: [], wallClock: .fixed(ShootSeriesTests.firstStart),
            store: store, makeFolder: Self.makeFolder)
        #expect(
            start.base
                == SeriesRecord.Base(
                    shadow: Self.speeds[2], highlight: Self.speeds[0], frames: 3, spacing: EVAmount(sixths: 12),
                    scale: .third, dedupe: false, order: .fastFirst))
        #expect(start.settings == SeriesRequest(every: .seconds(60), end: .count(1)) && start.longest == nil)
        let controller = ShootController(messages: PlainMessages())
        let outcome = try await Self.answered(agree) {
            try await Self.run(start, controller: controller, agree: agree) { launch in
                #expect(launch.start.number == 1)
                #expect(launch.journal.series?.firstStart == ShootSeriesTests.firstStart)
                return await Self.shootSeries(launch, controller: controller)
            }
        }
        if agree {
            #expect(outcome?.isComplete == true)
            let journal = try await store.latest()
            #expect(journal?.series?.repetitions.map(\.state) == [.done])
            #expect(controller.snapshot.state == .finished)
            #expect(controller.snapshot.repetitionsDone == 1)
        } else {
            #expect(try await store.latest() == nil)
            #expect(!FileSystem.exists(root))
        }
    }

    @Test(arguments: [true, false])
    func aResumedSeriesIsShotFromTheControllersResumePointOrLeftAsItWas(agree: Bool) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.url.appendingPathComponent("series")
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        let journal = try await ShootSeriesTests.newSeries(count: 1, root: root, store: store)
        let controller = ShootController(messages: PlainMessages())
        let decision = await controller.resumePoint(
            of: journal, now: .zero, restartSet: false, skipMissed: false, mayAsk: false)
        guard case .resume(let point) = decision else {
            Issue.record("not resumed: \(decision)")
            return
        }
        let start = ResumedSeriesStart(resumption: point, followsCamera: false, store: store)
        let result = try await Self.answered(agree) {
            try await Self.run(start, controller: controller, agree: agree) { launch in
                #expect(launch.start.number == 1)
                return await Self.shootSeries(launch, controller: controller)
            }
        }
        let after = try await store.load(id: journal.id)
        if agree {
            #expect(result?.isComplete == true)
            #expect(after.series?.repetitions.map(\.state) == [.done])
            #expect(controller.snapshot.state == .finished)
        } else {
            #expect(after.revision == journal.revision && after.isUnfinished)
        }
    }

    @Test func anAutoStartIsMeteredThenProposedWithItsReadingsAndItsProbesKept() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("shoot").path
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        let outcome = try await AutoMeteringTests.meterTheSimulatedSunset(
            probes: URL(fileURLWithPath: output + "/probes"))
        var start = try Self.newBracket(output: output, store: store)
        (start.highlight, start.shadow) = outcome.readings
        start.metering = outcome
        let controller = ShootController(messages: PlainMessages())
        let result = try await Self.run(start, controller: controller, agree: true) { prepared in
            #expect(prepared.probes.count == outcome.result.probes.count)
            #expect(prepared.probes.allSatisfy { $0.file.hasPrefix("probes/") })
            return try await Self.shootBracket(prepared, controller: controller)
        }
        #expect(result.isComplete)
        let auto = controller.snapshot.summary?.auto
        #expect(auto?.highlight == outcome.result.highlight.label)
        #expect(auto?.shadow == outcome.result.shadow.label)
        #expect(auto?.probes == outcome.result.probes.count)
    }

    @Test func checkExtendShootsTheMissingFramesAsPartOfTheSameStartedShoot() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("shoot").path
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        // `--shadow 1/40 --highlight 1/640 --frames 5 --ev 1 --check extend` on the sunset: a stop short at both
        // ends, so the range check adds a set.
        var start = try Self.newBracket(output: output, store: store)
        start.planner = try BracketPlanner(frames: 5, spacing: EVAmount(stops: 1))
        let controller = ShootController(messages: PlainMessages())
        let result = try await Self.run(start, controller: controller, agree: true, scene: .sunset) { prepared in
            try await Self.shootBracket(prepared, controller: controller, check: .extend)
        }
        #expect(result.isComplete, "\(String(describing: result.stopReason))")
        let journal = try await store.latest()
        #expect((journal?.plan.sets.count ?? 0) >= 2, "the extension is a set of the same journal")
        #expect((journal?.recipe?.extensions ?? 0) >= 1)
        #expect(journal?.savedCount == journal?.plan.totalExposures)
        #expect(controller.snapshot.finished?.complete == true)
    }
}
