#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An errno value from a failed system call (swift-system style: read at once, typed).
struct Errno: Error, Hashable {
    /// The raw errno.
    let rawValue: Int32

    /// The errno of the call that just failed.
    static var current: Errno { Errno(rawValue: errno) }
}

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

/// Blocking file primitives for the journal; call them only on the journal's own queue, never on the
/// cooperative pool. They throw only `Errno` (and `SimulatedCrash` when a test injects it).
package enum JournalFile {
    /// Retries a call while it fails with EINTR; returns its result or throws the errno.
    static func retryingInterrupts<T: BinaryInteger>(_ call: () -> T) throws -> T {
        while true {
            let result = call()
            if result >= 0 { return result }
            let error = Errno.current
            if error.rawValue != EINTR { throw error }
        }
    }

    /// Writes `bytes` to `path` atomically: temp file (0600), fsync, rename over `path`, fsync the directory.
    /// On failure the temp file is removed and `path` is untouched.
    static func writeAtomically(_ bytes: [UInt8], to path: String, directory: String, faults: JournalFaults) throws {
        let temp = temporaryPath(for: path, directory: directory)
        _ = unlink(temp)  // a stale temp file of an earlier crash
        do {
            let fd = try retryingInterrupts { open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
            defer { _ = close(fd) }
            _ = try retryingInterrupts { fchmod(fd, 0o600) }  // whatever the umask
            if let injected = faults.failWriteWith { throw Errno(rawValue: injected) }
            try writeAll(bytes, to: fd)
            _ = try retryingInterrupts { fsync(fd) }
        } catch {
            _ = unlink(temp)
            throw error
        }
        if faults.crashBeforeRename { throw SimulatedCrash() }
        do {
            _ = try retryingInterrupts { rename(temp, path) }
        } catch {
            _ = unlink(temp)
            throw error
        }
        try syncDirectory(directory)
    }

    /// The temp file beside `path`: hidden, so listings skip it.
    package static func temporaryPath(for path: String, directory: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? "journal"
        return directory + "/." + name + ".tmp"
    }

    /// Makes a rename in `directory` durable.
    static func syncDirectory(_ directory: String) throws {
        let fd = try retryingInterrupts { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { _ = close(fd) }
        _ = try retryingInterrupts { fsync(fd) }
    }

    /// Writes every byte, continuing after short writes.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = try bytes.withUnsafeBytes { buffer throws -> Int in
                let base = buffer.baseAddress! + offset
                let count = buffer.count - offset
                return try retryingInterrupts { write(fd, base, count) }
            }
            offset += written
        }
    }

    /// The whole content of `path`, read into one buffer sized by `fstat` (grown if the file grows meanwhile).
    static func readAll(_ path: String) throws -> [UInt8] {
        let fd = try retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
        defer { _ = close(fd) }
        var status = stat()
        _ = try retryingInterrupts { fstat(fd, &status) }
        // One spare byte so reaching the end needs no second buffer when the size was right.
        var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096))) }
            let got = try bytes.withUnsafeMutableBytes { buffer throws -> Int in
                try retryingInterrupts { read(fd, buffer.baseAddress! + count, buffer.count - count) }
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Whether something exists at `path`.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Creates `path` and its missing parents with mode 0700; returns whether `path` itself was created.
    @discardableResult
    static func makeDirectory(_ path: String) throws -> Bool {
        if exists(path) { return false }
        var prefix = path.hasPrefix("/") ? "" : "."
        var created = false
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if exists(prefix) { continue }
            if mkdir(prefix, 0o700) != 0 {
                let error = Errno.current
                if error.rawValue != EEXIST { throw error }
            }
            created = true
        }
        _ = try retryingInterrupts { chmod(path, 0o700) }  // mkdir honours the umask; the mode must not
        return created
    }

    /// The names in `directory`.
    static func list(_ directory: String) throws -> [String] {
        guard let dir = opendir(directory) else { throw Errno.current }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            names.append(name)
        }
        return names
    }
}
