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

extension ConnectionText {
    /// The line of what the layer says while it reaches a camera.
    static func sentence(_ note: ConnectionNote) -> String {
        switch note {
        case let .connection(connection, address, user, description):
            line(connection, address: address, user: user, description: description)
        case .found(let found): sentence(found)
        case .checkingHostKey(let address): "Checking the SSH host key of \(address.description)..."
        case let .openingTunnel(address, user, fingerprint):
            "Opening an SSH tunnel to \(address.description) as '\(user)' (key \(fingerprint))..."
        case .tunnelClosed(let detail): "The SSH tunnel to the camera closed (\(detail)); opening it again..."
        case .tunnelReopened: "The SSH tunnel to the camera is open again."
        }
    }

    /// `Found Sony's PTP/IP remote protocol at 192.168.122.1.`, or the Camera Remote API found instead.
    static func sentence(_ found: ProtocolProbe.Found) -> String {
        if case .remoteAPI(let url) = found.target {
            return "No PTP/IP at \(found.shownHost); found Sony's Camera Remote API at \(url)."
        }
        return "Found Sony's PTP/IP remote protocol at \(found.shownHost)."
    }
}

/// The layer's sentence; a camera that needs SSH and got no user is a configuration to fix (78).
extension CameraTargetError: CLIReportable {
    package var cliMessage: String { sentence }

    package var exitCode: ExitCode { .config }
}
