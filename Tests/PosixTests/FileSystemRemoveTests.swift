import Glibc
import Posix
import TestSupport
import Testing

/// `FileSystem.removeEmptyDirectory`: `rmdir` on real folders, which never takes anything a person put there.
@Suite struct FileSystemRemoveTests {
    @Test func removesAnEmptyFolderAndLeavesAFolderWithAFileAndTheFileItself() throws {
        try withTemporaryDirectory { directory in
            _ = try FileSystem.makeDirectories(directory + "/empty", permissions: 0o755)
            try FileSystem.replace(directory + "/full/DSC00001.JPG", with: [0xFF, 0xD8], creatingFolder: true)
            try FileSystem.removeEmptyDirectory(directory + "/empty")
            #expect(!FileSystem.exists(directory + "/empty"))
            #expect(throws: Errno(rawValue: ENOTEMPTY)) { try FileSystem.removeEmptyDirectory(directory + "/full") }
            #expect(throws: Errno(rawValue: ENOTDIR)) {
                try FileSystem.removeEmptyDirectory(directory + "/full/DSC00001.JPG")
            }
            #expect(try FileSystem.readAll(directory + "/full/DSC00001.JPG") == [0xFF, 0xD8])
        }
    }
}
