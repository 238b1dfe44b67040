import Exposure
import Foundation
import Glibc
import Shooting
import TestSupport
import Testing

/// Where journals live and how they are written: atomically, privately, never over a damaged file.
@Suite struct JournalStoreTests {
    @Test(arguments: [
        (
            option: "/opt/state",
            env: ["HDRSHOOT_STATE_DIR": "/env/state", "XDG_STATE_HOME": "/xdg", "HOME": "/home/u"],
            expected: "/opt/state"
        ),
        (
            option: "", env: ["HDRSHOOT_STATE_DIR": "/env/state", "XDG_STATE_HOME": "/xdg", "HOME": "/home/u"],
            expected: "/env/state"
        ),
        (
            option: "", env: ["HDRSHOOT_STATE_DIR": "", "XDG_STATE_HOME": "/xdg", "HOME": "/home/u"],
            expected: "/xdg/hdrshoot"
        ),
        (
            option: "", env: ["XDG_STATE_HOME": "relative/xdg", "HOME": "/home/u"],
            expected: "/home/u/.local/state/hdrshoot"
        ),
        (option: "", env: ["HOME": "/home/u"], expected: "/home/u/.local/state/hdrshoot"),
        (option: "rel/state", env: [:], expected: "/work/here/rel/state")
    ])
    func stateDirectoryFollowsOptionThenEnvironment(option: String, env: [String: String], expected: String) throws {
        let url = try JournalStore.resolveDirectory(option: option, environment: env, currentDirectory: "/work/here")
        #expect(url.path == expected)
    }

    @Test func noHomeAndNoVariablesIsATypedError() {
        #expect(throws: JournalError.noStateDirectory) {
            try JournalStore.resolveDirectory(option: nil, environment: [:], currentDirectory: "/")
        }
    }

    @Test func stateDirectoryIsCreated0700AndJournals0600() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url.appendingPathComponent("xdg/hdrshoot"))
        let journal = sampleJournal()
        try await store.create(journal)
        #expect(try permissions(of: store.directory.path) == 0o700)
        #expect(try permissions(of: folder.url.appendingPathComponent("xdg").path) == 0o700)
        #expect(try permissions(of: store.url(ofJournal: journal.id).path) == 0o600)
    }

    @Test func roundTripKeepsEveryField() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        var journal = sampleJournal()
        let image = SavedImage(fileName: "DSC01234.ARW", path: "/photos/set-01/DSC01234.ARW", byteCount: 24_117_248)
        journal.updateFrame(at: .start) {
            $0.state = .done(images: [image], at: journalEpoch)
            $0.attempts = 1
        }
        journal.updateFrame(at: ShootPosition(set: 1, frame: 2)) {
            $0.state = .failed(.init(at: journalEpoch, detail: "busy", connectionLost: false, mayHaveFired: true))
        }
        journal.updateFrame(at: ShootPosition(set: 1, frame: 3)) { $0.state = .inFlight(since: journalEpoch) }
        journal.log = [
            .init(at: journalEpoch, event: .started(at: .start, restartingSet: false)),
            .init(at: journalEpoch, event: .paused(PauseReason(.network, detail: "DIRECT-xyz"))),
            .init(at: journalEpoch, event: .stopped(.reconnectGaveUp, at: ShootPosition(set: 1, frame: 3), detail: nil))
        ]
        journal.status = .stopped(.reconnectGaveUp)
        try await store.create(journal)
        #expect(try await store.load(id: journal.id) == journal)
    }

    @Test func crashBetweenTempWriteAndRenameLeavesTheOldJournal() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let original = sampleJournal()
        try await store.create(original)
        let before = try Data(contentsOf: store.url(ofJournal: original.id))

        var next = original
        next.revision = 1
        next.updateFrame(at: .start) { $0.state = .inFlight(since: journalEpoch) }
        let crashing = JournalStore(directory: folder.url, faults: JournalFaults(crashBeforeRename: true))
        await #expect(throws: JournalError.self) { try await crashing.save(next) }

        // The new bytes sit in the temp file; the journal itself is the old one, byte for byte.
        let temp = JournalFile.temporaryPath(for: store.url(ofJournal: original.id).path, directory: folder.url.path)
        #expect(FileManager.default.fileExists(atPath: temp))
        #expect(try Data(contentsOf: store.url(ofJournal: original.id)) == before)
        #expect(try await store.load(id: original.id) == original)
        #expect(try await store.list().count == 1)

        // The next save (after the restart) replaces the stale temp file and succeeds.
        try await store.save(next)
        #expect(try await store.load(id: original.id) == next)
        #expect(!FileManager.default.fileExists(atPath: temp))
    }

    @Test func fullDiskIsAClearErrorAndKeepsTheOldJournal() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let original = sampleJournal()
        try await store.create(original)
        var next = original
        next.revision = 1
        let full = JournalStore(directory: folder.url, faults: JournalFaults(failWriteWith: ENOSPC))
        let path = store.url(ofJournal: original.id).path
        await #expect(throws: JournalError.diskFull(path: path)) { try await full.save(next) }
        #expect(try await store.load(id: original.id) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["\(original.id).json"])
    }

    @Test(arguments: ["not json at all", "{\"format\": 1, \"id\": \"x\"", ""])
    func corruptJournalIsReportedAndNeverOverwritten(content: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let journal = sampleJournal()
        let url = store.url(ofJournal: journal.id)
        try Data(content.utf8).write(to: url)

        await #expect { try await store.load(id: journal.id) } throws: { error in
            if case .corrupt(let path, _) = error as? JournalError { return path == url.path }
            return false
        }
        var next = journal
        next.revision = 5
        await #expect(throws: JournalError.self) { try await store.save(next) }
        await #expect(throws: JournalError.self) { try await store.latestUnfinished() }
        await #expect(throws: JournalError.alreadyExists(path: url.path)) { try await store.create(journal) }
        #expect(try Data(contentsOf: url) == Data(content.utf8))
    }

    @Test func journalFromANewerVersionIsRefused() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let url = store.url(ofJournal: "20300101-000000-0000")
        try Data("{\"format\": 99}".utf8).write(to: url)
        await #expect(throws: JournalError.unsupportedFormat(path: url.path, format: 99)) {
            try await store.load(id: "20300101-000000-0000")
        }
    }

    @Test func latestUnfinishedSkipsCompleteShootsAndPicksTheNewest() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        #expect(try await store.latestUnfinished() == nil)
        var complete = sampleJournal(id: "20251122-100000-0001")
        complete.status = .complete
        let older = sampleJournal(id: "20251121-100000-0001")
        let newer = sampleJournal(id: "20251122-090000-0001")
        for journal in [older, complete, newer] { try await store.create(journal) }
        #expect(try await store.latestUnfinished()?.id == newer.id)
        #expect(try await store.latest()?.id == complete.id)
        await #expect(throws: JournalError.notFound(id: "nope")) { try await store.load(id: "nope") }
    }

    @Test func aSnapshotOlderThanTheFileIsNotWritten() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        var journal = sampleJournal()
        try await store.create(journal)
        journal.revision = 3
        journal.status = .complete
        try await store.save(journal)
        var stale = journal
        stale.revision = 2
        stale.status = .inProgress
        try await store.save(stale)
        #expect(try await store.load(id: journal.id).status == .complete)
    }

    @Test func journalIsWrittenAsCompactSortedJSON() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let journal = sampleJournal()
        try await store.create(journal)
        let text = try String(contentsOf: store.url(ofJournal: journal.id), encoding: .utf8)
        #expect(!text.contains("\n"))
        #expect(text.contains("\"outputDirectory\":\"/photos/hdrshoot-20251122-083320\"")) // slashes unescaped
        let keys = [
            "camera", "createdAt", "format", "frames", "id", "log", "outputDirectory", "plan", "revision", "status"
        ]
        let offsets = keys.compactMap { text.range(of: "\"\($0)\":")?.lowerBound }
        #expect(offsets.count == keys.count)
        #expect(offsets == offsets.sorted())
    }

    @Test func aPrettyPrintedJournalOfAnEarlierVersionLoadsAndIsReplaced() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        var journal = sampleJournal()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(journal).write(to: store.url(ofJournal: journal.id))
        #expect(try await store.load(id: journal.id) == journal)
        journal.revision = 1
        journal.status = .complete
        try await store.save(journal)
        #expect(try await store.load(id: journal.id) == journal)
    }

    @Test func newIdentifiersSortByCreationTime() {
        let first = ShootJournal.makeID(at: Date(timeIntervalSince1970: 1_763_800_000))
        let second = ShootJournal.makeID(at: Date(timeIntervalSince1970: 1_763_800_001))
        #expect(first.hasPrefix("20251122-082640-"))
        #expect(first.count == 20)
        #expect(first < second)
    }
}
