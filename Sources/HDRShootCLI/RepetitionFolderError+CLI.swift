import ShootKit

extension RepetitionFolderError: CLIReportable {
    /// One line saying what is wrong with the repetition's folder.
    package var cliMessage: String { "cannot create the output folder \(path): \(cause.description)" }

    /// 1: the command failed.
    package var exitCode: ExitCode { .failure }
}
