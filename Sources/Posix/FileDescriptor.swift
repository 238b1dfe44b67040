import Glibc

/// A file's permission bits (`0o600`), as `open` and `fchmod` take them.
package typealias FilePermissions = mode_t

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

    /// Standard input (descriptor 0).
    package static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    /// Standard output (descriptor 1).
    package static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    /// Standard error (descriptor 2).
    package static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// How a file is opened: for reading, writing or both (`O_RDONLY`, `O_WRONLY`, `O_RDWR`).
    package enum Access: Sendable, Hashable {
        /// `O_RDONLY`.
        case readOnly
        /// `O_WRONLY`.
        case writeOnly
        /// `O_RDWR`.
        case readWrite

        var flags: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// What else `open` does, so no caller above Posix needs Glibc's `O_*` constants.
    package struct OpenOptions: OptionSet, Sendable, Hashable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }

        /// Create the file when it does not exist (`O_CREAT`), with the permissions given.
        package static let create = OpenOptions(rawValue: O_CREAT)
        /// With `.create`: fail with `.fileExists` rather than open an existing file (`O_EXCL`).
        package static let exclusive = OpenOptions(rawValue: O_EXCL)
        /// Cut an existing file to length 0 (`O_TRUNC`).
        package static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// Every write goes to the end of the file (`O_APPEND`).
        package static let append = OpenOptions(rawValue: O_APPEND)
        /// Fail rather than follow `path` when it is a symbolic link (`O_NOFOLLOW`).
        package static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// Fail unless `path` is a directory (`O_DIRECTORY`): opened to fsync a folder.
        package static let directory = OpenOptions(rawValue: O_DIRECTORY)
        /// Never block in `open` or later reads (`O_NONBLOCK`): a FIFO with nothing in it reads as `.wouldBlock`.
        package static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
    }

    /// Opens `path` for `access` with `options` (`O_CLOEXEC` is always added), creating it with `permissions`
    /// (before the umask) when `options` has `.create`.
    package static func open(
        _ path: String, _ access: Access, _ options: OpenOptions = [], permissions: FilePermissions = 0
    ) throws(Errno) -> FileDescriptor {
        let flags = access.flags | options.rawValue | O_CLOEXEC
        let fd = try retryingInterrupts { Glibc.open(path, flags, permissions) }.get()
        return FileDescriptor(rawValue: fd)
    }

    // MARK: - Reading and writing

    /// Writes every byte of `bytes`, continuing after short writes.
    ///
    /// Inside a test that binds `FileSpace.current` (a simulated full disk), only the bytes it grants are
    /// written, then the call fails with `ENOSPC` as write(2) does on a full device.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        let granted = FileSpace.current.map { min(bytes.count, max(0, $0.grant(bytes.count))) } ?? bytes.count
        var offset = 0
        while offset < granted {
            offset += try retryingInterrupts {
                Glibc.write(rawValue, bytes.baseAddress! + offset, granted - offset)
            }.get()
        }
        if granted < bytes.count { throw .noSpace }
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

    /// Waits until the descriptor has something to read, an end of input or an error (`poll` for `POLLIN`), at
    /// most `timeout` (rounded to milliseconds); returns false when the time ran out first. A signal's `EINTR`
    /// is retried with the whole timeout again, which only lengthens a wait that is polled anyway.
    package func waitUntilReadable(timeout: Duration) throws(Errno) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        var poller = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        return try retryingInterrupts { poll(&poller, 1, max(milliseconds, 0)) }.get() > 0
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
    package func setPermissions(_ permissions: FilePermissions) throws(Errno) {
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
