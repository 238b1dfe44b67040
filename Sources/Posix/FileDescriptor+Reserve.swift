import Glibc

extension FileDescriptor {
    /// Reserves room on the device for the file's first `count` bytes without changing its size (fallocate(2)
    /// with `FALLOC_FL_KEEP_SIZE`), so writes up to `count` cannot fail for want of space, whatever else is
    /// written beside them meanwhile. Throws `ENOSPC` when the room is not there; returns false when the file
    /// system reserves nothing this way (`EOPNOTSUPP`: the caller has only the free space it read). Inside a test
    /// that binds `FileSpace.current`, the simulated device's free bytes decide.
    package func reserve(_ count: Int) throws(Errno) -> Bool {
        if let device = FileSpace.current {
            guard device.freeBytes() >= count else { throw .noSpace }
            return true
        }
        guard count > 0, let call = Self.fallocate else { return false }
        while call(rawValue, Self.keepSize, 0, off_t(count)) != 0 {
            let error = Errno.current
            if error == .interrupted { continue }
            if error.rawValue == EOPNOTSUPP || error.rawValue == ENOSYS { return false }
            throw error
        }
        return true
    }

    /// `FALLOC_FL_KEEP_SIZE` (linux/falloc.h): allocate without moving the end of the file.
    private static let keepSize: Int32 = 0x01

    /// glibc's fallocate(2) wrapper, looked up once: the Glibc module does not declare it (it needs _GNU_SOURCE).
    private static let fallocate: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32)? = {
        guard let symbol = dlsym(nil, "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32).self)
    }()
}
