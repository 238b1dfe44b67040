import Exposure
import Foundation
import Glibc
import Shooting
import TestSupport
import Testing

/// A save skips decoding only a file that is byte for byte the one it wrote; a file changed behind its back
/// (same size, same inode, mtime put back) is decoded, and never overwritten when it is corrupt.
@Suite struct JournalWriteMemoTests {
    @Test func knowsOnlyTheExactBytesLastWrittenToAPath() {
        let memo = JournalWriteMemo()
        let bytes = Array("{\"revision\":7}".utf8)
        #expect(memo.revision(ifWritten: bytes, at: "/state/a.json") == nil)
        memo.remember(bytes, revision: 7, at: "/state/a.json")
        #expect(memo.revision(ifWritten: bytes, at: "/state/a.json") == 7)
        #expect(memo.revision(ifWritten: bytes, at: "/state/b.json") == nil)
        #expect(memo.revision(ifWritten: Array("{\"revision\":8}".utf8), at: "/state/a.json") == nil) // same size
        #expect(memo.revision(ifWritten: Array(bytes.dropLast()), at: "/state/a.json") == nil)
        #expect(memo.revision(ifWritten: [], at: "/state/a.json") == nil)
        memo.remember(Array("{}".utf8), revision: 8, at: "/state/a.json")
        #expect(memo.revision(ifWritten: bytes, at: "/state/a.json") == nil)
    }

    @Test func staysBoundedAcrossManyPaths() {
        let memo = JournalWriteMemo()
        let bytes = Array("{}".utf8)
        for index in 0..<(JournalWriteMemo.capacity * 3) {
            memo.remember(bytes, revision: index, at: "/state/\(index).json")
        }
        let remembered = (0..<(JournalWriteMemo.capacity * 3)).filter {
            memo.revision(ifWritten: bytes, at: "/state/\($0).json") != nil
        }
        #expect(remembered.count <= JournalWriteMemo.capacity)
        #expect(remembered.contains(JournalWriteMemo.capacity * 3 - 1))
    }

    @Test func corruptBytesWrittenInPlaceWithTheMtimePutBackAreNeverOverwritten() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        var journal = sampleJournal()
        try await store.create(journal)
        journal.revision = 1
        try await store.save(journal) // the store now knows the file's bytes
        let path = store.url(ofJournal: journal.id).path

        let before = try fileStamp(path)
        try overwriteInPlace(path, at: 0, with: "X") // same inode, same size: no longer JSON
        try restoreTimes(path, from: before)
        let after = try fileStamp(path)
        #expect(after.inode == before.inode && after.size == before.size && after.mtime == before.mtime)
        let tampered = try Data(contentsOf: URL(fileURLWithPath: path))

        journal.revision = 2
        await #expect { try await store.save(journal) } throws: { error in
            if case .corrupt(let corruptPath, _) = error as? JournalError { return corruptPath == path }
            return false
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == tampered)
    }

    @Test func aNewerRevisionWrittenInPlaceIsNotOverwrittenByAnOlderSnapshot() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        var journal = sampleJournal()
        try await store.create(journal)
        journal.revision = 1
        try await store.save(journal)
        let path = store.url(ofJournal: journal.id).path

        // Another writer's revision 9, same size and mtime as our revision 1: only its bytes tell.
        let before = try fileStamp(path)
        let content = try Data(contentsOf: URL(fileURLWithPath: path))
        let key = try #require(content.range(of: Data("\"revision\"".utf8)))
        let digit = try #require(content[key.upperBound...].firstIndex { (0x30...0x39).contains($0) })
        #expect(content[digit] == UInt8(ascii: "1"))
        try overwriteInPlace(path, at: digit, with: "9")
        try restoreTimes(path, from: before)
        #expect(try fileStamp(path).mtime == before.mtime)

        journal.revision = 2
        journal.status = .complete
        try await store.save(journal) // a snapshot older than the file: skipped
        let stored = try await store.load(id: journal.id)
        #expect(stored.revision == 9)
        #expect(stored.status == .inProgress)
    }

    @Test func aCorruptFileRenamedOverOursIsNeverOverwritten() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        var journal = sampleJournal()
        try await store.create(journal)
        let path = store.url(ofJournal: journal.id).path
        let ours = try Data(contentsOf: URL(fileURLWithPath: path))

        var garbage = ours
        garbage[garbage.startIndex] = UInt8(ascii: "X")
        let other = folder.url.appendingPathComponent("other").path
        try garbage.write(to: URL(fileURLWithPath: other))
        #expect(rename(other, path) == 0)

        journal.revision = 1
        await #expect(throws: JournalError.self) { try await store.save(journal) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func ourOwnFileIsReplacedSaveAfterSave() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        var journal = sampleJournal()
        try await store.create(journal)
        for revision in 1...5 {
            journal.revision = revision
            journal.updateFrame(at: ShootPosition(set: 1, frame: revision)) {
                $0.state = .inFlight(since: journalEpoch)
            }
            try await store.save(journal)
            #expect(try await store.load(id: journal.id) == journal)
        }
        var stale = journal
        stale.revision = 4
        stale.status = .complete
        try await store.save(stale)
        #expect(try await store.load(id: journal.id) == journal)
    }
}

/// The identity and times `stat` reports for a file.
private struct FileStamp {
    var device: UInt
    var inode: UInt
    var size: Int
    var times: [timespec]
    /// Seconds and nanoseconds of the modification time (`st_mtim`).
    var mtime: [Int] { [times[1].tv_sec, times[1].tv_nsec] }
}

private func fileStamp(_ path: String) throws -> FileStamp {
    var status = stat()
    guard stat(path, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return FileStamp(
        device: UInt(status.st_dev), inode: UInt(status.st_ino), size: Int(status.st_size),
        times: [status.st_atim, status.st_mtim])
}

/// Writes `text` at `offset` without truncating or replacing the file (same inode, same size).
private func overwriteInPlace(_ path: String, at offset: Int, with text: String) throws {
    let fd = open(path, O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    guard pwrite(fd, bytes, bytes.count, off_t(offset)) == bytes.count else { throw POSIXError(.EIO) }
}

/// Puts the access and modification times of `stamp` back, as `touch -d` would.
private func restoreTimes(_ path: String, from stamp: FileStamp) throws {
    guard utimensat(AT_FDCWD, path, stamp.times, 0) == 0 else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
