import ShootKit
import Shooting

/// Failures of `run`, `resume` and `status` that are not another layer's.
enum ShootCommandError: Error, CLIReportable {
    /// No terminal to ask on, and no `--confirm`.
    case needsConfirmation
    /// The photographer answered no.
    case declined
    /// `resume` found nothing to continue.
    case nothingToResume(stateDirectory: String)
    /// `resume --id` names no journal.
    case noSuchShoot(id: String, stateDirectory: String)
    /// `resume --id` names a complete shoot.
    case shootComplete(id: String)
    /// The output folder could not be created.
    case outputUnavailable(path: String, reason: String)
    /// `--output` names a folder that holds another shoot's `manifest.json`.
    case outputHoldsAnotherShoot(path: String, occupant: ShootManifest.Occupant)
    /// The state folder cannot take a new shoot's journal (full, unwritable): nothing was shot or recorded.
    case cannotRecord(stateDirectory: String, cause: JournalError)

    /// One line saying what to do.
    var cliMessage: String {
        switch self {
        case .needsConfirmation:
            "not on a terminal, so hdrshoot cannot ask before firing; pass --confirm to shoot without asking"
        case .declined:
            "not confirmed; nothing was shot"
        case .nothingToResume(let directory):
            "there is no unfinished shoot in \(directory) to resume; start one with `hdrshoot run`"
        case let .noSuchShoot(id, directory):
            "there is no shoot \(id) in \(directory); `hdrshoot status` lists the unfinished ones"
        case .shootComplete(let id):
            "shoot \(id) is complete; there is nothing left to shoot"
        case let .outputUnavailable(path, reason):
            "cannot create the output folder \(path): \(reason)"
        case let .outputHoldsAnotherShoot(path, occupant):
            occupant.refusal(path: path)
        case let .cannotRecord(directory, cause):
            "cannot record the shoot in the state folder \(directory) (\(cause.reasonText)); free some space there or "
                + "choose another folder with --state-dir; nothing was shot"
        }
    }

    /// 64 for a missing --confirm or an --output holding another shoot, 69 when the camera cannot shoot, 1 otherwise.
    var exitCode: ExitCode {
        switch self {
        case .needsConfirmation, .outputHoldsAnotherShoot: .usage
        case .declined, .nothingToResume, .noSuchShoot, .shootComplete, .outputUnavailable, .cannotRecord: .failure
        }
    }
}
