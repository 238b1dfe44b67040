import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

/// What the journal says about a shoot, and the runner keeping it current through `JournalRecorder`.
@Suite(.timeLimit(.minutes(1))) struct ShootJournalTests {
    @Test func substitutionsOfJournalsWrittenByOlderVersionsStillLoad() async throws {
        // As versions before the one `SpeedSubstitution` wrote `ShootJournal.Substitution`: sorted keys, each
        // speed as its fraction.
        let old = #"[{"planned":{"denominator":6400,"numerator":1},"used":{"denominator":5000,"numerator":1}}]"#
        let expected = [SpeedSubstitution(planned: speed(6400), used: speed(5000))]
        #expect(try JSONDecoder().decode([SpeedSubstitution].self, from: Data(old.utf8)) == expected)
        // A journal file holds them in the same words, and loads through the store.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let journal = sampleJournal()
        try await store.create(journal)
        let text = try String(contentsOf: store.url(ofJournal: journal.id), encoding: .utf8)
        #expect(text.contains(#""substitutions":"# + old))
        #expect(try await store.load(id: journal.id).substitutions == expected)
    }

    @Test func resumePositionIsTheFirstFrameNotSaved() {
        var journal = sampleJournal()
        #expect(journal.resumePosition == .start)
        for position in journal.plan.positions.prefix(7) {
            journal.updateFrame(at: position) { $0.state = .done(images: [], at: journalEpoch) }
        }
        journal.updateFrame(at: ShootPosition(set: 2, frame: 3)) { $0.state = .inFlight(since: journalEpoch) }
        #expect(journal.resumePosition == ShootPosition(set: 2, frame: 3))
        #expect(journal.interruptedFrames == [ShootPosition(set: 2, frame: 3)])
        #expect(journal.savedCount == 7)
        for position in journal.plan.positions {
            journal.updateFrame(at: position) { $0.state = .done(images: [], at: journalEpoch) }
        }
        #expect(journal.resumePosition == nil)
    }

    @Test func aGapIsNeverSkipped() {
        var journal = sampleJournal()
        for position in journal.plan.positions where position != ShootPosition(set: 1, frame: 4) {
            journal.updateFrame(at: position) { $0.state = .done(images: [], at: journalEpoch) }
        }
        #expect(journal.resumePosition == ShootPosition(set: 1, frame: 4))
    }

    @Test func failedFramesThatMayHaveFiredAreReportedAsInterrupted() {
        var journal = sampleJournal()
        journal.updateFrame(at: .start) {
            $0.state = .failed(.init(at: journalEpoch, detail: "busy", connectionLost: false, mayHaveFired: false))
        }
        journal.updateFrame(at: ShootPosition(set: 1, frame: 2)) {
            $0.state = .failed(.init(at: journalEpoch, detail: "drop", connectionLost: true, mayHaveFired: true))
        }
        #expect(journal.interruptedFrames == [ShootPosition(set: 1, frame: 2)])
    }

    @Test func runnerKeepsTheJournalCurrentAndAResumeCompletesIt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let journal = sampleJournal()
        try await store.create(journal)

        // First run: the 8th shot (set 2, frame 3) fails after the shutter fired.
        var script = InMemoryCamera.Script()
        script.failingShots = [8: .fault("card error")]
        let recorder = JournalRecorder(journal: journal, store: store, now: { journalEpoch })
        let first = await runCollecting(
            makeRunner(InMemoryCamera(script: script), plan: journal.plan, recorder: recorder)
        ).0
        #expect(first.resumePosition == ShootPosition(set: 2, frame: 3))

        let stopped = try await store.load(id: journal.id)
        #expect(stopped.status == .stopped(.failed))
        #expect(stopped.savedCount == 7)
        #expect(stopped.resumePosition == first.resumePosition)
        #expect(stopped.interruptedFrames == [ShootPosition(set: 2, frame: 3)])
        guard case .done(let images, _) = stopped.frame(at: .start).state else {
            Issue.record("frame 1 is not done")
            return
        }
        #expect(images.map(\.fileName) == ["DSC10001.ARW"])

        // Resume from what the file says, as `hdrshoot resume` will.
        let resumeAt = try #require(stopped.resumePosition)
        let camera = InMemoryCamera()
        let again = JournalRecorder(journal: stopped, store: store, now: { journalEpoch })
        let second = await runCollecting(makeRunner(camera, plan: stopped.plan, recorder: again), from: resumeAt).0
        #expect(second.isComplete && second.savedThisRun == 8)
        #expect(await camera.shotSettings.count == 8)

        let done = try await store.load(id: journal.id)
        #expect(done.status == .complete && done.savedCount == 15 && !done.isUnfinished)
        let reshot = done.frame(at: ShootPosition(set: 2, frame: 3))
        #expect(reshot.attempts == 2 && reshot.possiblyDuplicated)
        #expect(done.frame(at: ShootPosition(set: 2, frame: 4)).attempts == 1)
        #expect(done.log.count == 4) // started, stopped, started, completed
        #expect(try await store.latestUnfinished() == nil)
    }

    @Test func aFrameInFlightWhenTheProcessDiedIsReshotAsPossiblyDuplicated() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        // As a kill -9 after "about to fire" leaves it: 2 frames done, the 3rd in flight, status in progress.
        var journal = ShootJournal(
            plan: plan(sets: 1, frames: 4), camera: CameraIdentity(model: "M", address: "a"),
            outputDirectory: "/out", createdAt: journalEpoch)
        for frame in 1...2 {
            journal.updateFrame(at: ShootPosition(set: 1, frame: frame)) {
                $0.state = .done(images: [], at: journalEpoch)
            }
        }
        journal.updateFrame(at: ShootPosition(set: 1, frame: 3)) {
            $0.state = .inFlight(since: journalEpoch)
            $0.attempts = 1
        }
        try await store.create(journal)

        let loaded = try #require(try await store.latestUnfinished())
        #expect(loaded.interruptedFrames == [ShootPosition(set: 1, frame: 3)])
        let start = try #require(loaded.resumePosition)
        let recorder = JournalRecorder(journal: loaded, store: store, now: { journalEpoch })
        let result = await runCollecting(
            makeRunner(InMemoryCamera(), plan: loaded.plan, recorder: recorder), from: start
        ).0
        #expect(result.isComplete && result.savedThisRun == 2)
        let done = try await store.load(id: journal.id)
        #expect(done.frame(at: ShootPosition(set: 1, frame: 3)).possiblyDuplicated)
        #expect(!done.frame(at: ShootPosition(set: 1, frame: 4)).possiblyDuplicated)
    }

    @Test func aJournalThatCannotBeWrittenStopsTheRunBeforeTheFrameFires() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let journal = sampleJournal()
        try await JournalStore(directory: folder.url).create(journal)
        let full = JournalStore(directory: folder.url, faults: JournalFaults(failWriteWith: ENOSPC))
        let recorder = JournalRecorder(journal: journal, store: full, now: { journalEpoch })
        let camera = InMemoryCamera()
        let result = await runCollecting(makeRunner(camera, plan: journal.plan, recorder: recorder)).0
        guard case .recordingFailed(let error) = result.stopReason else {
            Issue.record("expected recordingFailed, got \(String(describing: result.stopReason))")
            return
        }
        #expect(error as? JournalError == .diskFull(path: folder.url.appendingPathComponent("\(journal.id).json").path))
        #expect(await camera.shotSettings.isEmpty)
        #expect(await recorder.journal.frame(at: .start).state == .pending)
    }

    @Test func restartingASetKeepsTheImagesOfTheEarlierAttempt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        var journal = sampleJournal()
        let earlier = SavedImage(fileName: "DSC00001.ARW", path: "/x/DSC00001.ARW", byteCount: 1)
        journal.updateFrame(at: .start) {
            $0.state = .done(images: [earlier], at: journalEpoch)
            $0.attempts = 1
        }
        try await store.create(journal)
        let recorder = JournalRecorder(journal: journal, store: store, now: { journalEpoch })
        _ = await runCollecting(
            makeRunner(InMemoryCamera(), plan: journal.plan, recorder: recorder),
            from: ShootPosition(set: 1, frame: 2), restartingInterruptedSet: true)
        let record = try await store.load(id: journal.id).frame(at: .start)
        #expect(record.earlierImages == [earlier] && record.attempts == 2 && !record.possiblyDuplicated)
    }

    @Test func imagesRecoveredFromAnInterruptedAttemptAreKeptWithTheFrame() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let journal = sampleJournal()
        try await store.create(journal)
        let recorder = JournalRecorder(journal: journal, store: store, now: { journalEpoch })
        let recovered = SavedImage(fileName: "DSC00007.JPG", path: "/x/set-02/DSC00007.JPG", byteCount: 1)
        let reshot = SavedImage(fileName: "DSC00008.JPG", path: "/x/set-02/DSC00008.JPG", byteCount: 1)
        let position = ShootPosition(set: 2, frame: 2)
        try await recorder.frameWillFire(at: position, setting: .bulb)
        try await recorder.frameDidSave(
            at: position, frame: CapturedFrame(images: [reshot], recoveredImages: [recovered]))
        let record = try await store.load(id: journal.id).frame(at: position)
        #expect(record.earlierImages == [recovered])
        #expect(record.state == .done(images: [reshot], at: journalEpoch))
    }

    /// The runner writes the last frame's record on its way out of a cancelled run: the save must not give up.
    @Test func aCancelledTaskStillWritesTheFrameRecord() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let journal = sampleJournal()
        try await store.create(journal)
        let recorder = JournalRecorder(journal: journal, store: store, now: { journalEpoch })
        try await recorder.frameWillFire(at: .start, setting: .bulb)
        let image = SavedImage(fileName: "DSC00001.ARW", path: "/x/set-01/DSC00001.ARW", byteCount: 1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await recorder.frameDidSave(at: .start, frame: CapturedFrame(images: [image]))
            return Task.isCancelled
        }
        #expect(try await task.value) // saved, from a task that was cancelled all along
        #expect(
            try await store.load(id: journal.id).frame(at: .start).state == .done(images: [image], at: journalEpoch))
    }
}
