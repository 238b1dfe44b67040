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
        }
    }

    /// 69: the camera cannot shoot now.
    package var exitCode: ExitCode { .unavailable }
}

extension CameraCheck {
    /// The blockers' sentences, as the layer says them.
    var blockerSentences: [String] { blockers.map(CLIMessages().sentence(for:)) }
}
