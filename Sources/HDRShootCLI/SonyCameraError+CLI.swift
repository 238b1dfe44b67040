import SonyCamera

extension SonyCameraError: CLIReportable {
    /// One line per case: 69 when the camera cannot be reached, went away or cannot shoot as it is set (not a
    /// Sony, a setting it never reports, the wrong mode, a speed it lacks, focus that never locks), 75 for a stop
    /// `resume` can continue (an image that was not the frame's, a body that stayed busy), 1 when it misbehaved. This
    /// is the code of a command that fails with the error (`camera`, or `run` before its first frame); a shoot that
    /// captured frames before it stopped exits 75 (`ErrorReport.exitCode(for:)`).
    /// A new case is one line here (the switch is exhaustive, so the compiler asks for it).
    package var exitCode: ExitCode {
        switch self {
        case .connectFailed: .unavailable
        case .unreachable: .unavailable
        case .notSonyCamera: .unavailable
        case .unsupportedMode: .unavailable
        case .shutterSpeedNotOffered: .unavailable
        case .propertiesNotReadable: .unavailable
        case .focusFailed: .unavailable
        case .descriptionUnreadable: .unavailable
        case .connectionLost: .unavailable
        case .notConnected: .unavailable
        case .deviceBusy: .transientFailure
        case .imageNotThisFrame: .transientFailure
        case .noImageAtHandle: .failure
        case .operationFailed: .failure
        case .malformedData: .failure
        case .shutterSpeedNotConfirmed: .failure
        case .shutterSpeedRejected: .failure
        case .captureTimedOut: .failure
        case .imagesStillWaiting: .failure
        case .fileWriteFailed: .failure
        case .diskFull: .failure
        case .releaseIgnored: .transientFailure
        }
    }

    /// The layer's own one-line sentence, which names what to check; a body that refused to pair says so
    /// (PTPIPError's line), not "is Ctrl w/ Smartphone on?".
    package var cliMessage: String {
        if case let .connectFailed(_, _, last) = self, case .initFailed(.rejectedInitiator) = last {
            return last.connectCause
        }
        if case let .connectFailed(_, _, last) = self, last.isPairingTimeout {
            return "the camera was not allowed to pair in time; open its pairing screen, run again and press OK at "
                + "\"Allow pairing with the device?\""
        }
        if case let .connectFailed(address, _, last) = self, last.isClosedAtInitCommand {
            return Self.powerCycleLine(address: address)
        }
        return description
    }

    /// What a body that closes the connection at Init Command Request most likely needs: it still holds a
    /// session that was dropped without CloseSession, and only turning it off and on lets it go (issue 33).
    static func powerCycleLine(address: String) -> String {
        "the camera at \(address) closed the connection as soon as a session was asked for: it may still hold an "
            + "earlier session that was dropped without being closed; turn the camera off and on again, then run "
            + "hdrshoot again"
    }
}
