import Glibc

/// An open file, its blocking calls wrapped once (swift-system style): `errno` read at once, `EINTR`
/// retried, failures thrown as a typed `Errno`.
///
/// A plain value, not an owner: whoever opens one closes it, usually in a `defer`. The calls block, so
/// callers run them on a queue or thread of their own, never on the cooperative pool.
package struct FileDescriptor: Sendable, Hashable {
    /// The raw descriptor number.
    package let rawValue: Int32

    /// Wraps a descriptor number opened elsewhere.
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// Opens `path` with `flags` (`O_WRONLY | O_CREAT | O_EXCL`, ...; `O_CLOEXEC` is always added), creating
    /// it with `permissions` (before the umask) when `O_CREAT` is among the flags.
    package static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0) throws(Errno) -> FileDescriptor {
        let fd = try retryingInterrupts { Glibc.open(path, flags | O_CLOEXEC, permissions) }.get()
        return FileDescriptor(rawValue: fd)
    }

    // MARK: - Reading and writing

    /// Writes every byte of `bytes`, continuing after short writes.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try retryingInterrupts {
                Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            }.get()
        }
    }

    /// Writes every byte of `bytes`, continuing after short writes.
    package func writeAll(_ bytes: [UInt8]) throws(Errno) {
        // `withUnsafeBytes` rethrows untyped, so the typed error travels out as a `Result`.
        try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try writeAll(raw) } }.get()
    }

    /// Writes every byte of `bytes` (a slice: no copy is made), continuing after short writes.
    package func writeAll(_ bytes: ArraySlice<UInt8>) throws(Errno) {
        try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try writeAll(raw) } }.get()
    }

    /// Writes `bytes` at `offset` without moving the file position (`pwrite`); returns how many were written.
    package func write(_ bytes: [UInt8], atOffset offset: Int) throws(Errno) -> Int {
        try bytes.withUnsafeBytes { raw in
            retryingInterrupts { Glibc.pwrite(rawValue, raw.baseAddress, raw.count, off_t(offset)) }
        }.get()
    }

    /// Reads up to `buffer.count` bytes at the file position; 0 means the end of the file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingInterrupts { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// Reads up to `buffer.count` bytes at `offset` without moving the file position (`pread`); 0 at the end.
    package func read(into buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int) throws(Errno) -> Int {
        try retryingInterrupts { Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }.get()
    }

    // MARK: - Metadata and durability

    /// The file's size in bytes (`fstat`).
    package func size() throws(Errno) -> Int {
        var status = stat()
        _ = try retryingInterrupts { fstat(rawValue, &status) }.get()
        return max(Int(status.st_size), 0)
    }

    /// Sets the file's permission bits, whatever the umask was at creation (`fchmod`).
    package func setPermissions(_ permissions: mode_t) throws(Errno) {
        _ = try retryingInterrupts { fchmod(rawValue, permissions) }.get()
    }

    /// Cuts (or extends) the file to `size` bytes (`ftruncate`).
    package func truncate(to size: Int) throws(Errno) {
        _ = try retryingInterrupts { ftruncate(rawValue, off_t(size)) }.get()
    }

    /// Makes what was written durable: returns once the kernel has the data on the device (`fsync`).
    package func sync() throws(Errno) {
        _ = try retryingInterrupts { fsync(rawValue) }.get()
    }

    /// Takes an advisory whole-file lock without waiting (`flock` with `LOCK_NB`): shared or exclusive.
    ///
    /// Throws `.wouldBlock` while another open file description holds a conflicting lock. The kernel drops
    /// the lock when the descriptor closes, so a process that dies never leaves it behind.
    package func tryLock(exclusive: Bool) throws(Errno) {
        _ = try retryingInterrupts { flock(rawValue, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) }.get()
    }

    /// Closes the descriptor; an error (`EIO` of a delayed write) is thrown, yet the number is released.
    ///
    /// Never retried: on Linux `close` releases the number even when interrupted, and a retry could close a
    /// number another thread has just been given. `EINTR` therefore counts as closed.
    package func close() throws(Errno) {
        if Glibc.close(rawValue) == 0 { return }
        let error = Errno.current
        if error != .interrupted { throw error }
    }

    /// Closes the descriptor when its outcome no longer matters (after an earlier failure, or when discarding).
    package func closeIgnoringErrors() {
        _ = Glibc.close(rawValue)
    }
}
