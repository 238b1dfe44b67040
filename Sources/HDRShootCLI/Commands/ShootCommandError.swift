import ShootKit
import Shooting

/// Failures of `run` and `resume` that are the terminal's own (the layer's are `ShootPreparationError` and
/// `ResumeError`).
enum ShootCommandError: Error, CLIReportable {
    /// No terminal to ask on, and no `--confirm`.
    case needsConfirmation
    /// The output folder could not be created.
    case outputUnavailable(path: String, reason: String)
    /// `--output` names a folder that holds another shoot's `manifest.json`.
    case outputHoldsAnotherShoot(path: String, occupant: ShootManifest.Occupant)

    /// One line saying what to do.
    var cliMessage: String {
        switch self {
        case .needsConfirmation:
            "not on a terminal, so hdrshoot cannot ask before firing; pass --confirm to shoot without asking"
        case let .outputUnavailable(path, reason):
            "cannot create the output folder \(path): \(reason)"
        case let .outputHoldsAnotherShoot(path, occupant):
            occupant.refusal(path: path)
        }
    }

    /// 64 for a missing --confirm or an --output holding another shoot, 1 otherwise.
    var exitCode: ExitCode {
        switch self {
        case .needsConfirmation, .outputHoldsAnotherShoot: .usage
        case .outputUnavailable: .failure
        }
    }
}
