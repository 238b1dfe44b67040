import CameraSimulator
import Dispatch
import Foundation
import PTPIP
import Posix
import ShootKit
import SonyCamera
import SonyProtocol

/// `hdrshoot camera`: connects to the camera and reports what it is, how it is set, and what blocks a shoot.
enum CameraCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "camera",
        abstract: "Connect to the camera and show its model, mode, shutter speeds and what would block a shoot.",
        discussion: """
            Connects over Wi-Fi (PTP/IP) to the camera at --camera, or to the one used last time, and prints
            model, firmware, Sony protocol version, exposure mode (hdrshoot needs M or S), current and available
            shutter speeds, and the save destination. An http://HOST:PORT address (or --api) uses Sony's older
            Camera Remote API instead and shows its API version, application and available API list; a bare
            address is tried with PTP/IP first, then with the Camera Remote API. The camera address is remembered for next time in
            $XDG_CONFIG_HOME/hdrshoot/last-camera. --camera simulator starts the built-in simulated camera.
            """,
        options: [
            .value(
                "camera", placeholder: "<host[:port]|http://host:port|simulator>",
                help:
                    "The camera's address, or 'simulator' for the built-in simulated camera (default: the last one used).",
                default: nil),
            .flag(
                "api",
                help: "Use Sony's Camera Remote API (older bodies); with 'simulator', the simulated legacy body."),
            .flag("json", help: "Print one JSON object."),
            SessionReplay.option
        ] + SSHConnection.options,
        run: run
    )

    private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let store = CameraAddressStore(environment: environment)
        let chosen = try ChosenCamera.choose(
            given: try ChosenCamera.given(arguments, api: arguments.flag("api")), or: .remembered(store),
            arguments: arguments, replay: try SessionReplay.fromOption(arguments, output: context.output),
            noCamera: UsageError(
                "no camera given and none remembered; pass --camera HOST[:PORT] (try 'hdrshoot discover'), "
                    + "or --camera simulator to try hdrshoot without a camera", command: spec.name))
        let json = arguments.flag("json")
        let output = context.output
        let (report, shown) = try await chosen.target.withCamera(
            environment: environment, replay: chosen.replay, explain: true,
            say: { line in if !json { output.writeOut(line + "\n") } }
        ) { camera, address in
            (try CameraReport.render(try await camera.readReport(), address: address, json: json), address)
        }
        await store.remember(shown)
        output.writeOut(report)
        return .success
    }

    /// The camera configuration for `address`, with this host's stored PTP/IP identity.
    static func cameraConfiguration(
        for address: CameraAddress, environment: [String: String], say: (@Sendable (String) -> Void)? = nil
    ) throws -> SonyCameraConfiguration {
        let identity: HostIdentity
        do {
            identity = try HostIdentity.loadOrCreate(environment: environment)
        } catch {
            throw CameraCommandError.identityUnavailable(reason: "\(error)")
        }
        var configuration = SonyCameraConfiguration(host: address.host, port: address.port, identity: identity)
        if let backoff = try connectBackoff(environment: environment) { configuration.connectBackoff = backoff }
        if let hint = try pairingHint(environment: environment) { configuration.pairingHint = hint }
        try TimeScale(environment: environment).apply(to: &configuration)
        // Beside the host identity: what a shoot changed on the body's focus, until it is put back.
        configuration.focusRecordDirectory = HostIdentity.defaultStoragePath(environment: environment)
            .map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        // In the state folder: what each body taught (the real ends of an unlisted shutter range), by serial.
        configuration.bodyRecordDirectory = UserDirectory.state.path("bodies", environment: environment)
            .map { URL(fileURLWithPath: $0) }
        // The session log hears every operation, event and connection attempt (nil when there is no log).
        configuration.ptpipObserver = SessionLogging.observer
        // A body that needs pairing holds its Init Command Ack until the photographer presses OK on it.
        // It says the wait and counts it down in the photographer's time (`HDRSHOOT_TIME_SCALE` shortens both).
        if let say {
            let factor = try TimeScale(environment: environment).factor
            configuration.onAwaitingPairing = { name, wait in
                say(ConnectText.awaitingPairing(name: name, wait: wait * factor))
            }
            configuration.onPairingCountdown = { left in say(ConnectText.pairingCountdown(left: left * factor)) }
        }
        return configuration
    }
}

extension CameraCommand {
    /// The environment variable holding the waits between connection attempts (`2s,5s,10s` by default).
    static let connectBackoffVariable = "HDRSHOOT_CONNECT_BACKOFF"

    /// The waits of `$HDRSHOOT_CONNECT_BACKOFF` (`2s,5s,10s`: three retries after 2, 5 and 10 s); nil when it
    /// is unset or empty. A body that takes long to bring up its Wi-Fi gets longer waits; scripts and tests
    /// get short ones.
    static func connectBackoff(environment: [String: String]) throws(CameraCommandError) -> [Duration]? {
        guard let text = environment[connectBackoffVariable], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            return nil
        }
        var waits: [Duration] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let wait = ShootConsole.parseDuration(String(item)), wait <= maximumConnectWait else {
                throw .badConnectBackoff(text)
            }
            waits.append(wait)
        }
        return waits
    }

    /// The longest single wait between connection attempts `HDRSHOOT_CONNECT_BACKOFF` may ask for.
    static let maximumConnectWait: Duration = .seconds(600)

    /// The environment variable holding how long hdrshoot waits for the Init Command Ack before it tells the
    /// photographer to press OK on the body's pairing screen (2 s by default).
    static let pairingHintVariable = "HDRSHOOT_PAIRING_HINT"

    /// The wait of `$HDRSHOOT_PAIRING_HINT` (`100ms`, `2s`); nil when it is unset or empty. A test hook: a
    /// simulated body that always shows the pairing screen need not be given the 2 s a real one may take to
    /// acknowledge, and a test then waits for the line, not for the hint.
    static func pairingHint(environment: [String: String]) throws(CameraCommandError) -> Duration? {
        guard let text = environment[pairingHintVariable], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            return nil
        }
        guard let wait = ShootConsole.parseDuration(text), wait > .zero, wait <= maximumPairingHint else {
            throw .badPairingHint(text)
        }
        return wait
    }

    /// The longest wait `HDRSHOOT_PAIRING_HINT` may ask for (the handshake's own timeout is 10 s).
    static let maximumPairingHint: Duration = .seconds(5)
}

/// Failures of the camera commands that are not the camera's.
enum CameraCommandError: Error, CLIReportable, Equatable {
    /// The host GUID file could not be read or created.
    case identityUnavailable(reason: String)
    /// `$HDRSHOOT_CONNECT_BACKOFF` is not a list of waits.
    case badConnectBackoff(String)
    /// `$HDRSHOOT_PAIRING_HINT` is not a wait.
    case badPairingHint(String)
    /// `$HDRSHOOT_TIME_SCALE` is not a factor.
    case badTimeScale(String)
    /// `$HDRSHOOT_SHORTEST_MARGIN` is not a duration from above 0 to 2 s.
    case badShortestMargin(String)

    var cliMessage: String {
        switch self {
        case let .identityUnavailable(reason): "cannot load this computer's PTP/IP identity: \(reason)"
        case let .badConnectBackoff(text):
            "\(CameraCommand.connectBackoffVariable)='\(text)' is not a list of waits between connection attempts; "
                + "write it like 2s,5s,10s (each at most 10m), or unset it"
        case let .badPairingHint(text):
            "\(CameraCommand.pairingHintVariable)='\(text)' is not a wait before the pairing screen is said (a test "
                + "hook); write it like 100ms or 2s (at most 5s), or unset it"
        case let .badTimeScale(text):
            "\(TimeScale.variable)='\(text)' is not a time scale (a test hook); write a whole number from 1 to "
                + "\(TimeScale.maximum), or unset it"
        case let .badShortestMargin(text):
            "\(TimeScale.shortestMarginVariable)='\(text)' is not a margin (a test hook); write a duration above 0 "
                + "and at most 2s, like 200ms, or unset it"
        }
    }

    var exitCode: ExitCode {
        switch self {
        case .identityUnavailable: .failure
        case .badConnectBackoff, .badPairingHint, .badTimeScale, .badShortestMargin: .usage
        }
    }
}

/// Remembers the last camera used: one line in `$XDG_CONFIG_HOME/hdrshoot/last-camera` (else `~/.config`).
struct CameraAddressStore {
    /// The file, or nil when neither XDG_CONFIG_HOME nor HOME is set.
    let path: String?

    /// The store for `environment`.
    init(environment: [String: String]) {
        path = UserDirectory.config.path("last-camera", environment: environment)
    }

    /// The remembered address, if any (a PTP/IP one: see `loadTarget()` for every kind).
    func load() -> CameraAddress? {
        guard let text = loadText() else { return nil }
        return CameraAddress(parsing: text)
    }

    /// The remembered camera, whichever protocol it speaks (`host:port` or `http://HOST:PORT`).
    func loadTarget() -> CameraTarget? {
        loadText().flatMap { CameraTarget(stored: $0) }
    }

    /// The remembered camera as stored (`host:port`, `http://HOST:PORT`, `ssh://USER@HOST:PORT`), when it names one.
    func loadStored() -> String? {
        loadText().flatMap { CameraTarget(stored: $0) == nil ? nil : $0 }
    }

    private func loadText() -> String? {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Remembers the camera a command used at `address` (as shown and journaled); a simulator is not remembered.
    func remember(_ address: String) async {
        guard address != CameraTarget.simulatorAddress, address != CameraTarget.apiSimulatorAddress,
            CameraTarget(stored: address) != nil
        else { return }
        await save(line: address)
    }

    /// Remembers `address`; best effort (a read-only home only loses the convenience). The file calls block,
    /// so they run on a queue of their own, never on the cooperative pool.
    func save(_ address: CameraAddress) async {
        await save(line: address.description)
    }

    private func save(line text: String) async {
        guard let path else { return }
        let line = text + "\n"
        await runBlocking(on: Self.queue) {
            try? FileSystem.replace(path, with: Array(line.utf8), creatingFolder: true)
        }
    }

    private static let queue = DispatchQueue(label: "hdrshoot.last-camera")
}
