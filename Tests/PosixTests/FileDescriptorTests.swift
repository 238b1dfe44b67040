import Glibc
import Posix
import TestSupport
import Testing

@Suite("File calls: write, fsync, rename, link and lock real files, each failure a typed Errno")
struct FileDescriptorTests {
    @Test func writesSyncsAndRenamesAFileIntoPlace() throws {
        try withTemporaryDirectory { directory in
            let temp = directory + "/.notes.tmp"
            let final = directory + "/notes"
            let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
            let file = try FileDescriptor.open(temp, .writeOnly, [.create, .exclusive], permissions: 0o600)
            try file.writeAll(bytes)
            try file.sync()
            try file.close()
            try FileSystem.rename(temp, to: final)
            try FileSystem.syncDirectory(directory)
            #expect(try FileSystem.readAll(final) == bytes)
            #expect(!FileSystem.exists(temp))
            #expect(try FileSystem.contentsOfDirectory(directory).filter { !$0.hasPrefix(".") } == ["notes"])
        }
    }

    @Test func anExclusiveCreateOfAnExistingFileSaysItExists() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/taken"
            try FileDescriptor.open(path, .writeOnly, [.create, .exclusive], permissions: 0o600).close()
            #expect(throws: Errno.fileExists) {
                try FileDescriptor.open(path, .writeOnly, [.create, .exclusive], permissions: 0o600)
            }
        }
    }

    @Test func aLinkNeverReplacesAnExistingName() throws {
        try withTemporaryDirectory { directory in
            let first = directory + "/first"
            let second = directory + "/second"
            let a = try FileDescriptor.open(first, .writeOnly, .create, permissions: 0o600)
            try a.writeAll([1])
            try a.close()
            let b = try FileDescriptor.open(second, .writeOnly, .create, permissions: 0o600)
            try b.writeAll([2])
            try b.close()
            #expect(throws: Errno.fileExists) { try FileSystem.link(first, to: second) }
            #expect(try FileSystem.readAll(second) == [2])
            try FileSystem.link(first, to: directory + "/third")
            #expect(FileSystem.isSameFile(first, directory + "/third"))
            #expect(!FileSystem.isSameFile(first, second))
        }
    }

    @Test func aWriteToAFullDeviceSaysNoSpace() throws {
        // /dev/full accepts the open and fails every write with ENOSPC, as a full disk does.
        let full = try FileDescriptor.open("/dev/full", .writeOnly)
        defer { full.closeIgnoringErrors() }
        #expect(throws: Errno.noSpace) { try full.writeAll([1, 2, 3]) }
    }

    @Test func aWriteToAFileOpenedForReadingIsRefused() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/read-only"
            try FileDescriptor.open(path, .writeOnly, .create, permissions: 0o400).close()
            let file = try FileDescriptor.open(path, .readOnly)
            defer { file.closeIgnoringErrors() }
            #expect(throws: Errno.badFileDescriptor) { try file.writeAll([1]) }
        }
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.readAll("/nonexistent-\(getpid())/journal.json") }
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.syncDirectory("/nonexistent-\(getpid())") }
    }

    @Test func makesMissingParentsWithExactlyTheAskedPermissions() throws {
        try withTemporaryDirectory { directory in
            let nested = directory + "/a/b/c"
            let previousMask = umask(0o077)
            defer { umask(previousMask) }
            let createdFirst = try FileSystem.makeDirectories(nested, permissions: 0o750)
            let createdAgain = try FileSystem.makeDirectories(nested, permissions: 0o750)
            #expect(createdFirst)
            #expect(!createdAgain)
            var status = stat()
            #expect(stat(nested, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o750)
        }
    }

    @Test func aSecondExclusiveLockIsRefusedUntilTheFirstCloses() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/lock"
            // flock locks belong to an open file description, so two opens conflict even in one process.
            let holder = try FileDescriptor.open(path, .readWrite, .create, permissions: 0o600)
            try holder.tryLock(exclusive: true)
            let contender = try FileDescriptor.open(path, .readOnly)
            defer { contender.closeIgnoringErrors() }
            #expect(throws: Errno.wouldBlock) { try contender.tryLock(exclusive: false) }
            try holder.close()
            try contender.tryLock(exclusive: false)
        }
    }

    @Test func writesAndReadsAtAnOffsetAndTruncates() throws {
        try withTemporaryDirectory { directory in
            let file = try FileDescriptor.open(directory + "/pid", .readWrite, .create, permissions: 0o600)
            defer { file.closeIgnoringErrors() }
            try file.writeAll(Array("123456789\n".utf8))
            try file.truncate(to: 0)
            #expect(try file.size() == 0)
            #expect(try file.write(Array("42\n".utf8), atOffset: 0) == 3)
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = try buffer.withUnsafeMutableBytes { raw in try file.read(into: raw, atOffset: 0) }
            #expect(Array(buffer[..<count]) == Array("42\n".utf8))
        }
    }
}

/// Runs `body` with a fresh folder (TestSupport's `TemporaryFolder`) and removes it afterwards.
func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
    let folder = try TemporaryFolder(prefix: "hdrshoot-posix")
    defer { folder.remove() }
    try body(folder.url.path)
}
