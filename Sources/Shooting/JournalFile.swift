import Posix

/// Faults a test can inject into journal writes, to prove what a crash or a full disk leaves behind.
package struct JournalFaults: Sendable {
    /// Fail the temp-file write with this errno (e.g. `ENOSPC`).
    package var failWriteWith: Int32?
    /// Stop after the temp file is written and synced, before the rename, as a crash would.
    package var crashBeforeRename: Bool

    /// No faults.
    package static let none = JournalFaults(failWriteWith: nil, crashBeforeRename: false)

    /// Creates a fault set.
    package init(failWriteWith: Int32? = nil, crashBeforeRename: Bool = false) {
        self.failWriteWith = failWriteWith
        self.crashBeforeRename = crashBeforeRename
    }
}

/// Thrown by the `crashBeforeRename` fault: the process "died" with the temp file written.
package struct SimulatedCrash: Error {}

/// The journal's atomic write, on Posix's file calls; call it only on the journal's own queue, never on the
/// cooperative pool. It throws only `Errno` (and `SimulatedCrash` when a test injects it).
package enum JournalFile {
    /// Writes `bytes` to `path` atomically: temp file (0600), fsync, rename over `path`, fsync the directory.
    /// On failure the temp file is removed and `path` is untouched.
    static func writeAtomically(_ bytes: [UInt8], to path: String, directory: String, faults: JournalFaults) throws {
        try FileSystem.replace(
            path, with: bytes, permissions: 0o600, temporary: temporaryPath(for: path, directory: directory),
            beforeWrite: { if let injected = faults.failWriteWith { throw Errno(rawValue: injected) } },
            beforeRename: { if faults.crashBeforeRename { throw SimulatedCrash() } })
    }

    /// The temp file beside `path`: hidden, so listings skip it.
    package static func temporaryPath(for path: String, directory: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? "journal"
        return directory + "/." + name + ".tmp"
    }
}
