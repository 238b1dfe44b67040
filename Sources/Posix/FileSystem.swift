import Glibc

/// Calls on paths (rename, link, directories), wrapped once like `FileDescriptor`'s: `errno` read at once,
/// `EINTR` retried, failures thrown as a typed `Errno`.
///
/// They block; callers run them on a queue or thread of their own, never on the cooperative pool.
package enum FileSystem {
    /// Whether something exists at `path`.
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether two paths name the same file (one inode: a hard link), not merely two files of the same name.
    package static func isSameFile(_ lhs: String, _ rhs: String) -> Bool {
        var left = stat()
        var right = stat()
        guard stat(lhs, &left) == 0, stat(rhs, &right) == 0 else { return false }
        return left.st_ino == right.st_ino && left.st_dev == right.st_dev
    }

    /// Renames `source` to `target` in one step, replacing a file at `target` (`rename`).
    package static func rename(_ source: String, to target: String) throws(Errno) {
        _ = try retryingInterrupts { Glibc.rename(source, target) }.get()
    }

    /// Gives the file at `source` a second name, `target` (`link`); throws `.fileExists` rather than replace one.
    package static func link(_ source: String, to target: String) throws(Errno) {
        _ = try retryingInterrupts { Glibc.link(source, target) }.get()
    }

    /// Removes the name `path` (`unlink`).
    package static func unlink(_ path: String) throws(Errno) {
        _ = try retryingInterrupts { Glibc.unlink(path) }.get()
    }

    /// Sets the permission bits of `path`, whatever the umask was at creation (`chmod`).
    package static func setPermissions(_ path: String, _ permissions: mode_t) throws(Errno) {
        _ = try retryingInterrupts { chmod(path, permissions) }.get()
    }

    /// Makes the names in `directory` durable (a create, rename or link there survives a power cut): `fsync`
    /// of the directory itself.
    package static func syncDirectory(_ directory: String) throws(Errno) {
        let folder = try FileDescriptor.open(directory, .readOnly, .directory)
        defer { folder.closeIgnoringErrors() }
        try folder.sync()
    }

    /// Creates `path` and its missing parents with `permissions`, then sets exactly those bits on `path`
    /// (`mkdir` honours the umask); returns whether `path` itself was created.
    @discardableResult
    package static func makeDirectories(_ path: String, permissions: mode_t) throws(Errno) -> Bool {
        if exists(path) { return false }
        var prefix = path.hasPrefix("/") ? "" : "."
        var created = false
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if exists(prefix) { continue }
            // A parent made by someone else in the meantime is fine.
            switch retryingInterrupts({ mkdir(prefix, permissions) }) {
            case .success, .failure(.fileExists): break
            case let .failure(error): throw error
            }
            created = true
        }
        try setPermissions(path, permissions)
        return created
    }

    /// The size in bytes and the last modification (seconds since 1970) of the regular file at `path` (`stat`).
    package static func fileStatus(_ path: String) throws(Errno) -> (size: Int, modified: Double, isRegular: Bool) {
        var info = stat()
        _ = try retryingInterrupts { stat(path, &info) }.get()
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return (Int(info.st_size), modified, (info.st_mode & S_IFMT) == S_IFREG)
    }

    /// The permission bits (`0o600`) and the owner's user id of whatever is at `path` (`stat`, links followed).
    package static func permissions(of path: String) throws(Errno) -> (permissions: mode_t, owner: uid_t) {
        var info = stat()
        _ = try retryingInterrupts { stat(path, &info) }.get()
        return (info.st_mode & 0o7777, info.st_uid)
    }

    /// Creates a named pipe at `path` with exactly `permissions` (`mkfifo`, then `chmod` past the umask).
    package static func makeFIFO(_ path: String, permissions: mode_t) throws(Errno) {
        _ = try retryingInterrupts { mkfifo(path, permissions) }.get()
        try setPermissions(path, permissions)
    }

    /// Where the symbolic link at `path` points (`readlink`), as the link holds it; a target longer than
    /// `PATH_MAX` is `ENAMETOOLONG`.
    package static func symbolicLinkDestination(_ path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count)
        guard count >= 0 else { throw Errno.current }
        guard count < buffer.count else { throw Errno(rawValue: ENAMETOOLONG) }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in `directory` (with `.` and `..`).
    package static func contentsOfDirectory(_ directory: String) throws(Errno) -> [String] {
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

    /// The whole content of `path`, read into one buffer sized by `fstat` (grown if the file grows meanwhile).
    package static func readAll(_ path: String) throws(Errno) -> [UInt8] {
        let file = try FileDescriptor.open(path, .readOnly)
        defer { file.closeIgnoringErrors() }
        // One spare byte so reaching the end needs no second buffer when the size was right.
        var bytes = [UInt8](repeating: 0, count: try file.size() + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: [UInt8](repeating: 0, count: max(bytes.count, 4096))) }
            let got = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in
                    try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                }
            }.get()
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        return bytes
    }
}
