import CameraSimulator
import Exposure
import Foundation
import ImageLuminance
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
        // `simulater`, `Simulator`, `simulatr` would otherwise be looked up as host names.
        if text.lowercased() == Self.simulatorAddress
            || ArgumentParser.closest(to: text.lowercased(), among: [Self.simulatorAddress]) != nil
        {
            throw UsageError("'\(text)' is not a camera address (did you mean 'simulator'?)", command: command)
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
        environment: [String: String], scene: Scene.Name? = nil, replay: SessionReplay? = nil,
        _ body: (SonyCamera, String) async throws -> T
    ) async throws -> T {
        switch self {
        case .address(let address):
            let camera = SonyCamera(
                configuration: try CameraCommand.cameraConfiguration(for: address, environment: environment))
            return try await body(camera, address.description)
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
            return try await CameraSimulator.withRunning(configuration: configuration) { simulator in
                let address = CameraAddress(host: "127.0.0.1", port: simulator.port)
                let camera = SonyCamera(
                    configuration: try CameraCommand.cameraConfiguration(for: address, environment: environment))
                return try await body(camera, Self.simulatorAddress)
            }
        }
    }
}

extension CameraAddress {
    /// An address from its parts.
    init(host: String, port: UInt16) {
        self.init(parsing: host)! // a literal host always parses
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
    /// Its Long Exposure NR setting (0xD15B), nil when it does not report one.
    var longExposureNR: Bool? = nil
    /// Its battery level and the shots left on its card, where it reports them.
    var media = MediaStatus()

    /// Connects (with `connectRetrying`'s backoff) and reads the camera's report; errors pass through as they
    /// are (`ErrorReport` gives them their text and exit code). `say` hears "Connecting to …" at once, each
    /// retry with its wait (so the backoff's 17 s are never silent).
    static func connect(
        _ camera: SonyCamera, address: String, say: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> CameraCheck {
        say(ConnectText.connecting(to: address))
        try await camera.connectRetrying { retry in say(ConnectText.retry(retry)) }
        let info = try await camera.info()
        let settings = try await camera.availableShutterSpeeds()
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
        return CameraCheck(
            identity: identity, blockers: blockers, offered: offered, settings: settings,
            longExposureNR: await camera.longExposureNR, media: await camera.mediaStatus())
    }
}

/// Failures of `run`, `resume` and `status` that are not another layer's.
enum ShootCommandError: Error, CLIReportable {
    /// No terminal to ask on, and no `--confirm`.
    case needsConfirmation
    /// The photographer answered no.
    case declined
    /// The camera is reachable but cannot shoot the plan now.
    case blocked([String])
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
    /// `--transfer none` on a body that sends its images to the computer (0xD222 is get-only).
    case transferNeedsCameraOnly

    /// One line saying what to do.
    var cliMessage: String {
        switch self {
        case .needsConfirmation:
            "not on a terminal, so hdrshoot cannot ask before firing; pass --confirm to shoot without asking"
        case .declined:
            "not confirmed; nothing was shot"
        case .blocked(let blockers):
            "the camera cannot shoot now: " + blockers.joined(separator: "; ")
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
        case .transferNeedsCameraOnly:
            "--transfer none needs the camera to keep its images: set MENU > Network > PC Remote Function > Still Img. "
                + "Save Dest. to 'Camera Only' on the camera (it cannot be set over the link); nothing was shot"
        }
    }

    /// 64 for a missing --confirm or an --output holding another shoot, 69 when the camera cannot shoot, 1 otherwise.
    var exitCode: ExitCode {
        switch self {
        case .needsConfirmation, .outputHoldsAnotherShoot: .usage
        case .declined, .nothingToResume, .noSuchShoot, .shootComplete, .outputUnavailable, .cannotRecord: .failure
        case .blocked, .transferNeedsCameraOnly: .unavailable
        }
    }
}
