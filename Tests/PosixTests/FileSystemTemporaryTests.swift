import Glibc
import Posix
import Testing

/// `FileSystem.makeTemporaryDirectory` and `removeTemporaryDirectory` on the real temporary folder: a new folder
/// of this user's only each time, taken away with the files in it.
@Suite struct FileSystemTemporaryTests {
    @Test func eachCallMakesANewPrivateFolderThatIsTakenAwayWithItsFiles() throws {
        let first = try FileSystem.makeTemporaryDirectory(prefix: "hdrshoot-posix-test-")
        let second = try FileSystem.makeTemporaryDirectory(prefix: "hdrshoot-posix-test-")
        defer {
            FileSystem.removeTemporaryDirectory(first)
            FileSystem.removeTemporaryDirectory(second)
        }
        #expect(first != second)
        for folder in [first, second] {
            let name = try #require(folder.split(separator: "/").last)
            #expect(name.hasPrefix("hdrshoot-posix-test-") && name.count == "hdrshoot-posix-test-".count + 6)
            #expect(try FileSystem.permissions(of: folder).permissions & 0o777 == 0o700)
            #expect(try FileSystem.permissions(of: folder).owner == getuid())
        }
        try FileSystem.replace(first + "/device-info.bin", with: [0x01, 0x02])
        try FileSystem.replace(first + "/properties.bin", with: [0x03])
        FileSystem.removeTemporaryDirectory(first)
        #expect(!FileSystem.exists(first))
        #expect(FileSystem.exists(second), "only the folder named is taken away")
    }
}
