import CameraSimulator
import Exposure
import Foundation
import ImageLuminance
import LegacyCamera
import LegacyCameraSimulator
import ShootKit
import Shooting
import SonyCamera

/// Which camera a shoot uses: one at an address (PTP/IP, the Camera Remote API, or a bare host that is probed
/// for both), or a built-in simulated camera.
enum CameraTarget: Sendable, Equatable {
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
    static let simulatorAddress = "simulator"
    /// The address stored in the journal for the simulated legacy body (`--camera simulator --api`).
    static let apiSimulatorAddress = "simulator-api"

    /// Parses `--camera`: `simulator`, `simulator-api`, `http://HOST:PORT`, `HOST`, `HOST:PORT`, `[IPv6]:PORT`;
    /// `api` (`--api`) asks for the Camera Remote API (the simulated legacy body, or port 8080 of a host).
    init(parsing text: String, command: String, api: Bool = false) throws(UsageError) {
        if text == Self.simulatorAddress || text == Self.apiSimulatorAddress {
            self = api || text == Self.apiSimulatorAddress ? .apiSimulator : .simulator
            return
        }
        if text.lowercased().hasPrefix("http://") || text.lowercased().hasPrefix("https://") {
            guard (try? LegacySonyCameraConfiguration(url: text)) != nil else {
                throw UsageError(
                    "'\(text)' is not a Camera Remote API address; write it like http://192.168.122.1:8080",
                    command: command)
            }
            self = .remoteAPI(text)
            return
        }
        // `simulater`, `Simulator`, `simulatr` would otherwise be looked up as host names.
        if text.lowercased() == Self.simulatorAddress
            || ArgumentParser.closest(to: text.lowercased(), among: [Self.simulatorAddress]) != nil
        {
            throw UsageError("'\(text)' is not a camera address (did you mean 'simulator'?)", command: command)
        }
        guard let address = CameraAddress(parsing: text) else {
            throw UsageError(
                "'\(text)' is not a camera address; write it like 192.168.122.1, 192.168.122.1:15740 or "
                    + "http://192.168.122.1:8080, or use 'simulator'",
                command: command)
        }
        if api {
            let port = CameraAddress.hasPort(text) ? address.port : LegacySonyCameraConfiguration.defaultPort
            self = .remoteAPI("http://\(CameraAddress(host: address.host, port: port).description)")
        } else {
            self = CameraAddress.hasPort(text) ? .address(address) : .host(address, SSHConnection.Choice())
        }
    }

    /// The target of a remembered or journaled address (`http://...`, `simulator-api`, or PTP/IP `host:port`).
    init?(stored text: String) {
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
    /// simulator lives exactly as long as `body`. A bare host is described or probed first (`say` hears which
    /// connection it gets and why). `explain` says the connection of a camera at a given address too (`hdrshoot
    /// camera`). `resuming` lets a legacy body hand over a picture an earlier run left in it.
    func withCamera<T: Sendable>(
        environment: [String: String], scene: Scene.Name? = nil, replay: SessionReplay? = nil, resuming: Bool = false,
        explain: Bool = false, say: @escaping @Sendable (String) -> Void = { _ in },
        _ body: (any CommandCamera, String) async throws -> T
    ) async throws -> T {
        switch self {
        case .address(let address):
            if explain {
                say(ConnectionText.line(CameraConnection(route: .plain, reason: .portGiven), address: address))
            }
            let camera = SonyCamera(
                configuration: try CameraCommand.cameraConfiguration(for: address, environment: environment, say: say))
            return try await body(camera, address.description)
        case let .ssh(address, settings):
            if explain || settings.reason == .described {
                say(
                    ConnectionText.line(
                        CameraConnection(route: .ssh, reason: settings.reason), address: address, user: settings.user))
            }
            return try await SSHConnection.withTunnel(
                to: address, settings: settings, environment: environment, say: say
            ) { forwarded in
                let camera = SonyCamera(
                    configuration: try CameraCommand.cameraConfiguration(for: forwarded, environment: environment))
                return try await body(camera, SSHConnection.stored(address, settings))
            }
        case let .host(address, choice):
            let described = await ProtocolProbe.describe(host: address.host)
            let connection = CameraConnection.decide(description: described, preference: choice.preference)
            let resolved: CameraTarget
            switch (connection.route, connection.reason) {
            case (_, .notDescribed):
                let found = await ProtocolProbe.find(host: address.host, ptpipPort: address.port)
                if let found { say(found.sentence) }
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
                say(ConnectionText.line(connection, address: address, description: described))
                resolved = .address(address)
            }
            return try await resolved.withCamera(
                environment: environment, scene: scene, replay: replay, resuming: resuming, say: say, body)
        case .remoteAPI(let url):
            var configuration = try LegacySonyCameraConfiguration(url: url)
            try Self.adjust(&configuration, environment: environment, resuming: resuming)
            return try await body(LegacySonyCamera(configuration: configuration), configuration.address)
        case .simulator:
            var configuration = SimulatorConfiguration()
            configuration.port = 0
            // A faithful body (real exposure times); small images keep the demo folder light.
            configuration.imageSize = 100_000
            configuration.scene = scene
            // `--replay-session LOG`: the simulator becomes the logged body (files read as it starts).
            let replayFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "hdrshoot-replay-\(UUID())"
            ).path
            defer { try? FileManager.default.removeItem(atPath: replayFolder) }
            try replay?.apply(to: &configuration, folder: replayFolder)
            // `$HDRSHOOT_TIME_SCALE` (a test hook) runs the built-in body's time as fast as hdrshoot's waits.
            let clock = try TimeScale(environment: environment).clock
            return try await CameraSimulator.withRunning(configuration: configuration, clock: clock) { simulator in
                let address = CameraAddress(host: "127.0.0.1", port: simulator.port)
                let camera = SonyCamera(
                    configuration: try CameraCommand.cameraConfiguration(for: address, environment: environment))
                return try await body(camera, Self.simulatorAddress)
            }
        case .apiSimulator:
            var simulated = LegacySimulatorConfiguration()
            // A faithful A6000 (real exposure times, startRecMode, sets applying late) set up for HDR: a fixed
            // ISO, so BULB frames can be shot; small images keep the demo folder light.
            simulated.isoSpeedRate = "100"
            simulated.imageSize = 100_000
            let clock = try TimeScale(environment: environment).clock
            return try await LegacyCameraSimulator.withRunning(configuration: simulated, clock: clock) { simulator in
                var configuration = try LegacySonyCameraConfiguration(url: simulator.descriptionURL)
                configuration.address = Self.apiSimulatorAddress
                try Self.adjust(&configuration, environment: environment, resuming: resuming)
                return try await body(LegacySonyCamera(configuration: configuration), Self.apiSimulatorAddress)
            }
        }
    }

    /// The environment's connect schedule, and whether earlier pictures are handed over.
    private static func adjust(
        _ configuration: inout LegacySonyCameraConfiguration, environment: [String: String], resuming: Bool
    ) throws {
        if let backoff = try CameraCommand.connectBackoff(environment: environment) {
            configuration.connectBackoff = backoff
        }
        try TimeScale(environment: environment).apply(to: &configuration)
        configuration.adoptsEarlierPictures = resuming
    }
}

extension CameraAddress {
    /// An address from its parts.
    init(host: String, port: UInt16) {
        self.init(parsing: host)! // a literal host always parses
        self.port = port
    }
}

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
