import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

@testable import ShootKit

/// What `resume` comes to (`ResumeLookup.choice`), each case from a real journal written to a store on disk,
/// found and claimed as `resume` finds it: a series, a bracket with frames left, a bracket with every frame saved.
@Suite struct ResumeChoiceTests {
    static let createdAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// A bracket of two sets of two frames (1/640 1/160, 1/40 1/10), every frame pending.
    static func bracket(id: String) -> ShootJournal {
        ShootJournal(
            id: id,
            plan: BracketPlan(sets: [
                [ShutterSpeed(numerator: 1, denominator: 640), ShutterSpeed(numerator: 1, denominator: 160)],
                [ShutterSpeed(numerator: 1, denominator: 40), ShutterSpeed(numerator: 1, denominator: 10)]
            ]),
            camera: CameraIdentity(model: "ILCE-7RM4", address: "127.0.0.1"), outputDirectory: "/nonexistent/\(id)",
            createdAt: createdAt)
    }

    /// `journal` with the frame at `position` saved.
    static func saving(_ position: ShootPosition, of journal: ShootJournal) -> ShootJournal {
        var journal = journal
        let folder = journal.outputDirectory
        journal.updateFrame(at: position) { record in
            let name = "DSC0\(position.set)\(position.frame).JPG"
            record.state = .done(
                images: [SavedImage(fileName: name, path: folder + "/" + name, byteCount: 1000)],
                at: createdAt.addingTimeInterval(10))
        }
        return journal
    }

    /// Writes `journal` to a new store in `folder`, then finds and claims it as `resume` (no id) does.
    static func found(_ journal: ShootJournal, in folder: TemporaryFolder) async throws -> ResumeLookup {
        let store = JournalStore(directory: folder.url)
        try await store.create(journal)
        return try await ResumeLookup.find(ResumeRequest(), in: store)
    }

    @Test(arguments: [false, true])
    func aBracketWithFramesLeftIsShotFromItsFirstFrameNotSaved(restartSet: Bool) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var journal = Self.saving(ShootPosition(set: 2, frame: 1), of: Self.bracket(id: "20270115-080000-aaaa"))
        journal = Self.saving(ShootPosition(set: 1, frame: 1), of: journal)
        journal = Self.saving(ShootPosition(set: 1, frame: 2), of: journal)
        let lookup = try await Self.found(journal, in: folder)
        defer { withExtendedLifetime(lookup.lock) {} }
        let store = JournalStore(directory: folder.url)
        guard
            case .bracket(let start) = lookup.choice(
                ResumeRequest(restartSet: restartSet), followsCamera: true, store: store)
        else {
            Issue.record("not a bracket to shoot")
            return
        }
        #expect(start.journal.id == "20270115-080000-aaaa" && start.journal.savedCount == 3)
        #expect(start.resumePosition == ShootPosition(set: 2, frame: 2))
        #expect(start.start == (restartSet ? ShootPosition(set: 2, frame: 1) : ShootPosition(set: 2, frame: 2)))
        #expect(start.restartingSet == restartSet && start.followsCamera)
        #expect(start.store.directory == store.directory)
    }

    @Test func aBracketWhoseEveryFrameIsSavedHasNothingLeftToShoot() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var journal = Self.bracket(id: "20270115-080100-bbbb")
        for position in journal.plan.positions { journal = Self.saving(position, of: journal) }
        // The process died at the very end: every frame saved, the shoot not marked complete.
        #expect(journal.status != .complete)
        let lookup = try await Self.found(journal, in: folder)
        defer { withExtendedLifetime(lookup.lock) {} }
        guard
            case .allSaved(let found, let exposures) = lookup.choice(
                ResumeRequest(), followsCamera: false, store: JournalStore(directory: folder.url))
        else {
            Issue.record("not all saved")
            return
        }
        #expect(exposures == 4 && found.id == "20270115-080100-bbbb" && found.savedCount == 4)
        #expect(
            ResumeChoice.allSavedSentence(exposures: exposures) == "Nothing left to shoot: all 4 exposures are saved.")
    }

    /// A series is the series' to decide even when its repetition's every frame is saved (the process died before
    /// marking the repetition done): the controller settles it, and the schedule goes on.
    @Test func aSeriesIsContinuedOnItsScheduleEvenWithEveryFrameOfItsRepetitionSaved() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var journal = Self.bracket(id: "20270115-080200-cccc")
        for position in journal.plan.positions { journal = Self.saving(position, of: journal) }
        journal.series = SeriesResumptionTests.journal().series
        let lookup = try await Self.found(journal, in: folder)
        defer { withExtendedLifetime(lookup.lock) {} }
        guard
            case .series(let series) = lookup.choice(
                ResumeRequest(), followsCamera: false, store: JournalStore(directory: folder.url))
        else {
            Issue.record("not a series")
            return
        }
        #expect(series.id == "20270115-080200-cccc" && series.series?.every == .seconds(60))
    }
}
