import ByteCoding

/// A C `errno` value, read once right after the failing call (swift-system style).
package struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    /// The raw `errno` number (positive).
    package let rawValue: Int32

    /// Wraps a raw `errno` number.
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// Interrupted system call: the wrapper retries it.
    package static let interrupted = Errno(rawValue: 4)  // EINTR
    /// No such file or directory; generic netlink says this for an unknown family.
    package static let noSuchFileOrDirectory = Errno(rawValue: 2)  // ENOENT
    /// No such device (nl80211 for an interface that is not wireless).
    package static let noSuchDevice = Errno(rawValue: 19)  // ENODEV
    /// Invalid argument.
    package static let invalidArgument = Errno(rawValue: 22)  // EINVAL
    /// No buffer space: on a netlink socket, multicast messages were dropped.
    package static let noBufferSpace = Errno(rawValue: 105)  // ENOBUFS
    /// Resource temporarily unavailable (a receive timeout expired).
    package static let wouldBlock = Errno(rawValue: 11)  // EAGAIN
    /// Operation not supported.
    package static let notSupported = Errno(rawValue: 95)  // EOPNOTSUPP
    /// Operation not permitted.
    package static let notPermitted = Errno(rawValue: 1)  // EPERM
    /// Network unreachable (no route to the camera).
    package static let networkUnreachable = Errno(rawValue: 101)  // ENETUNREACH

    /// The conventional symbolic name, or the number.
    package var description: String {
        switch rawValue {
        case 1: return "EPERM"
        case 2: return "ENOENT"
        case 4: return "EINTR"
        case 11: return "EAGAIN"
        case 13: return "EACCES"
        case 16: return "EBUSY"
        case 19: return "ENODEV"
        case 22: return "EINVAL"
        case 93: return "EPROTONOSUPPORT"
        case 95: return "EOPNOTSUPP"
        case 101: return "ENETUNREACH"
        case 105: return "ENOBUFS"
        case 111: return "ECONNREFUSED"
        case 113: return "EHOSTUNREACH"
        default: return "errno \(rawValue)"
        }
    }
}

/// Everything that can go wrong in the NetworkMonitor layer.
package enum NetworkMonitorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed (`operation` names it: "socket", "bind", "recvmsg", ...).
    case system(operation: String, errno: Errno)
    /// The kernel answered a request with an NLMSG_ERROR carrying this errno.
    case kernel(request: String, errno: Errno)
    /// Bytes from the kernel (or the peer) did not fit the netlink layout.
    case malformed(context: String, ByteCodingError)
    /// The event socket overflowed (ENOBUFS): some events were lost and the state must be re-read.
    case eventsLost
    /// No reply arrived within the request timeout.
    case requestTimedOut(request: String)
    /// A dump stayed inconsistent (NLM_F_DUMP_INTR) after every retry.
    case dumpInterrupted(request: String, attempts: Int)
    /// The interface to watch could not be determined (no route to the camera, unknown name, ...).
    case interfaceNotFound(String)
    /// The camera address is not an IPv4 or IPv6 literal.
    case invalidAddress(String)
    /// The monitor was stopped or its sockets closed.
    case closed

    /// Whether retrying later can succeed without anyone changing anything.
    package var isTransient: Bool {
        switch self {
        case .eventsLost, .requestTimedOut, .dumpInterrupted: return true
        case let .system(_, errno), let .kernel(_, errno):
            return errno == .interrupted || errno == .wouldBlock || errno == .noBufferSpace
                || errno == .networkUnreachable
        case .interfaceNotFound: return true  // the camera's network may come up later
        case .malformed, .invalidAddress, .closed: return false
        }
    }

    /// A short developer-facing description; the CLI writes its own user-facing text.
    package var description: String {
        switch self {
        case let .system(operation, errno): return "\(operation) failed: \(errno)"
        case let .kernel(request, errno): return "kernel refused \(request): \(errno)"
        case let .malformed(context, error): return "malformed netlink \(context): \(error)"
        case .eventsLost: return "netlink events were lost (ENOBUFS)"
        case let .requestTimedOut(request): return "no netlink reply to \(request)"
        case let .dumpInterrupted(request, attempts): return "\(request) dump inconsistent after \(attempts) attempts"
        case let .interfaceNotFound(what): return "no interface for \(what)"
        case let .invalidAddress(text): return "not an IP address: \(text)"
        case .closed: return "network monitor closed"
        }
    }
}
