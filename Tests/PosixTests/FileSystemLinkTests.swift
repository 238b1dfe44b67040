import Glibc
import Posix
import Testing

/// `FileSystem.symbolicLinkDestination` (`readlink`): where hdrshoot finds its own executable for `SSH_ASKPASS`.
@Suite struct FileSystemLinkTests {
    @Test func aLinkIsReadAsItsTargetAndAFileIsNotALink() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.replace(directory + "/hdrshoot", with: [0x7F, 0x45, 0x4C, 0x46])
            #expect(symlink(directory + "/hdrshoot", directory + "/link") == 0)
            #expect(try FileSystem.symbolicLinkDestination(directory + "/link") == directory + "/hdrshoot")
            #expect(throws: Errno(rawValue: EINVAL)) { try FileSystem.symbolicLinkDestination(directory + "/hdrshoot") }
            #expect(throws: Errno(rawValue: ENOENT)) { try FileSystem.symbolicLinkDestination(directory + "/none") }
        }
    }

    @Test func thisProcesssExecutableIsFoundThroughProc() throws {
        let path = try FileSystem.symbolicLinkDestination("/proc/self/exe")
        #expect(path.hasPrefix("/"))
        #expect(FileSystem.exists(path))
    }
}
