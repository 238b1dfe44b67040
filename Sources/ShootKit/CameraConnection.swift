import SonyCamera

/// How a Sony body is reached over PTP/IP, decided once from what its description says and what the
/// photographer asked (`--ssh`, `--no-ssh`, the config file), with the reason: the CLI says it in one line and
/// `serve` uses the same value.
///
/// Sony's "Camera Control PTP 3" reference (pp. 36-40): after discovery a body with `X_SSH_Support` `Enable`
/// (Access Authentication on) takes PTP/IP only through an SSH forward to its own `localhost:15740`; a body
/// with `X_PTP_PairingNecessity` `Necessary` asks the photographer to allow this computer once before it
/// acknowledges the Init Command Request; any other takes plain PTP/IP on port 15740.
package struct CameraConnection: Sendable, Equatable {
    /// The way in.
    package enum Route: String, Sendable, Equatable, Codable {
        /// PTP/IP straight to port 15740.
        case plain
        /// PTP/IP to port 15740 after the body allows this computer (pairing; once per computer).
        case pairing
        /// PTP/IP through an SSH tunnel to the body's own `localhost:15740`.
        case ssh
    }

    /// Why this route.
    package enum Reason: String, Sendable, Equatable, Codable {
        /// `--ssh`.
        case asked
        /// The config file's `ssh = yes` (at its top or in the camera's section).
        case configured
        /// The camera was remembered or journaled with this route.
        case remembered
        /// `--no-ssh` (or the config file's `ssh = no`): plain PTP/IP whatever the body says.
        case refused
        /// The body's description says so.
        case described
        /// The address names a PTP/IP port, so no description was read.
        case portGiven
        /// The body answered no description request (an older body, UPnP off): plain PTP/IP is tried.
        case notDescribed
    }

    /// What the photographer asked for.
    package enum Preference: Sendable, Equatable {
        /// Nothing: the body decides.
        case automatic
        /// SSH (`--ssh`).
        case ssh
        /// Plain PTP/IP (`--no-ssh`).
        case noSSH
    }

    /// The way in.
    package var route: Route
    /// Why.
    package var reason: Reason

    /// A route and its reason.
    package init(route: Route, reason: Reason) {
        self.route = route
        self.reason = reason
    }

    /// Decides from `description` (nil when none was read) under `preference`. An explicit preference wins; a
    /// body that needs SSH and pairing both (reference p. 40: pairing is for bodies without SSH, or with it
    /// off) is reached through SSH.
    package static func decide(
        description: DigitalImagingDescription?, preference: Preference
    ) -> CameraConnection {
        let pairs = description?.pairingRequired == true
        switch preference {
        case .ssh:
            return CameraConnection(route: .ssh, reason: .asked)
        case .noSSH:
            return CameraConnection(route: pairs ? .pairing : .plain, reason: .refused)
        case .automatic:
            guard let description else { return CameraConnection(route: .plain, reason: .notDescribed) }
            if description.sshRequired == true { return CameraConnection(route: .ssh, reason: .described) }
            return CameraConnection(route: pairs ? .pairing : .plain, reason: .described)
        }
    }
}
