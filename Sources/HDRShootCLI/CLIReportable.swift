/// An error the CLI knows how to tell a person about: one line of text and an exit code.
///
/// Each layer's error type conforms in a `<LayerError>+CLI.swift` file here, so only the CLI turns errors
/// into text (the layers stay free of wording).
package protocol CLIReportable: Error {
    /// What went wrong, in one line a person can act on, without the `error: ` prefix.
    var cliMessage: String { get }
    /// The process exit code for this error.
    var exitCode: ExitCode { get }
}

extension UsageError: CLIReportable {
    /// The message as given.
    package var cliMessage: String { message }
    /// Always 64.
    package var exitCode: ExitCode { .usage }
}

extension HDRShoot {
    /// Prints `error` as `error: ...` (plus a `--help` hint for usage errors) and returns its exit code.
    static func report(_ error: any Error, command: CommandSpec?, to output: any OutputStreams) -> ExitCode {
        switch error {
        case let usage as UsageError:
            output.writeError("error: \(usage.message)\n\(usage.hint)\n")
            return .usage
        case let reportable as any CLIReportable:
            output.writeError("error: \(reportable.cliMessage)\n")
            if reportable.exitCode == .usage {
                output.writeError(UsageError("", command: command?.name).hint + "\n")
            }
            return reportable.exitCode
        default:
            // No type names or stack traces for people: this is our bug, and says so.
            output.writeError("error: hdrshoot failed unexpectedly; please report this with the command you ran\n")
            return .internalError
        }
    }
}
