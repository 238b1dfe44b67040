import SonyCamera

extension SonyCameraError: CLIReportable {
    /// A lost or refused connection may work on a later try (exit 75); everything else is final (exit 1).
    package var exitCode: ExitCode { isConnectionLost || isTransient ? .transientFailure : .failure }

    /// The layer's own one-line sentence, which names what to check.
    package var cliMessage: String { description }
}
