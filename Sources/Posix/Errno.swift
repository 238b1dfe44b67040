import Glibc

/// A POSIX error number read from `errno` right after the failing system call.
///
/// Wrapping the number keeps `errno` from being read late (after another call has overwritten it) and
/// lets callers match on named cases such as `.connectionRefused` without importing Glibc. It is the one
/// errno type of the package: sockets, files and netlink all report through it.
package struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw value of `errno`.
    package let rawValue: Int32

    /// Wraps a raw `errno` value.
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The current thread's `errno`; call only directly after a failed system call.
    package static var current: Errno { Errno(rawValue: errno) }

    /// The system's text for the error, e.g. "Connection refused".
    package var description: String { String(cString: strerror(rawValue)) }

    /// `EINTR`: a signal interrupted the call; the wrappers retry it.
    package static let interrupted = Errno(rawValue: EINTR)
    /// `EAGAIN`/`EWOULDBLOCK`: a non-blocking call would have had to wait.
    package static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `EINPROGRESS`: a non-blocking connect has started.
    package static let inProgress = Errno(rawValue: EINPROGRESS)
    /// `ECONNREFUSED`: nothing listens at the address.
    package static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    /// `ECONNRESET`: the peer reset the connection.
    package static let connectionReset = Errno(rawValue: ECONNRESET)
    /// `EPIPE`: the peer closed its side and we wrote.
    package static let brokenPipe = Errno(rawValue: EPIPE)
    /// `ENETUNREACH`: no route to the network.
    package static let networkUnreachable = Errno(rawValue: ENETUNREACH)
    /// `EHOSTUNREACH`: no route to the host.
    package static let hostUnreachable = Errno(rawValue: EHOSTUNREACH)
    /// `ETIMEDOUT`: the kernel gave up (e.g. SYN retries exhausted).
    package static let timedOut = Errno(rawValue: ETIMEDOUT)
    /// `EADDRINUSE`: the address is already bound.
    package static let addressInUse = Errno(rawValue: EADDRINUSE)
    /// `EADDRNOTAVAIL`: the address is not available on this host (e.g. IPv6 disabled).
    package static let addressNotAvailable = Errno(rawValue: EADDRNOTAVAIL)
    /// `EAFNOSUPPORT`: the address family is not supported (e.g. no IPv6).
    package static let addressFamilyNotSupported = Errno(rawValue: EAFNOSUPPORT)
    /// `EBADF`: the descriptor is not open.
    package static let badFileDescriptor = Errno(rawValue: EBADF)
    /// `ECONNABORTED`: a queued connection was reset before `accept` took it.
    package static let connectionAborted = Errno(rawValue: ECONNABORTED)
    /// `EPERM`: the operation is not permitted.
    package static let notPermitted = Errno(rawValue: EPERM)
    /// `ENOENT`: no such file or directory (generic netlink also says this for an unknown family).
    package static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// `EIO`: a low-level input/output error.
    package static let ioError = Errno(rawValue: EIO)
    /// `EACCES`: permission denied.
    package static let permissionDenied = Errno(rawValue: EACCES)
    /// `EEXIST`: the file exists (an `O_EXCL` open or a `link` found the name taken).
    package static let fileExists = Errno(rawValue: EEXIST)
    /// `ENODEV`: no such device (nl80211 for an interface that is not wireless).
    package static let noSuchDevice = Errno(rawValue: ENODEV)
    /// `EINVAL`: invalid argument.
    package static let invalidArgument = Errno(rawValue: EINVAL)
    /// `ENOSPC`: no space left on the device.
    package static let noSpace = Errno(rawValue: ENOSPC)
    /// `EROFS`: the file system is read-only.
    package static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// `EDQUOT`: the disk quota is exhausted.
    package static let diskQuotaExceeded = Errno(rawValue: EDQUOT)
    /// `ENOBUFS`: no buffer space; on a netlink socket, multicast messages were dropped.
    package static let noBufferSpace = Errno(rawValue: ENOBUFS)
    /// `EOPNOTSUPP`: the operation is not supported.
    package static let notSupported = Errno(rawValue: EOPNOTSUPP)

    /// The conventional symbolic name (`EAGAIN`), or `errno N` for a number without one here.
    ///
    /// For developer-facing text such as netlink failures; people get `description`.
    package var name: String {
        switch rawValue {
        case EPERM: return "EPERM"
        case ENOENT: return "ENOENT"
        case EINTR: return "EINTR"
        case EIO: return "EIO"
        case EBADF: return "EBADF"
        case EAGAIN: return "EAGAIN"
        case EACCES: return "EACCES"
        case EBUSY: return "EBUSY"
        case EEXIST: return "EEXIST"
        case ENODEV: return "ENODEV"
        case EINVAL: return "EINVAL"
        case ENOSPC: return "ENOSPC"
        case EROFS: return "EROFS"
        case EPIPE: return "EPIPE"
        case EPROTONOSUPPORT: return "EPROTONOSUPPORT"
        case EOPNOTSUPP: return "EOPNOTSUPP"
        case EAFNOSUPPORT: return "EAFNOSUPPORT"
        case EADDRINUSE: return "EADDRINUSE"
        case EADDRNOTAVAIL: return "EADDRNOTAVAIL"
        case ENETUNREACH: return "ENETUNREACH"
        case ECONNABORTED: return "ECONNABORTED"
        case ECONNRESET: return "ECONNRESET"
        case ENOBUFS: return "ENOBUFS"
        case ETIMEDOUT: return "ETIMEDOUT"
        case ECONNREFUSED: return "ECONNREFUSED"
        case EHOSTUNREACH: return "EHOSTUNREACH"
        case EINPROGRESS: return "EINPROGRESS"
        case EDQUOT: return "EDQUOT"
        default: return "errno \(rawValue)"
        }
    }
}

/// Runs a system call that returns -1 on failure, reading `errno` at once and retrying `EINTR`.
///
/// The swift-system pattern: every raw call goes through here exactly once, so no call site can
/// forget the EINTR loop or read a stale `errno`.
@inline(__always)
package func retryingInterrupts<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
    while true {
        let value = body()
        if value != -1 { return .success(value) }
        let error = Errno.current
        if error == .interrupted { continue }
        return .failure(error)
    }
}

/// Like `retryingInterrupts`, reporting a failure as `SocketFailure.system` with the call's name.
@inline(__always)
package func systemCall<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws(SocketFailure) -> T {
    switch retryingInterrupts(body) {
    case let .success(value): return value
    case let .failure(error): throw .system(error, call: name)
    }
}
