import LegacyCamera

extension LegacySonyCameraError: CLIReportable {
    /// 69 when the camera cannot be reached or cannot shoot as it is set, 75 for a busy body (`resume` can
    /// continue), 1 when it misbehaved (see `SonyCameraError`'s table for how a shoot's exit code follows).
    package var exitCode: ExitCode {
        switch self {
        case .connectFailed: .unavailable
        case .unreachable: .unavailable
        case .notRemoteAPI: .unavailable
        case .notReadyToShoot: .unavailable
        case .notConnected: .unavailable
        case .connectionLost: .unavailable
        case .unsupportedMode: .unavailable
        case .shutterSpeedNotOffered: .unavailable
        case .bulbNeedsFixedISO: .unavailable
        case .busy: .transientFailure
        case .shutterSpeedSetFailed: .transientFailure
        case .operationFailed: .failure
        case .shutterSpeedNotConfirmed: .failure
        case .captureTimedOut: .failure
        case .noPicture: .failure
        case .fileWriteFailed: .failure
        }
    }

    /// The layer's own one-line sentence, which names what to check.
    package var cliMessage: String { description }
}
