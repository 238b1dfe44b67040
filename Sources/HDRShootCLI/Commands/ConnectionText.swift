import ShootKit
import SonyCamera

/// The one line that says how a camera is reached and why (`CameraConnection`, decided in ShootKit).
enum ConnectionText {
    /// `Connection: PTP/IP through SSH to 192.168.122.1:22 as 'photo' (the camera's description says Access
    /// Authentication is on).`
    static func line(
        _ connection: CameraConnection, address: CameraAddress, user: String? = nil,
        description: DigitalImagingDescription? = nil
    ) -> String {
        let route: String
        switch connection.route {
        case .plain: route = "plain PTP/IP to \(address.description)"
        case .pairing: route = "PTP/IP with pairing to \(address.description)"
        case .ssh: route = "PTP/IP through SSH to \(address.description)" + (user.map { " as '\($0)'" } ?? "")
        }
        let why: String
        switch (connection.reason, connection.route) {
        case (.asked, _): why = "--ssh"
        case (.configured, _): why = "ssh = yes in the config file"
        case (.remembered, _): why = "as remembered; --no-ssh for plain PTP/IP"
        case (.refused, _):
            why =
                description?.sshRequired == true
                ? "--no-ssh or ssh = no in the config file, although the camera's description says Access "
                    + "Authentication is on" : "--no-ssh or ssh = no in the config file"
        case (.described, .ssh): why = "the camera's description says Access Authentication is on"
        case (.described, .pairing):
            why = "the camera's description says it asks to allow this computer once; press OK on the camera"
        case (.described, .plain): why = "the camera's description asks for neither SSH nor pairing"
        case (.portGiven, _): why = "a port was given, so the camera's description was not read"
        case (.notDescribed, _): why = "the camera answered no description request"
        }
        return "Connection: \(route) (\(why))."
    }
}

/// Failures of deciding how to reach a camera.
enum CameraTargetError: Error, CLIReportable, Equatable {
    /// The camera's description says SSH, and no user was given.
    case sshUserNeeded(host: String)

    var cliMessage: String {
        switch self {
        case let .sshUserNeeded(host):
            "the camera at \(host) says Access Authentication is on, so it is reached through SSH: pass --ssh-user "
                + "NAME (the user set in the camera's menu), or turn Access Authentication off; nothing was sent"
        }
    }

    var exitCode: ExitCode { .config }
}
