import HTTP
import Posix

/// Everything that can go wrong talking to a camera over Sony's legacy Camera Remote API (JSON-RPC over HTTP):
/// the layer's one error type, from the socket up to the camera's own error codes.
///
/// Each case carries what a person needs to act on it (the address, the method, the bytes' position), and
/// says whether trying again later can help (`isTransient`) and whether the connection to the camera is gone
/// (`isConnectionLost`), which is what a runner needs to decide between a retry and a reconnect.
package enum CameraRemoteAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The camera answered the JSON-RPC call with `"error": [code, message]` (reference p. 274-275).
    case api(RemoteAPIErrorCode, message: String, method: String)
    /// The HTTP status was not 200 (the reference reuses the status as the error code, p. 275).
    case httpStatus(Int, reason: String, path: String)
    /// The bytes of an HTTP response broke the protocol; `offset` counts bytes from the response's start.
    case malformedHTTP(String, offset: Int)
    /// The peer announced (or sent) more than we accept for `what`; checked before anything is buffered.
    case tooLarge(what: String, limit: Int, announced: Int)
    /// A JSON-RPC response that is not what the method promises (`method` names the call).
    case malformedResponse(method: String, reason: String)
    /// A device description that lacks what a camera needs, or breaks its limits.
    case deviceDescription(String)
    /// A URL we cannot use (not `http://`, not a numeric host, no path).
    case invalidURL(String)
    /// A shutter label in a body's answer that is not a speed (`30"`, `0.4"`, `1/4000`) nor `BULB`.
    case unknownShutterLabel(String)
    /// `getEvent` with the long-poll flag while another long poll is still waiting on this client.
    case longPollAlreadyRunning
    /// Connecting to `address` was refused (nothing listens: the camera's API is not up).
    case connectionRefused(address: String)
    /// The network cannot reach `address` (no route, host or network unreachable).
    case unreachable(address: String)
    /// The connection to `address` ended (reset, closed early, or dropped) during `during`.
    case connectionLost(address: String, during: String)
    /// Nothing came from `address` within the time allowed for `during`.
    case timedOut(address: String, during: String)
    /// A system call failed in a way none of the cases above names.
    case systemCallFailed(call: String, errno: Errno)
    /// The task was cancelled (or the client closed) during `during`.
    case cancelled(during: String)

    /// Whether the same call may succeed when tried again (a busy or not-ready camera, a timeout).
    package var isTransient: Bool {
        switch self {
        case let .api(code, _, _): return code.isTransient
        case let .httpStatus(status, _, _): return status == 503 || status == 408
        case .timedOut, .connectionLost, .longPollAlreadyRunning: return true
        case .connectionRefused, .unreachable: return true
        case .malformedHTTP, .tooLarge, .malformedResponse, .deviceDescription, .invalidURL, .unknownShutterLabel,
            .systemCallFailed, .cancelled:
            return false
        }
    }

    /// Whether the camera can no longer be reached on this connection, so the caller should reconnect.
    package var isConnectionLost: Bool {
        switch self {
        case .connectionLost, .connectionRefused, .unreachable: return true
        case let .timedOut(_, during): return during.hasPrefix("connect")
        default: return false
        }
    }

    package var description: String {
        switch self {
        case let .api(code, message, method): return "\(method) failed: camera error \(code.rawValue) (\(message))"
        case let .httpStatus(status, reason, path): return "HTTP \(status) \(reason) for \(path)"
        case let .malformedHTTP(reason, offset): return "malformed HTTP response at byte \(offset): \(reason)"
        case let .tooLarge(what, limit, announced):
            return "\(what) of \(announced) bytes is larger than the limit of \(limit) bytes"
        case let .malformedResponse(method, reason): return "unexpected answer to \(method): \(reason)"
        case let .deviceDescription(reason): return "unusable device description: \(reason)"
        case let .invalidURL(url): return "unusable URL '\(url)'"
        case let .unknownShutterLabel(label): return "'\(label)' is not a shutter speed"
        case .longPollAlreadyRunning: return "a getEvent long poll is already waiting"
        case let .connectionRefused(address): return "\(address) refused the connection"
        case let .unreachable(address): return "\(address) is unreachable"
        case let .connectionLost(address, during): return "the connection to \(address) was lost during \(during)"
        case let .timedOut(address, during): return "no answer from \(address) during \(during)"
        case let .systemCallFailed(call, errno): return "\(call) failed: \(errno)"
        case let .cancelled(during): return "cancelled during \(during)"
        }
    }
}

extension CameraRemoteAPIError {
    /// The layer's error for bytes the HTTP codec refused (`malformedHTTP` or `tooLarge`, with the same words).
    package init(_ error: HTTPError) {
        switch error {
        case let .malformed(reason, offset): self = .malformedHTTP(reason, offset: offset)
        case let .endedEarly(offset):
            self = .malformedHTTP("the connection closed in the middle of a message", offset: offset)
        case let .tooLarge(part, limit, announced):
            self = .tooLarge(what: part.rawValue, limit: limit, announced: announced)
        }
    }
}

/// The camera's JSON-RPC error codes (reference "Status code & Error", pp. 274-275); unknown codes keep their
/// number, and HTTP statuses other than 200 reuse the status as the code (p. 275).
package struct RemoteAPIErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The number as the camera sends it.
    package let rawValue: Int

    /// Wraps any code the camera sends.
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// 1 "Any": a generic failure.
    package static let any = Self(rawValue: 1)
    /// 2 "Timeout".
    package static let timeout = Self(rawValue: 2)
    /// 3 "Illegal Argument": a parameter the camera does not accept now (a shutter label not offered).
    package static let illegalArgument = Self(rawValue: 3)
    /// 5 "Illegal Request": no id, no method, or params not an array.
    package static let illegalRequest = Self(rawValue: 5)
    /// 7 "Illegal State".
    package static let illegalState = Self(rawValue: 7)
    /// 12 "No Such Method": the method is not available (or not before startRecMode).
    package static let noSuchMethod = Self(rawValue: 12)
    /// 14 "Unsupported Version".
    package static let unsupportedVersion = Self(rawValue: 14)
    /// 15 "Unsupported Operation".
    package static let unsupportedOperation = Self(rawValue: 15)
    /// 40400 "Shooting fail".
    package static let shootingFail = Self(rawValue: 40400)
    /// 40401 "Camera Not Ready".
    package static let cameraNotReady = Self(rawValue: 40401)
    /// 40402 "Already Running Polling Api": a second getEvent long poll.
    package static let alreadyPolling = Self(rawValue: 40402)
    /// 40403 "Still Capturing Not Finished": a long exposure; call awaitTakePicture (p. 28).
    package static let captureNotFinished = Self(rawValue: 40403)
    /// 503 "Service Unavailable" (the reference lists 503, not 500, p. 275).
    package static let serviceUnavailable = Self(rawValue: 503)

    /// Whether waiting and calling again can help: the camera was busy, not ready, or still exposing. 1 "Any"
    /// counts too: bodies answer it for a set that fails now and then and succeeds when called again.
    package var isTransient: Bool {
        [Self.timeout, .cameraNotReady, .alreadyPolling, .captureNotFinished, .serviceUnavailable, .any]
            .contains(self)
    }

    package var description: String { String(rawValue) }
}

extension SocketFailure {
    /// The layer's error for this socket failure, naming the peer and what we were doing.
    func remoteAPI(address: String, during: String) -> CameraRemoteAPIError {
        switch self {
        case .timedOut: return .timedOut(address: address, during: during)
        case .closed, .cancelled: return .cancelled(during: "\(during) (\(address))")
        case let .system(errno, call):
            switch errno {
            case .connectionRefused: return .connectionRefused(address: address)
            case .hostUnreachable, .networkUnreachable: return .unreachable(address: address)
            case .timedOut: return .timedOut(address: address, during: during)
            case .connectionReset, .brokenPipe, .connectionAborted:
                return .connectionLost(address: address, during: during)
            default: return .systemCallFailed(call: call, errno: errno)
            }
        }
    }
}
