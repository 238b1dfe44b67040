import Foundation

/// A fresh, empty folder under the system temporary directory, named `<prefix>-<UUID>`; the test removes it
/// with `remove()` (or by its `url`) when it ends.
package struct TemporaryFolder: Sendable {
    /// The folder.
    package let url: URL

    /// Creates the folder.
    package init(prefix: String = "hdrshoot-tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Deletes the folder and everything in it.
    package func remove() { try? FileManager.default.removeItem(at: url) }
}
