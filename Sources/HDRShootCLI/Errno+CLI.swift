import Posix

/// A system call's failure that reaches a person as it is (a file hdrshoot could not write): the C library's
/// text (`No space left on device`), exit 1.
extension Errno: CLIReportable {
    /// The C library's text for the errno.
    package var cliMessage: String { description }

    /// 1: the command failed.
    package var exitCode: ExitCode { .failure }
}
