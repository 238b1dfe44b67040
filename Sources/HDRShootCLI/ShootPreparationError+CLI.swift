import ShootKit

extension ShootPreparationError: CLIReportable {
    /// One line saying what to do: the blockers' sentences as the layer says them, all on one line.
    package var cliMessage: String {
        switch self {
        case .blocked(let blockers):
            "the camera cannot shoot now: " + blockers.map(CLIMessages().sentence(for:)).joined(separator: "; ")
        case .transferNeedsCameraOnly:
            "--transfer none needs the camera to keep its images: set MENU > Network > PC Remote Function > Still Img. "
                + "Save Dest. to 'Camera Only' on the camera (it cannot be set over the link); nothing was shot"
        case .declined:
            "not confirmed; nothing was shot"
        case let .cannotRecord(directory, cause):
            "cannot record the shoot in the state folder \(directory) (\(cause.reasonText)); free some space there or "
                + "choose another folder with --state-dir; nothing was shot"
        }
    }

    /// 69: the camera cannot shoot now; 1: declined, or the journal could not be written.
    package var exitCode: ExitCode {
        switch self {
        case .blocked, .transferNeedsCameraOnly: .unavailable
        case .declined, .cannotRecord: .failure
        }
    }
}

extension CameraCheck {
    /// The blockers' sentences, as the layer says them.
    var blockerSentences: [String] { blockers.map(CLIMessages().sentence(for:)) }
}
