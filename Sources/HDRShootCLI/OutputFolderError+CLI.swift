import ShootKit

extension OutputFolderError: CLIReportable {
    /// The layer's sentence.
    package var cliMessage: String { sentence }

    /// 64: `--output` names a folder that is not free (the photographer picks another).
    package var exitCode: ExitCode { .usage }
}
