import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

@Suite("JournalRecorder.appendSet: --check extend's frames are journaled like any plan")
struct JournalRecorderAppendTests {
    @Test func anAppendedSetIsSavedPendingAndTheShootResumesInIt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        var journal = sampleJournal()
        journal.recipe = ShootRecipe(
            shadow: "1", highlight: "1/1000", frames: 5, spacing: "1", scale: "third", order: "fast-first",
            dedupe: false, linkShared: false)
        for position in journal.plan.positions {
            journal.updateFrame(at: position) { $0.state = .done(images: [], at: journalEpoch) }
        }
        journal.status = .complete
        try await store.create(journal)
        let recorder = JournalRecorder(journal: journal, store: store, now: { journalEpoch })

        let extra = [ShutterSpeed(numerator: 1, denominator: 4000), ShutterSpeed(numerator: 2, denominator: 1)]
        let start = try await recorder.appendSet(extra)
        #expect(start == ShootPosition(set: 4, frame: 1))

        // What the file says is what `hdrshoot resume` reads.
        let saved = try await store.load(id: journal.id)
        #expect(saved.plan.sets.count == 4)
        #expect(saved.plan.sets[3] == extra)
        #expect(saved.status == .inProgress)
        #expect(saved.recipe?.extensions == 1)
        #expect(saved.resumePosition == start)
        #expect(saved.isUnfinished)

        _ = try await recorder.appendSet([ShutterSpeed(numerator: 4, denominator: 1)])
        #expect(try await store.load(id: journal.id).recipe?.extensions == 2)
    }
}
