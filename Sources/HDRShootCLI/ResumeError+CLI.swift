import ShootKit

extension ResumeError: CLIReportable {
    /// One line saying what to do.
    package var cliMessage: String {
        switch self {
        case .nothingToResume(let directory):
            "there is no unfinished shoot in \(directory) to resume; start one with `hdrshoot run`"
        case let .noSuchShoot(id, directory):
            "there is no shoot \(id) in \(directory); `hdrshoot status` lists the unfinished ones"
        case .shootComplete(let id):
            "shoot \(id) is complete; there is nothing left to shoot"
        }
    }

    /// 1: nothing to continue.
    package var exitCode: ExitCode { .failure }
}
