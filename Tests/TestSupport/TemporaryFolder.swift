import Foundation

/// A fresh, empty folder under the tests' scratch folder (`scratch`), named `<prefix>-<UUID>`; the test removes it
/// with `remove()` (or by its `url`) when it ends.
package struct TemporaryFolder: Sendable {
    /// The folder.
    package let url: URL

    /// Where tests and their children write files: /dev/shm (tmpfs) when this machine has one we can write,
    /// else the system temporary folder.
    ///
    /// hdrshoot writes its journal, manifests and images durably, fsync of the file and of its folder, as in
    /// the field; a test exercises every one of those calls, but on tmpfs they do not wait for a disk shared
    /// with other builds (ShootingTests, SessionLogTests, EndToEndShootTests and OutputFolderTests: 26.6 s on
    /// ext4, 16.3 s on tmpfs, serial at load 10). What happens to unsynced data at a crash is tested on
    /// SimulatedDisk (Tests/SimulationTests), never on the real disk.
    package static let scratch: URL = {
        let shm = "/dev/shm"
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: shm, isDirectory: &isFolder), isFolder.boolValue,
            FileManager.default.isWritableFile(atPath: shm)
        {
            return URL(fileURLWithPath: shm, isDirectory: true)
        }
        return FileManager.default.temporaryDirectory
    }()

    /// Creates the folder.
    package init(prefix: String = "hdrshoot-tests") throws {
        url = Self.scratch.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Deletes the folder and everything in it.
    package func remove() { try? FileManager.default.removeItem(at: url) }
}
