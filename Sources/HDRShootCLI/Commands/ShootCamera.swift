import CameraSimulator
import Exposure
import Foundation
import Shooting
import SonyCamera

/// Which camera a shoot uses: one at an address, or the built-in simulated camera.
enum CameraTarget: Sendable, Equatable {
    /// A camera at `host:port`.
    case address(CameraAddress)
    /// `--camera simulator`: a simulated Sony body started in-process on a free loopback port.
    case simulator

    /// The address stored in the journal for the simulator (resume starts a new one).
    static let simulatorAddress = "simulator"

    /// Parses `--camera`: `simulator`, `HOST`, `HOST:PORT`, `[IPv6]:PORT`.
    init(parsing text: String, command: String) throws(UsageError) {
        if text == Self.simulatorAddress {
            self = .simulator
            return
        }
        guard let address = CameraAddress(parsing: text) else {
            throw UsageError(
                "'\(text)' is not a camera address; write it like 192.168.122.1 or 192.168.122.1:15740, or use 'simulator'",
                command: command)
        }
        self = .address(address)
    }

    /// Runs `body` with a (not yet connected) camera for this target; a simulator lives exactly as long as `body`.
    func withCamera<T: Sendable>(
        environment: [String: String], _ body: (SonyCamera, String) async throws -> T
    ) async throws -> T {
        switch self {
        case .address(let address):
            let camera = SonyCamera(configuration: try CameraCommand.cameraConfiguration(for: address, environment: environment))
            return try await body(camera, address.description)
        case .simulator:
            var configuration = SimulatorConfiguration()
            configuration.port = 0
            // A faithful body (real exposure times); small images keep the demo folder light.
            configuration.imageSize = 100_000
            return try await CameraSimulator.withRunning(configuration: configuration) { simulator in
                let address = CameraAddress(host: "127.0.0.1", port: simulator.port)
                let camera = SonyCamera(configuration: try CameraCommand.cameraConfiguration(for: address, environment: environment))
                return try await body(camera, Self.simulatorAddress)
            }
        }
    }
}

extension CameraAddress {
    /// An address from its parts.
    init(host: String, port: UInt16) {
        self.init(parsing: host)!  // a literal host always parses
        self.port = port
    }
}

/// What the shoot commands learn from the camera before asking to proceed.
struct CameraCheck: Sendable {
    /// Who it is (address as given, or `simulator`).
    var identity: CameraIdentity
    /// What stops a shoot now, each a sentence with what to do.
    var blockers: [String]
    /// The timed speeds it offers.
    var offered: [ShutterSpeed]
    /// Every setting it offers (BULB included).
    var settings: [CameraShutterSpeed]

    /// Connects (with `connectRetrying`'s backoff) and reads the camera's report; connection failures
    /// become `ShootCommandError.cameraUnavailable` (exit 69). `say` hears "Connecting to …" at once, each
    /// retry with its wait, and "Connected to …" (so the backoff's 17 s are never silent).
    static func connect(_ camera: SonyCamera, address: String, say: @escaping @Sendable (String) -> Void = { _ in }) async throws -> CameraCheck {
        let info: SonyCameraInfo
        let settings: [CameraShutterSpeed]
        say(ConnectText.connecting(to: address))
        do {
            try await camera.connectRetrying { retry in say(ConnectText.retry(retry)) }
            info = try await camera.info()
            settings = try await camera.availableShutterSpeeds()
        } catch let error as SonyCameraError where error.isConnectionLost {
            throw ShootCommandError.cameraUnavailable(message: error.cliMessage)
        }
        var identity = await camera.identity
        identity.address = address
        if identity.model.isEmpty { identity.model = info.model }
        say("Connected to \(identity.model.isEmpty ? "the camera" : identity.model).")
        let offered = settings.compactMap { setting -> ShutterSpeed? in
            if case .timed(let speed) = setting { return speed }
            return nil
        }
        var blockers = info.blockers
        if offered.isEmpty, blockers.isEmpty { blockers.append("the camera offers no shutter speeds now") }
        return CameraCheck(identity: identity, blockers: blockers, offered: offered, settings: settings)
    }
}

/// Failures of `run`, `resume` and `status` that are not another layer's.
enum ShootCommandError: Error, CLIReportable {
    /// No terminal to ask on, and no `--confirm`.
    case needsConfirmation
    /// The photographer answered no.
    case declined
    /// The camera could not be reached.
    case cameraUnavailable(message: String)
    /// The camera is reachable but cannot shoot the plan now.
    case blocked([String])
    /// `resume` found nothing to continue.
    case nothingToResume(stateDirectory: String)
    /// The output folder could not be created.
    case outputUnavailable(path: String, reason: String)

    /// One line saying what to do.
    var cliMessage: String {
        switch self {
        case .needsConfirmation:
            "not on a terminal, so hdrshoot cannot ask before firing; pass --confirm to shoot without asking"
        case .declined:
            "not confirmed; nothing was shot"
        case .cameraUnavailable(let message):
            message
        case .blocked(let blockers):
            "the camera cannot shoot now: " + blockers.joined(separator: "; ")
        case .nothingToResume(let directory):
            "there is no unfinished shoot in \(directory) to resume; start one with `hdrshoot run`"
        case let .outputUnavailable(path, reason):
            "cannot create the output folder \(path): \(reason)"
        }
    }

    /// 64 for a missing --confirm, 69 when the camera cannot shoot, 1 otherwise.
    var exitCode: ExitCode {
        switch self {
        case .needsConfirmation: .usage
        case .declined, .nothingToResume, .outputUnavailable: .failure
        case .cameraUnavailable, .blocked: .unavailable
        }
    }
}
