import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

@testable import ShootKit

/// Which shoot a `.resume` request continues (`ResumeLookup.find`), against a real journal store: the id given,
/// else the latest unfinished one, claimed by its lock; what cannot be continued is a typed `ResumeError`.
@Suite struct ResumeLookupTests {
    static func journal(at seconds: TimeInterval, id: String) -> ShootJournal {
        ShootJournal(
            id: id, plan: BracketPlan(sets: [[ShutterSpeed(numerator: 1, denominator: 60)]]),
            camera: CameraIdentity(model: "ILCE-7RM4", address: "127.0.0.1"), outputDirectory: "/nonexistent/\(id)",
            createdAt: Date(timeIntervalSince1970: 1_800_000_000 + seconds))
    }

    @Test func theLatestUnfinishedShootIsTakenAndTheOlderOnesCounted() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        for (index, id) in ["20270115-080000-aaaa", "20270115-080100-bbbb", "20270115-080200-cccc"].enumerated() {
            try await store.create(Self.journal(at: Double(index) * 60, id: id))
        }
        let lookup = try await ResumeLookup.find(ResumeRequest(), in: store)
        #expect(lookup.journal.id == "20270115-080200-cccc")
        #expect(lookup.olderUnfinished == 2)
        // Claimed: this process holds the lock until the lookup goes.
        #expect(await store.holder(id: "20270115-080200-cccc") != nil)
        withExtendedLifetime(lookup.lock) {}
    }

    @Test func anIdNamesItsShootAndCountsNoOthers() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        try await store.create(Self.journal(at: 0, id: "20270115-080000-aaaa"))
        try await store.create(Self.journal(at: 60, id: "20270115-080100-bbbb"))
        let lookup = try await ResumeLookup.find(ResumeRequest(id: "20270115-080000-aaaa"), in: store)
        #expect(lookup.journal.id == "20270115-080000-aaaa" && lookup.olderUnfinished == 0)
    }

    @Test func whatCannotBeContinuedSaysWhy() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let path = store.directory.path
        await #expect(throws: ResumeError.nothingToResume(stateDirectory: path)) {
            try await ResumeLookup.find(ResumeRequest(), in: store)
        }
        await #expect(throws: ResumeError.noSuchShoot(id: "20270115-000000-xxxx", stateDirectory: path)) {
            try await ResumeLookup.find(ResumeRequest(id: "20270115-000000-xxxx"), in: store)
        }
        var done = Self.journal(at: 0, id: "20270115-090000-dddd")
        done.status = .complete
        try await store.create(done)
        await #expect(throws: ResumeError.shootComplete(id: "20270115-090000-dddd")) {
            try await ResumeLookup.find(ResumeRequest(id: "20270115-090000-dddd"), in: store)
        }
    }

    @Test func aFolderOffersItsNewestUnfinishedBracketOnly() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        func bracket(_ id: String, at seconds: TimeInterval, in parent: String) -> ShootJournal {
            var journal = Self.journal(at: seconds, id: id)
            journal.outputDirectory = parent + "/" + id
            return journal
        }
        try await store.create(bracket("20270115-080000-aaaa", at: 0, in: "/served"))
        try await store.create(bracket("20270115-080100-bbbb", at: 60, in: "/served"))
        // Newer, but in another folder: not this front end's to offer.
        try await store.create(bracket("20270115-080200-cccc", at: 120, in: "/elsewhere"))
        // Newer and in the folder, but a series: resumed with `hdrshoot resume`.
        var series = bracket("20270115-080300-dddd", at: 180, in: "/served")
        series.series = SeriesRecord(
            every: .seconds(60), end: .count(2), firstStart: series.createdAt, shift: nil, longest: nil,
            base: SeriesRecord.Base(
                shadow: ShutterSpeed(numerator: 1, denominator: 60),
                highlight: ShutterSpeed(numerator: 1, denominator: 60), frames: 1, spacing: EVAmount(sixths: 6),
                scale: .third, dedupe: false, order: .fastFirst),
            rootDirectory: "/served/series")
        try await store.create(series)
        #expect(await ResumeLookup.offered(in: "/served", store: store, id: nil)?.id == "20270115-080100-bbbb")
        #expect(
            await ResumeLookup.offered(in: "/served/", store: store, id: "20270115-080000-aaaa")?.id
                == "20270115-080000-aaaa")
        #expect(await ResumeLookup.offered(in: "/served", store: store, id: "20270115-080200-cccc") == nil)
    }
}
