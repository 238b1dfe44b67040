import CameraSimulator
import CameraTunnel
import Foundation
import ImageLuminance
import LegacyCamera
import LegacyCameraSimulator
import PTPIP
import SonyCamera

/// Which camera a shoot uses: one at an address (PTP/IP, the Camera Remote API, or a bare host that is probed
/// for both), or a built-in simulated camera.
///
/// How it is reached is the layer's (which route, the tunnel, the probe, the simulator's life); what the front end
/// gives is a `CameraReach` (its environment's camera settings and the photographer's answers), and what it hears
/// are typed `ConnectionNote`s it words itself.
package enum CameraTarget: Sendable, Equatable {
    /// PTP/IP at `host:port` (a port given, or an address remembered or journaled).
    case address(CameraAddress)
    /// A bare host (`192.168.122.1`): its description (found by a unicast SSDP search) decides between plain
    /// PTP/IP, pairing and SSH (`choice` carries `--no-ssh` and the SSH options); a host that describes nothing
    /// is tried with PTP/IP first, then the Camera Remote API, and the one found is said.
    case host(CameraAddress, SSHConnection.Choice = SSHConnection.Choice())
    /// Sony's Camera Remote API at `http://HOST:PORT` (older bodies; `:10000` for the A7 III family's own API).
    case remoteAPI(String)
    /// `--camera simulator`: a simulated PTP/IP body started in-process on a free loopback port.
    case simulator
    /// `--camera simulator --api`: a simulated legacy body (Camera Remote API) started in-process.
    case apiSimulator
    /// `--ssh`: PTP/IP through an SSH tunnel to the camera's SSH server at `host:port` (Access Authentication on).
    case ssh(CameraAddress, SSHConnection.Settings)

    /// The address stored in the journal for the simulator (resume starts a new one).
    package static let simulatorAddress = "simulator"
    /// The address stored in the journal for the simulated legacy body (`--camera simulator --api`).
    package static let apiSimulatorAddress = "simulator-api"

    /// The target of a remembered or journaled address (`http://...`, `simulator-api`, or PTP/IP `host:port`).
    package init?(stored text: String) {
        if text == Self.simulatorAddress {
            self = .simulator
        } else if text == Self.apiSimulatorAddress {
            self = .apiSimulator
        } else if let (address, settings) = SSHConnection.parseStored(text) {
            self = .ssh(address, settings)
        } else if text.hasPrefix("http://"), (try? LegacySonyCameraConfiguration(url: text)) != nil {
            self = .remoteAPI(text)
        } else if let address = CameraAddress(parsing: text) {
            self = .address(address)
        } else {
            return nil
        }
    }

    /// Runs `body` with a (not yet connected) camera for this target and the address to show and journal; a
    /// simulator lives exactly as long as `body`. A bare host is described or probed first (`note` hears which
    /// connection it gets and why). `explain` says the connection of a camera at a given address too (`hdrshoot
    /// camera`). `resuming` lets a legacy body hand over a picture an earlier run left in it.
    package func withCamera<T: Sendable>(
        reach: some CameraReach, scene: Scene.Name? = nil, resuming: Bool = false, explain: Bool = false,
        note: @escaping @Sendable (ConnectionNote) -> Void = { _ in },
        _ body: (any CommandCamera, String) async throws -> T
    ) async throws -> T {
        switch self {
        case .address(let address):
            if explain { note(.connection(CameraConnection(route: .plain, reason: .portGiven), address: address)) }
            let camera = SonyCamera(configuration: try reach.configuration(for: address, announcingPairing: true))
            return try await body(camera, address.description)
        case let .ssh(address, settings):
            if explain || settings.reason == .described {
                note(
                    .connection(
                        CameraConnection(route: .ssh, reason: settings.reason), address: address, user: settings.user))
            }
            return try await SSHConnection.withTunnel(to: address, settings: settings, reach: reach, note: note) {
                forwarded in
                let camera = SonyCamera(
                    configuration: try reach.configuration(for: forwarded, announcingPairing: false))
                return try await body(camera, SSHConnection.stored(address, settings))
            }
        case let .host(address, choice):
            let described = await ProtocolProbe.describe(host: address.host)
            let connection = CameraConnection.decide(description: described, preference: choice.preference)
            let resolved: CameraTarget
            switch (connection.route, connection.reason) {
            case (_, .notDescribed):
                let found = await ProtocolProbe.find(host: address.host, ptpipPort: address.port)
                if let found { note(.found(found)) }
                resolved = found?.target ?? .address(address)
            case (.ssh, _):
                guard let user = choice.overrides.user, !user.isEmpty else {
                    throw CameraTargetError.sshUserNeeded(host: address.host)
                }
                resolved = .ssh(
                    CameraAddress(host: address.host, port: 22),
                    SSHConnection.Settings(
                        user: user, passwordFile: choice.overrides.passwordFile,
                        fingerprint: choice.overrides.fingerprint, reason: connection.reason))
            case (.plain, _), (.pairing, _):
                note(.connection(connection, address: address, description: described))
                resolved = .address(address)
            }
            return try await resolved.withCamera(
                reach: reach, scene: scene, resuming: resuming, note: note, body)
        case .remoteAPI(let url):
            var configuration = try LegacySonyCameraConfiguration(url: url)
            try reach.adjust(&configuration, resuming: resuming)
            return try await body(LegacySonyCamera(configuration: configuration), configuration.address)
        case .simulator:
            var configuration = SimulatorConfiguration()
            configuration.port = 0
            // A faithful body (real exposure times); small images keep the demo folder light.
            configuration.imageSize = 100_000
            configuration.scene = scene
            // The front end's body (`--replay-session LOG`: the logged one, its files read as it starts); what the
            // front end made for it is let go when the body has stopped.
            let letGo = try reach.prepare(&configuration)
            defer { letGo() }
            // The front end's time (`$HDRSHOOT_TIME_SCALE`, a test hook) runs the built-in body's time too.
            let clock = try reach.simulatorClock()
            return try await CameraSimulator.withRunning(configuration: configuration, clock: clock) { simulator in
                let address = CameraAddress(host: "127.0.0.1", port: simulator.port)
                let camera = SonyCamera(configuration: try reach.configuration(for: address, announcingPairing: false))
                return try await body(camera, Self.simulatorAddress)
            }
        case .apiSimulator:
            var simulated = LegacySimulatorConfiguration()
            // A faithful A6000 (real exposure times, startRecMode, sets applying late) set up for HDR: a fixed
            // ISO, so BULB frames can be shot; small images keep the demo folder light.
            simulated.isoSpeedRate = "100"
            simulated.imageSize = 100_000
            let clock = try reach.simulatorClock()
            return try await LegacyCameraSimulator.withRunning(configuration: simulated, clock: clock) { simulator in
                var configuration = try LegacySonyCameraConfiguration(url: simulator.descriptionURL)
                configuration.address = Self.apiSimulatorAddress
                try reach.adjust(&configuration, resuming: resuming)
                return try await body(LegacySonyCamera(configuration: configuration), Self.apiSimulatorAddress)
            }
        }
    }
}

/// What a front end gives the layer to reach a camera: the camera settings its environment asks for (the host's
/// PTP/IP identity, the connect schedule, the time scale), the built-in simulators' set-up, and the photographer's
/// answers on first contact with an SSH camera.
package protocol CameraReach: Sendable {
    /// The environment the SSH tools, the known-hosts file and the tunnel's test hooks are found in.
    var environment: [String: String] { get }
    /// Whether the photographer can be asked (a host key on first contact, a password).
    var canAsk: Bool { get }
    /// A PTP/IP camera's configuration for `address`; with `announcingPairing`, a body that waits for the
    /// photographer's OK on its pairing screen is said and counted down by the front end.
    func configuration(for address: CameraAddress, announcingPairing: Bool) throws -> SonyCameraConfiguration
    /// A Camera Remote API camera's configuration with the front end's schedule; `resuming` lets the body hand
    /// over a picture an earlier run left in it.
    func adjust(_ configuration: inout LegacySonyCameraConfiguration, resuming: Bool) throws
    /// An SSH tunnel's configuration with the front end's schedule (the waits before a tunnel that closed during a
    /// shoot is opened again).
    func adjust(_ configuration: inout SSHTunnelConfiguration) throws
    /// The clock a built-in simulated body's time runs on.
    func simulatorClock() throws -> any Clock<Duration>
    /// The built-in simulated PTP/IP body as the front end asks for it (a replayed session's body); returns what
    /// to do once that body has stopped (take away the files it was made from).
    func prepare(_ configuration: inout SimulatorConfiguration) throws -> @Sendable () -> Void
    /// Whether the camera shows `key`'s fingerprint too (first contact; asked only when `canAsk`).
    func confirmFirstContact(_ key: SSHHostKey, host: String) async -> Bool
    /// The password of `user` on the camera at `host`, asked of the photographer (only when `canAsk`); nil or
    /// empty when none was given.
    func askPassword(user: String, host: String) async throws -> String?
}

extension CameraReach {
    /// The tunnel's own waits, for a front end (or a test's reach) with no schedule of its own.
    package func adjust(_ configuration: inout SSHTunnelConfiguration) throws {}
}

/// What the layer says while it reaches a camera; a front end words each (the terminal's lines).
package enum ConnectionNote: Sendable {
    /// How the camera is reached and why.
    case connection(
        CameraConnection, address: CameraAddress, user: String? = nil,
        description: DigitalImagingDescription? = nil)
    /// What a bare host that describes nothing answered to.
    case found(ProtocolProbe.Found)
    /// The SSH host key is being checked.
    case checkingHostKey(CameraAddress)
    /// The tunnel is being opened with the key the camera showed.
    case openingTunnel(CameraAddress, user: String, fingerprint: String)
    /// The tunnel closed (`detail`: why) and is being opened again.
    case tunnelClosed(detail: String)
    /// The tunnel is open again.
    case tunnelReopened
}

extension CameraAddress {
    /// An address from its parts.
    package init(host: String, port: UInt16) {
        self.init(parsing: host)! // a literal host always parses
        self.port = port
    }
}

/// A camera's host and port as typed: `192.168.122.1`, `192.168.122.1:15740`, `[::1]:15740`, `::1`.
package struct CameraAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host (IPv6 without brackets).
    package var host: String
    /// The PTP/IP port.
    package var port: UInt16

    /// Parses `text`; nil when it has no host or a bad port.
    package init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var host = trimmed
        var port = PTPIPClient.defaultPort
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { return nil }
            host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
            let rest = trimmed[trimmed.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = UInt16(rest.dropFirst()), number > 0 else { return nil }
                port = number
            }
        } else if trimmed.filter({ $0 == ":" }).count == 1, let colon = trimmed.firstIndex(of: ":") {
            host = String(trimmed[..<colon])
            guard let number = UInt16(trimmed[trimmed.index(after: colon)...]), number > 0 else { return nil }
            port = number
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { return nil }
        self.host = host
        self.port = port
    }

    /// `host:port` (IPv6 in brackets).
    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether `text` names a port (`host:port`, `[v6]:port`); a bare IPv6 address has none.
    package static func hasPort(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("[") { return trimmed.contains("]:") }
        return trimmed.filter { $0 == ":" }.count == 1
    }
}

/// Failures of deciding how to reach a camera.
package enum CameraTargetError: Error, Equatable {
    /// The camera's description says SSH, and no user was given.
    case sshUserNeeded(host: String)

    /// The sentence a front end says (the terminal's `error:` line, the phone's message).
    package var sentence: String {
        switch self {
        case let .sshUserNeeded(host):
            "the camera at \(host) says Access Authentication is on, so it is reached through SSH: pass --ssh-user "
                + "NAME (the user set in the camera's menu), or turn Access Authentication off; nothing was sent"
        }
    }
}
