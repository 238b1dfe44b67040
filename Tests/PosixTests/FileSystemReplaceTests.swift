import Glibc
import Posix
import TestSupport
import Testing

/// `FileSystem.replace`: the one durable, atomic replacement of a file, on real files.
@Suite("FileSystem.replace: temporary file, fsync, rename, fsync of the folder")
struct FileSystemReplaceTests {
    struct Crash: Error {}

    @Test func replacesTheWholeFileWithItsPermissionsAndLeavesNoTemporaryFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/deep/er/merge.sh"
            try FileSystem.replace(path, with: Array("old text that is longer\n".utf8), creatingFolder: true)
            try FileSystem.replace(path, with: Array("#!/bin/sh\n".utf8), permissions: 0o755)
            #expect(try FileSystem.readAll(path) == Array("#!/bin/sh\n".utf8))
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o755)
            #expect(try FileSystem.contentsOfDirectory(directory + "/deep/er").sorted() == [".", "..", "merge.sh"])
        }
    }

    @Test func aFailureLeavesTheOldFileAndNoTemporaryFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/manifest.json"
            try FileSystem.replace(path, with: Array("{}".utf8))
            #expect(throws: Crash.self) {
                try FileSystem.replace(path, with: Array("{\"new\": 1}".utf8), beforeRename: { throw Crash() })
            }
            #expect(throws: Errno.noSpace) {
                try FileSystem.replace(path, with: Array("{\"new\": 2}".utf8), beforeWrite: { throw Errno.noSpace })
            }
            #expect(try FileSystem.readAll(path) == Array("{}".utf8))
            #expect(try FileSystem.contentsOfDirectory(directory).sorted() == [".", "..", "manifest.json"])
            #expect(throws: Errno.noSuchFileOrDirectory) {
                try FileSystem.replace(directory + "/missing/file", with: [1])
            }
        }
    }
}
