import CameraSimulator
import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import Posix
import Shooting
import SonyCamera
import TestSupport
import Testing

@testable import ShootKit

/// A series through the controller in-process: a real `SonyCamera` against the simulated body over loopback, a
/// real journal store and output folders; the schedule waits on a `TestClock`, moved on when the series waits.
@Suite(.realTime(timeLimit: .seconds(60))) struct ShootSeriesTests {
    struct PlainMessages: ShootMessages {
        func message(for error: any Error) -> String { "\(error)" }
        func connectFailure(_ error: any Error) -> String { "no answer" }
    }

    static let firstStart = Date(timeIntervalSince1970: 1_800_000_000)

    /// A new series journal of `count` repetitions every 60 s (3 frames each: 1/640, 1/160, 1/40), in the store.
    static func newSeries(count: Int, root: URL, store: JournalStore) async throws -> ShootJournal {
        let base = SeriesRecord.Base(
            shadow: ShutterSpeed(numerator: 1, denominator: 40),
            highlight: ShutterSpeed(numerator: 1, denominator: 640),
            frames: 3, spacing: EVAmount(sixths: 12), scale: .third, dedupe: false, order: .fastFirst)
        let record = SeriesRecord(
            every: .seconds(60), end: .count(count), firstStart: firstStart, shift: nil, longest: nil, base: base,
            rootDirectory: root.path)
        let first = try record.prepared(1, offered: ShutterScale.third.speeds, messages: PlainMessages())
        var journal = ShootJournal(
            plan: first.plan, camera: CameraIdentity(model: "ILCE-7RM4", address: "127.0.0.1"),
            outputDirectory: root.path + "/" + SeriesRepetition.folderName(1), createdAt: firstStart)
        journal.series = record
        try await store.create(journal)
        return journal
    }

    /// Runs `body` with a connected camera on a simulated body.
    static func withCamera<T: Sendable>(_ body: (SonyCamera) async throws -> T) async throws -> T {
        try await CameraSimulator.withRunning(configuration: SimulatorConfiguration.loopback()) { simulator in
            let camera = SonyCamera(
                configuration: SonyCameraConfiguration(
                    host: "127.0.0.1", port: simulator.port,
                    identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests")))
            try await camera.connect()
            let result = try await body(camera)
            await camera.disconnect()
            return result
        }
    }

    /// The series of `journal` from `start` on `camera`, `elapsed` after its first start, on `clock`.
    static func shoot(
        _ journal: ShootJournal, store: JournalStore, camera: SonyCamera, start: RepetitionSchedule.Start,
        skipping: [Int] = [], elapsed: Duration = .zero, clock: TestClock
    ) -> SeriesShoot {
        SeriesShoot(
            camera: camera, journal: journal, store: store, offered: ShutterScale.third.speeds, start: start,
            skipping: skipping,
            configuration: BracketRunner.Configuration(
                outputDirectory: URL(fileURLWithPath: journal.series!.rootDirectory)),
            elapsed: elapsed, clock: clock,
            wallClock: .fixed(firstStart.addingTimeInterval(ShootUpdate.seconds(elapsed))))
    }

    @Test func aSecondWatcherAttachedWhileTheSeriesWaitsSeesTheWaitingStateAndTheNextStart() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.url.appendingPathComponent("series")
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        let journal = try await Self.newSeries(count: 2, root: root, store: store)
        let controller = ShootController(messages: PlainMessages())
        let clock = TestClock()
        // The second watcher attaches at the first waiting state, then the schedule moves on to the next start.
        let first = controller.updates()
        // A third watches the whole series, to its end: what it says of the series' end, and its last state.
        let whole = controller.updates()
        let ending = Task { () -> [ShootUpdate] in
            var seen: [ShootUpdate] = []
            for await update in whole { seen.append(update) }
            return Array(seen.suffix(2))
        }
        let midWait = Task { () -> ShootUpdate? in
            for await update in first {
                guard case .state(let change) = update, change.state == .waiting else { continue }
                var second = controller.updates().makeAsyncIterator()
                let opening = await second.next()
                // The series sleeps until repetition 2's start, 60 s after the first on this clock: waiting for
                // that sleeper, not for any sleeper, so a runner's timer not yet cancelled cannot move time early.
                await clock.waitForSleeper(until: TestClock.Instant(offset: .seconds(60)))
                clock.advance(by: .seconds(60))
                return opening
            }
            return nil
        }
        let (result, final) = try await Self.withCamera { camera in
            await controller.shootSeries(
                Self.shoot(journal, store: store, camera: camera, start: journal.series!.schedule.first, clock: clock))
        }
        await controller.concludeSeries(result, journal: final)

        guard case .snapshot(let seen)? = await midWait.value else {
            Issue.record("the second watcher's first update is not a snapshot")
            return
        }
        #expect(seen.state == .waiting)
        #expect(seen.waiting?.repetition == 2)
        #expect(seen.waiting?.inSeconds == 60)
        #expect(seen.waiting?.startsAt == SeriesManifest.iso(Self.firstStart.addingTimeInterval(60)))
        #expect(seen.repetitionsDone == 1)
        #expect(seen.progress?.completed == 3, "the first repetition's last frame is in the snapshot")
        #expect(result.isComplete && result.completedRepetitions == [1, 2])
        #expect(final.series?.repetitions.map(\.state) == [.done, .done])
        #expect(controller.snapshot.state == .finished)
        #expect(controller.snapshot.repetitionsDone == 2)
        // The series' end (`SeriesFinished(_:journal:)`, which `--json` prints too), then the finished state.
        #expect(
            await ending.value == [
                .seriesFinished(ShootUpdate.SeriesFinished(complete: true, repetitionsDone: 2, next: nil)),
                .state(ShootUpdate.StateChange(state: .finished, question: nil))
            ])
        // Each repetition's images in its folder, and the series manifest listing both.
        for number in [1, 2] {
            let names = try FileSystem.contentsOfDirectory(
                root.path + "/" + SeriesRepetition.folderName(number) + "/set-01")
            #expect(names.filter { $0.hasSuffix(".JPG") }.count == 3, "\(names)")
        }
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(FileSystem.readAll(root.path + "/" + ShootManifest.fileName))) as? [String: Any]
        #expect((manifest?["repetitions"] as? [Any])?.count == 2)
        #expect(manifest?["status"] as? String == "complete")
    }

    @Test(arguments: [SeriesResumption.shootLate, SeriesResumption.skipMissed])
    func aStoppedSeriesResumesAfterItsMissedStartsAsAnswered(answer: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.url.appendingPathComponent("series")
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        let journal = try await Self.newSeries(count: 4, root: root, store: store)

        // The first run: repetition 1, then a stop while waiting for repetition 2.
        let controller = ShootController(messages: PlainMessages())
        let updates = controller.updates()
        let stopper = Task {
            for await update in updates {
                if case .state(let change) = update, change.state == .waiting { return await controller.send(.stop) }
            }
            return false
        }
        let (stopped, afterStop) = try await Self.withCamera { camera in
            await controller.shootSeries(
                Self.shoot(
                    journal, store: store, camera: camera, start: journal.series!.schedule.first, clock: TestClock()))
        }
        await controller.concludeSeries(stopped, journal: afterStop)
        #expect(await stopper.value)
        #expect(!stopped.isComplete && stopped.resumeAt?.number == 2)
        #expect(controller.snapshot.state == .finished)

        // The resume, 150 s after the first start: repetitions 2 (60 s) and 3 (120 s) were missed.
        let saved = try await store.load(id: journal.id)
        let resumed = ShootController(messages: PlainMessages())
        let resumedUpdates = resumed.updates()
        let answering = Task {
            for await update in resumedUpdates {
                if case .state(let change) = update, change.state == .asking {
                    return await resumed.send(.answer(answer))
                }
            }
            return false
        }
        let decision = await resumed.resumePoint(
            of: saved, now: .seconds(150), restartSet: false, skipMissed: false, mayAsk: true)
        guard case .resume(let point) = decision else {
            Issue.record("not resumed: \(decision)")
            return
        }
        #expect(await answering.value)
        let clock = TestClock()
        let (result, final) = try await Self.withCamera { camera in
            await resumed.shootSeries(
                Self.shoot(
                    point.journal, store: store, camera: camera, start: point.start, skipping: point.skipping,
                    elapsed: .seconds(150), clock: clock),
                observe: { event in
                    // The schedule moves on as soon as the series waits.
                    if case .waiting(_, let remaining) = event {
                        // Only the test moves this clock: the series' sleeper is due exactly `remaining` from now.
                        let start = clock.now.advanced(by: remaining)
                        await clock.waitForSleeper(until: start)
                        clock.advance(to: start)
                    }
                })
        }
        await resumed.concludeSeries(result, journal: final)
        #expect(result.isComplete, "\(String(describing: result.stopReason))")
        let states = final.series?.repetitions.map { "\($0.number):\($0.state.rawValue)" }
        if answer == SeriesResumption.shootLate {
            // Repetition 2 shot now, late; the schedule continues every 60 s after it: 3 and 4 follow.
            #expect(states == ["1:done", "2:done", "3:done", "4:done"])
            #expect(final.series?.repetitions[1].timing == "late")
        } else {
            // Repetitions 2 and 3 skipped; 4 at its clock time (180 s).
            #expect(states == ["1:done", "2:skipped", "3:skipped", "4:done"])
            #expect(final.series?.repetitions[3].timing == "onTime")
        }
        #expect(!final.isUnfinished)
    }

    @Test func aNewSeriesIsRecordedFromTheYesAndRefusedWhenItsUntilTimePassedMeanwhile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url.appendingPathComponent("state"))
        let base = SeriesRecord.Base(
            shadow: ShutterSpeed(numerator: 1, denominator: 40),
            highlight: ShutterSpeed(numerator: 1, denominator: 640),
            frames: 3, spacing: EVAmount(sixths: 12), scale: .third, dedupe: false, order: .fastFirst)
        let until = Self.firstStart.addingTimeInterval(600)
        let record = SeriesRecord(
            every: .seconds(60), end: .until(until), firstStart: Self.firstStart, shift: nil, longest: nil,
            base: base, rootDirectory: folder.url.path + "/series")
        let first = try record.prepared(1, offered: ShutterScale.third.speeds, messages: PlainMessages())
        let camera = CameraIdentity(model: "ILCE-7RM4", address: "127.0.0.1")
        // The yes came 30 s after the summary: the schedule counts from it.
        let yes = Self.firstStart.addingTimeInterval(30)
        let (journal, lock) = try await SeriesShoot.record(record, first: first, camera: camera, store: store, now: yes)
        let stored = try await store.load(id: journal.id)
        #expect(stored.series?.firstStart == yes)
        #expect(stored.outputDirectory == folder.url.path + "/series/rep-001")
        #expect(stored.plan == first.plan)
        await #expect(throws: JournalError.self) { _ = try await store.lock(id: journal.id) }
        withExtendedLifetime(lock) {}
        // The --until time passed while the question waited: nothing is recorded.
        await #expect(throws: ShootPreparationError.self) {
            _ = try await SeriesShoot.record(
                record, first: first, camera: camera, store: store, now: until.addingTimeInterval(1))
        }
    }
}
