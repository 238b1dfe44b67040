import SonyCamera

extension SonyCameraError: CLIReportable {
    /// A body that cannot shoot is unavailable (69: not a Sony, a setting it never reports, the wrong mode, a speed
    /// it lacks, focus that never locks, a camera that cannot be reached); a stop `resume` can continue is 75 (a
    /// lost link, an image that was not the frame's); anything else is a failure (1).
    package var exitCode: ExitCode {
        switch self {
        case .notSonyCamera, .propertiesNotReadable, .unsupportedMode, .shutterSpeedNotOffered, .focusFailed,
            .unreachable, .connectFailed:
            return .unavailable
        case .imageNotThisFrame:
            return .transientFailure
        default:
            return isConnectionLost || isTransient ? .transientFailure : .failure
        }
    }

    /// The layer's own one-line sentence, which names what to check.
    package var cliMessage: String { description }
}
