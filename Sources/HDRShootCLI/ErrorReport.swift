import Shooting

/// An error (or why a shoot stopped) the CLI knows how to tell a person about: its line of text and its exit code.
///
/// Each layer's error type conforms in a `<LayerError>+CLI.swift` file here (its table: one `case` line per
/// error case, so adding a case to a layer's error is one line, and the compiler asks for it), and so does
/// Shooting's `StopReason` (`StopReason+CLI.swift`), which is not an error. Errors reach these only through
/// `ErrorReport`.
package protocol CLIReportable {
    /// What went wrong, in one line a person can act on, without the `error: ` prefix.
    var cliMessage: String { get }
    /// The process exit code for this error when it ends a command.
    var exitCode: ExitCode { get }
}

/// The one place where an error becomes what a person reads and the exit status.
///
/// Every command's failure goes through `ErrorReport(error)` (in `HDRShoot.run`), every stopped shoot through
/// `ErrorReport.exitCode(for:)`, every progress line through `HDRShoot.message(for:)`, which is this type's
/// message. The texts and codes themselves are the `CLIReportable` tables; an error that is not
/// `CLIReportable` is a bug in hdrshoot (exit 70) and says so without a type name.
package struct ErrorReport: Sendable, Equatable {
    /// The one line after `error: `.
    package var message: String
    /// The exit status.
    package var exitCode: ExitCode
    /// For usage errors: the `Run 'hdrshoot <command> --help' for usage.` line printed after the message.
    package var hint: String?

    /// The report of `error`, raised by `command` (for the usage hint).
    package init(_ error: any Error, command: String? = nil) {
        switch error {
        case let usage as UsageError:
            self.init(message: usage.message, exitCode: .usage, hint: usage.hint)
        case let reportable as any CLIReportable:
            let code = reportable.exitCode
            self.init(
                message: reportable.cliMessage, exitCode: code,
                hint: code == .usage ? UsageError("", command: command).hint : nil)
        case is CancellationError:
            self.init(message: "cancelled", exitCode: .transientFailure, hint: nil)
        default:
            // No type names or stack traces for people: this is our bug, and says so.
            self.init(
                message: "hdrshoot failed unexpectedly; please report this with the command you ran",
                exitCode: .internalError, hint: nil)
        }
    }

    /// A report from its parts.
    package init(message: String, exitCode: ExitCode, hint: String?) {
        self.message = message
        self.exitCode = exitCode
        self.hint = hint
    }

    /// Prints `error: <message>` (and the hint) to standard error; returns the exit code.
    @discardableResult
    package func print(to output: any OutputStreams) -> ExitCode {
        output.writeError("error: \(message)\n" + (hint.map { $0 + "\n" } ?? ""))
        return exitCode
    }

    /// The exit status of a shoot that ended as `result`: 0 complete.
    ///
    /// A stopped shoot has its journal, so `hdrshoot resume` continues it once the cause is fixed: 75 whatever
    /// stopped it (the photographer, a mode dial turned mid-shoot, a reconnect that gave up, a camera fault).
    /// Three exceptions: the journal itself could not be written (1); the cause is a bug in hdrshoot (70); the
    /// camera cannot shoot (the error's code is 69: focus that never locks, the wrong mode, a missing speed)
    /// and this run captured nothing, which is the same as failing before the first frame (69).
    package static func exitCode(for result: ShootResult) -> ExitCode {
        guard let reason = result.stopReason else { return .success }
        if case .failed(let error) = reason, result.savedThisRun == 0, ErrorReport(error).exitCode == .unavailable {
            return .unavailable
        }
        return reason.exitCode
    }
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
        ErrorReport(error, command: command?.name).print(to: output)
    }

    /// The one-line text of any error, for progress lines and stop messages (never a Swift type name).
    static func message(for error: any Error) -> String {
        ErrorReport(error).message
    }
}
