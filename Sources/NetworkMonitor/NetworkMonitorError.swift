import ByteCoding
import Posix

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
        case .interfaceNotFound: return true // the camera's network may come up later
        case .malformed, .invalidAddress, .closed: return false
        }
    }

    /// A short developer-facing description; the CLI writes its own user-facing text.
    package var description: String {
        switch self {
        case let .system(operation, errno): return "\(operation) failed: \(errno.name)"
        case let .kernel(request, errno): return "kernel refused \(request): \(errno.name)"
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
