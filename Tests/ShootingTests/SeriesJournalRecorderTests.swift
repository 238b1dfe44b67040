import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

/// The series part of the journal: written by `SeriesJournalRecorder` in a real state directory.
@Suite(.timeLimit(.minutes(1))) struct SeriesJournalRecorderTests {
    @Test func aJournalWithoutASeriesLoadsAsBeforeAndWritesNoSeriesKey() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let journal = sampleJournal()
        try await store.create(journal)
        let text = String(decoding: try Data(contentsOf: store.url(ofJournal: journal.id)), as: UTF8.self)
        #expect(!text.contains("\"series\""))
        let loaded = try await store.load(id: journal.id)
        #expect(loaded.series == nil && loaded == journal)
    }

    @Test func eachRepetitionIsRecordedAndAStoppedSeriesContinuesAtItsNextStart() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(3))
        let journal = seriesJournal(end: .count(3), root: folder.url.appendingPathComponent("out").path)
        try await store.create(journal)
        let clock = TestClock()
        let recorder = SeriesJournalRecorder(journal: journal, store: store, now: { journalEpoch }) { number, _ in
            .init(plan: try sampleBase.plan(forRepetition: number, shift: EVAmount(stops: 1), longest: nil))
        }
        let series = makeSeries(
            InMemoryCamera(), schedule: schedule, recorder: recorder, clock: clock,
            outputDirectory: URL(fileURLWithPath: journal.outputDirectory))
        async let result = series.run(from: schedule.first)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(120))
        await clock.waitForSleepers(1)
        // Stopped while waiting for the third start (a dying process leaves the same file behind).
        await series.stop()
        #expect(await !result.isComplete)

        let saved = try await store.load(id: journal.id)
        let record = try #require(saved.series)
        #expect(saved.isUnfinished && saved.status == .stopped(.stopRequested))
        #expect(record.repetitions.map(\.number) == [1, 2] && record.repetitions.allSatisfy { $0.state == .done })
        #expect(record.repetitions.map(\.scheduledOffsetMilliseconds) == [0, 120_000])
        #expect(record.repetitions[1].plannedStart == journalEpoch.addingTimeInterval(120))
        #expect(record.repetitions[1].outputDirectory == record.rootDirectory + "/rep-002")
        #expect(saved.outputDirectory == record.rootDirectory + "/rep-002")
        // The second repetition is shifted 1 EV slower, and its frames are kept with it.
        #expect(
            record.repetitions[1].plan
                == (try sampleBase.plan(forRepetition: 2, shift: EVAmount(stops: 1), longest: nil)))
        #expect(
            record.repetitions[1].frames?.joined().allSatisfy { if case .done = $0.state { true } else { false } }
                == true)
        let next = try #require(record.continuation())
        #expect(next.start == RepetitionSchedule.Start(number: 3, at: .seconds(240)) && !next.continuing)
        #expect(try await store.latestUnfinished()?.id == journal.id)
    }

    @Test func anInterruptedRepetitionIsContinuedFromItsFirstUnsavedFrame() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(2))
        let journal = seriesJournal(end: .count(2), root: folder.url.appendingPathComponent("out").path)
        try await store.create(journal)
        let prepare: SeriesJournalRecorder.Prepare = { number, _ in
            .init(plan: try sampleBase.plan(forRepetition: number, shift: nil, longest: nil))
        }
        // The third shot of the first repetition fails: the series stops inside it.
        var script = InMemoryCamera.Script()
        script.failingShots = [3: .fault("card error")]
        let first = makeSeries(
            InMemoryCamera(script: script), schedule: schedule,
            recorder: SeriesJournalRecorder(journal: journal, store: store, prepare: prepare), clock: TestClock(),
            outputDirectory: folder.url)
        let stopped = await first.run(from: schedule.first)
        #expect(stopped.resumeAt?.number == 1)

        let saved = try await store.load(id: journal.id)
        let next = try #require(saved.series?.continuation())
        #expect(next.continuing && next.start.number == 1)
        let position = try #require(saved.resumePosition)
        #expect(position == ShootPosition(set: 1, frame: 3))

        let camera = InMemoryCamera()
        let clock = TestClock()
        let recorder = SeriesJournalRecorder(
            journal: saved, store: store, continuing: (position, false), prepare: prepare)
        let second = makeSeries(
            camera, schedule: schedule, recorder: recorder, clock: clock, elapsed: .seconds(30),
            outputDirectory: folder.url)
        let late = try #require(schedule.held(next.start, until: .seconds(30)))
        async let result = second.run(from: late)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(120))
        #expect(await result.isComplete)
        let total = saved.plan.totalExposures
        #expect(await camera.shotSettings.count == (total - 2) + total)
        let done = try await store.load(id: journal.id)
        #expect(!done.isUnfinished && done.status == .complete)
        #expect(done.series?.repetitions.map(\.state) == [.done, .done])
    }
}

/// The readings of the sample series: 1/4 and 1/1000, 5 frames 1 EV apart.
let sampleBase = SeriesRecord.Base(
    shadow: speed(4), highlight: speed(1000), frames: 5, spacing: EVAmount(stops: 1), scale: .third, dedupe: false,
    order: .fastFirst)

/// A new series journal every 2 minutes, first start at `journalEpoch`, folder `root`.
func seriesJournal(end: SeriesRecord.End, root: String) -> ShootJournal {
    var journal = ShootJournal(
        id: "20251122-083320-5e71",
        plan: (try? sampleBase.plan(forRepetition: 1, shift: nil, longest: nil)) ?? plan(sets: 1, frames: 1),
        camera: CameraIdentity(model: "ILCE-7M4", serialNumber: nil, address: "192.168.122.1:15740", ssid: nil),
        outputDirectory: root, createdAt: journalEpoch)
    journal.series = SeriesRecord(
        every: .seconds(120), end: end, firstStart: journalEpoch, shift: EVAmount(stops: 1), longest: nil,
        base: sampleBase,
        rootDirectory: root)
    return journal
}
