import PTPIP

extension PTPIPError: CLIReportable {
    /// One line per case: 69 when the camera cannot be reached or refused the session (nothing is listening, no
    /// route, no answer, a dropped link), 75 for our own cancellation, 70 for a request made in the wrong state
    /// (a bug in hdrshoot), 1 when the camera or the system misbehaved. The camera layer wraps these (a shoot
    /// reports `SonyCameraError`), so this is the code of a bare PTP/IP failure.
    package var exitCode: ExitCode {
        switch self {
        case .connectionRefused: .unavailable
        case .hostUnreachable: .unavailable
        case .networkUnreachable: .unavailable
        case .nameResolutionFailed: .unavailable
        case .timedOut: .unavailable
        case .peerClosed: .unavailable
        case .connectionReset: .unavailable
        case .initFailed: .unavailable
        case .systemCallFailed: .failure
        case .protocolViolation: .failure
        case .response: .failure
        case .malformed: .failure
        case .cancelled: .transientFailure
        case .invalidState: .internalError
        }
    }

    /// The layer's own one-line sentence, which names the address or the step; a body that refused to pair
    /// says what to do on its screen.
    package var cliMessage: String {
        if case .initFailed(.rejectedInitiator) = self { return connectCause }
        return description
    }

    /// Why a connection attempt failed, in a few words and without the layer's advice (`connection refused`,
    /// `timed out`): the cause inside a retry line or a "(last: …)" of a reconnect that gave up.
    var connectCause: String {
        switch self {
        case .connectionRefused: "connection refused"
        case .timedOut: "timed out"
        case .peerClosed: "the camera closed the connection"
        case .connectionReset: "connection reset"
        case .hostUnreachable: "no route to the camera"
        case .networkUnreachable: "the network is unreachable"
        case let .nameResolutionFailed(host, _): "cannot resolve '\(host)'"
        case .initFailed(.rejectedInitiator):
            "the camera refused this computer (Init Fail reason 1): it was not allowed to pair; run again with the "
                + "camera's pairing screen open and press OK at \"Allow pairing with the device?\""
        case let .initFailed(reason): "the camera refused the session (\(reason))"
        case .systemCallFailed, .protocolViolation, .response, .malformed, .cancelled, .invalidState:
            description
        }
    }

    /// Whether the camera simply did not answer (nothing listening, silence, a closed or reset connection): a
    /// failed attempt then reads `no answer (connection refused)`.
    var isNoAnswer: Bool {
        switch self {
        case .connectionRefused, .timedOut, .peerClosed, .connectionReset: true
        default: false
        }
    }
}
