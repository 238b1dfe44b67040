/// Failures of `run` and `resume` that are the terminal's own (the layer's are `ShootPreparationError`,
/// `OutputFolderError` and `ResumeError`).
enum ShootCommandError: Error, CLIReportable {
    /// No terminal to ask on, and no `--confirm`.
    case needsConfirmation
    /// The output folder could not be created.
    case outputUnavailable(path: String, reason: String)

    /// One line saying what to do.
    var cliMessage: String {
        switch self {
        case .needsConfirmation:
            "not on a terminal, so hdrshoot cannot ask before firing; pass --confirm to shoot without asking"
        case let .outputUnavailable(path, reason):
            "cannot create the output folder \(path): \(reason)"
        }
    }

    /// 64 for a missing --confirm, 1 otherwise.
    var exitCode: ExitCode {
        switch self {
        case .needsConfirmation: .usage
        case .outputUnavailable: .failure
        }
    }
}
