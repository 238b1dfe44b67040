import Shooting

extension ShootingError: CLIReportable {
    /// A camera that cannot shoot the plan is unavailable (69); a camera that misbehaved mid-frame is a failure (1).
    package var exitCode: ExitCode {
        switch self {
        case .unsupportedMode, .speedUnavailable, .disconnected: .unavailable
        case .idleTimeout, .cameraFault, .invalidResumePosition: .failure
        case .releaseKeepsDropping, .imageNeverArrived, .releaseUnproven, .cardFull: .transientFailure
        }
    }

    /// One line naming the frame and what to check.
    package var cliMessage: String {
        switch self {
        case .unsupportedMode(let mode):
            return "the camera's mode dial is on \(mode.displayName); turn it to M (manual) or S (shutter priority)"
        case .speedUnavailable(let speed):
            return "the camera does not offer \(speed.label) now; check its mode and settings"
        case let .idleTimeout(position, timeout):
            return
                "the camera did not finish \(position) within \(ShootText.duration(timeout)); check its screen and memory card"
        case let .cameraFault(code, position):
            return
                "the camera reported a fault (0x\(String(code, radix: 16, uppercase: true))) while saving \(position); "
                + "check its screen and memory card"
        case .disconnected(let position):
            return "lost the connection to the camera during \(position)"
        case .invalidResumePosition(let position):
            return "the shoot journal's resume position (\(position)) is not in its plan"
        case let .releaseKeepsDropping(position, releases):
            return
                "the link to the camera dropped at the shutter release \(releases) times at \(position) and no image of it "
                + "came back; not firing it again. Move closer to the camera or check its Wi-Fi, then run `hdrshoot resume`"
        case let .cardFull(position):
            return
                "the camera's memory card is full (it reports no shots left), so \(position) did not fire; put in a "
                + "card with room or free some, then run `hdrshoot resume` (it downloads what the camera holds first)"
        case let .releaseUnproven(position, releases):
            return
                "the shutter of \(position) was pressed \(releases) times and the camera showed no sign of firing, and no "
                + "image of it was in the camera; not pressing it again. Check the camera's screen and card, then run "
                + "`hdrshoot resume` (it downloads what the camera holds first)"
        case let .imageNeverArrived(position, attempts):
            return
                "the camera fired \(position) \(attempts) times and no image of it arrived; check its save destination "
                + "(menu: PC Remote > Still Img. Save Dest.) and card, then run `hdrshoot resume`"
        }
    }
}

extension ShootingMode {
    /// The letter on the mode dial (`M`, `S`, `A`, `P`), or the raw code for other modes.
    var displayName: String {
        switch self {
        case .manual: "M"
        case .shutterPriority: "S"
        case .aperturePriority: "A"
        case .program: "P"
        case .other(let code, let name): name ?? "mode 0x" + String(code, radix: 16, uppercase: true)
        }
    }
}
