import Glibc
import Posix
import Synchronization
import TestSupport
import Testing

/// The room on a device (`FileSpace`): statvfs in the field, a bound simulated device in a test, and writes on a
/// device without room failing with ENOSPC as write(2) does.
@Suite struct FileSpaceTests {
    /// A device with a fixed room that shrinks as bytes are granted.
    final class Device: FileSpace.Device {
        private let left: Mutex<Int>
        init(room: Int) { left = Mutex(room) }
        func grant(_ count: Int) -> Int {
            left.withLock { left in
                let granted = min(count, left)
                left -= granted
                return granted
            }
        }
        func freeBytes() -> Int { left.withLock { $0 } }
    }

    @Test func aWriteOnAFullDeviceKeepsWhatFitAndFailsWithNoSpace() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/image.jpg"
            let file = try FileDescriptor.open(path, .writeOnly, [.create, .exclusive], permissions: 0o600)
            defer { file.closeIgnoringErrors() }
            let device = Device(room: 1_000)
            let bytes = [UInt8](repeating: 0xAB, count: 4_096)
            FileSpace.$current.withValue(device) {
                #expect(FileSpace.available(near: directory) == 1_000)
                #expect(throws: Errno.noSpace) { try file.writeAll(bytes) }
                #expect(FileSpace.available(near: directory) == 0)
                // Nothing more fits: the next write fails before a byte is written.
                #expect(throws: Errno.noSpace) { try file.writeAll([1]) }
            }
            #expect(try FileSystem.readAll(path) == Array(bytes.prefix(1_000)))
            #expect(Errno.noSpace.description == "No space left on device")
        }
    }

    @Test func roomIsReservedWithoutChangingTheFilesSizeAndRefusedWhenTheDeviceHasNone() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/image.jpg"
            let file = try FileDescriptor.open(path, .writeOnly, [.create, .exclusive], permissions: 0o600)
            defer { file.closeIgnoringErrors() }
            // A real file system: reserved (Linux's tmpfs and ext4 both can), the size still 0, then written.
            #expect(try file.reserve(64 << 10))
            #expect(try file.size() == 0)
            try file.writeAll([UInt8](repeating: 7, count: 1_000))
            #expect(try file.size() == 1_000)
            let device = Device(room: 500)
            FileSpace.$current.withValue(device) {
                #expect(throws: Errno.noSpace) { try file.reserve(501) }
                #expect((try? file.reserve(500)) == true)
            }
        }
    }

    @Test func theRoomOfAFolderNotYetMadeIsTheRoomOfTheFolderAboveIt() throws {
        try withTemporaryDirectory { directory in
            let here = try #require(FileSpace.available(near: directory))
            #expect(here > 0)
            let below = try #require(FileSpace.available(near: directory + "/set-01/not-yet"))
            // The same device (other writers may move its figure a little between the two calls).
            #expect(abs(below - here) < 64 << 20, "\(below) vs \(here)")
            var info = statvfs()
            #expect(statvfs(directory, &info) == 0)
            #expect(abs(here - Int(info.f_bavail) * Int(info.f_frsize)) < 64 << 20)
        }
    }
}
