import Glibc

extension FileSystem {
    /// Removes the empty folder `path` (`rmdir`): a folder with anything in it, or a file, is left and its errno
    /// thrown, so nothing a person put there is ever removed.
    package static func removeEmptyDirectory(_ path: String) throws(Errno) {
        _ = try retryingInterrupts { Glibc.rmdir(path) }.get()
    }
}
