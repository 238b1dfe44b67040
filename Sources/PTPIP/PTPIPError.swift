import PTPIPCodec
import Posix

/// The one error of the PTPIP layer: connections, PTP responses, and the codec's error as `.malformed`.
///
/// Every case carries enough context for the CLI to say what failed, where and while doing what.
/// `isTransient` tells retry policies whether the same step may succeed if tried again.
package enum PTPIPError: Error, Sendable, Equatable, CustomStringConvertible {
    // MARK: - Connection

    /// The camera at `address` (host:port) refused the TCP connection (nothing listening).
    case connectionRefused(address: String)
    /// No route to the host at `address`.
    case hostUnreachable(address: String)
    /// The local network is down or has no route toward `address`.
    case networkUnreachable(address: String)
    /// The host name could not be resolved.
    case nameResolutionFailed(host: String, reason: String)
    /// Nothing happened within the deadline while doing `during` (e.g. "connect", "GetObject data phase").
    case timedOut(address: String, during: String)
    /// The peer closed the connection (orderly EOF) while we were doing `during`.
    case peerClosed(during: String)
    /// The peer reset the connection (ECONNRESET, EPIPE) while we were doing `during`.
    case connectionReset(during: String)
    /// Any other system call failure: the call and its errno (whose description is the system's message).
    case systemCallFailed(call: String, errno: Errno)

    // MARK: - Protocol

    /// The peer sent something the protocol does not allow here.
    case protocolViolation(expected: String, received: String)
    /// The camera answered an operation with a response code other than OK.
    case response(code: ResponseCode, operation: OperationCode)
    /// The camera refused the Init Command or Init Event request.
    case initFailed(reason: InitFailReason)
    /// The peer's bytes break the codec's rules: a packet or dataset that does not fit its layout, a length
    /// out of range, an unknown packet type, a data phase out of step (the codec's own error, wrapped).
    case malformed(PTPIPCodecError)

    // MARK: - Local

    /// The operation was cancelled by our side (task cancellation, disconnect).
    case cancelled(during: String)
    /// The session is not in a state that allows the request (our misuse, e.g. an operation before connect).
    case invalidState(String)

    /// Whether the same step may succeed if tried again (after a pause, or on a new connection).
    package var isTransient: Bool {
        switch self {
        case .timedOut, .peerClosed, .connectionReset, .hostUnreachable, .networkUnreachable,
            .connectionRefused, .nameResolutionFailed:
            // Wi-Fi links drop and cameras restart their PTP/IP server; a later attempt may succeed.
            return true
        case let .response(code, _):
            return code.isTransient
        case let .initFailed(reason):
            return reason.isTransient
        case .systemCallFailed, .protocolViolation, .malformed, .cancelled, .invalidState:
            return false
        }
    }

    /// What `during` says of the Init Command handshake (the client's first request on a new connection).
    package static let initCommandHandshake = "the Init Command handshake"

    /// Whether the camera closed (or reset) the connection instead of answering Init Command Request: a body
    /// that still holds a session dropped without CloseSession does this until it is power-cycled (issue 33).
    package var isClosedAtInitCommand: Bool {
        switch self {
        case let .peerClosed(during), let .connectionReset(during): during == Self.initCommandHandshake
        default: false
        }
    }

    /// What `during` says of the wait for the photographer's OK on a body's pairing screen.
    package static let pairingApproval = "the wait for the OK on the camera's pairing screen"

    /// Whether the photographer did not allow pairing in time (the body never acknowledged Init Command).
    package var isPairingTimeout: Bool {
        if case let .timedOut(_, during) = self { return during == Self.pairingApproval }
        return false
    }

    /// One sentence a person can read: names and hex numbers, no Swift type names.
    package var description: String {
        switch self {
        case let .connectionRefused(address):
            return "the camera at \(address) refused the connection"
        case let .hostUnreachable(address):
            return "no route to the camera at \(address)"
        case let .networkUnreachable(address):
            return "the network toward \(address) is unreachable"
        case let .nameResolutionFailed(host, reason):
            return "cannot resolve host name '\(host)': \(reason)"
        case let .timedOut(address, during):
            return "the camera at \(address) did not answer in time during \(during)"
        case let .peerClosed(during):
            return "the camera closed the connection during \(during)"
        case let .connectionReset(during):
            return "the connection was reset during \(during)"
        case let .systemCallFailed(call, errno):
            return "\(call) failed: \(errno.description) (errno \(errno.rawValue))"
        case let .protocolViolation(expected, received):
            return "protocol violation: expected \(expected), received \(received)"
        case let .response(code, operation):
            return "the camera answered \(operation) with \(code)"
        case let .initFailed(reason):
            return "the camera refused the PTP/IP connection: \(reason)"
        case let .malformed(error):
            return error.description
        case let .cancelled(during):
            return "cancelled during \(during)"
        case let .invalidState(what):
            return "invalid state: \(what)"
        }
    }
}
