import CameraSimulator
import CameraTunnel
import Foundation
import ImageLuminance
import LegacyCamera
import Posix
import ShootKit
import SonyCamera

/// `--camera` made a target, and the terminal's side of reaching it: the environment's camera settings, the
/// built-in simulator's replayed body, the questions on first contact with an SSH camera, and the lines it says.
extension CameraTarget {
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

    /// Runs `body` with a (not yet connected) camera for this target, reached by the layer with this process's
    /// environment and terminal; `say` hears each line of how it is reached (`ConnectionText`).
    func withCamera<T: Sendable>(
        environment: [String: String], scene: Scene.Name? = nil, replay: SessionReplay? = nil, resuming: Bool = false,
        explain: Bool = false, say: @escaping @Sendable (String) -> Void = { _ in },
        _ body: (any CommandCamera, String) async throws -> T
    ) async throws -> T {
        let reach = TerminalCameraReach(environment: environment, replay: replay, say: say)
        return try await withCamera(
            reach: reach, scene: scene, resuming: resuming, explain: explain,
            note: { note in say(ConnectionText.sentence(note)) }, body)
    }
}

/// The terminal's `CameraReach`: the camera settings of the environment (`HDRSHOOT_CONNECT_BACKOFF`,
/// `HDRSHOOT_TIME_SCALE`, the host identity), `--replay-session`'s body, and the photographer asked on the
/// terminal (standard error, the keyboard).
struct TerminalCameraReach: CameraReach {
    let environment: [String: String]
    /// `--replay-session LOG`: the built-in simulator becomes the logged body.
    let replay: SessionReplay?
    /// Where the pairing lines go.
    let say: @Sendable (String) -> Void

    /// Standard input and standard error are a terminal.
    var canAsk: Bool { TerminalMode.isTerminal(.standardInput) && TerminalMode.isTerminal(.standardError) }

    func configuration(for address: CameraAddress, announcingPairing: Bool) throws -> SonyCameraConfiguration {
        try CameraCommand.cameraConfiguration(
            for: address, environment: environment, say: announcingPairing ? say : nil)
    }

    func adjust(_ configuration: inout LegacySonyCameraConfiguration, resuming: Bool) throws {
        if let backoff = try CameraCommand.connectBackoff(environment: environment) {
            configuration.connectBackoff = backoff
        }
        try TimeScale(environment: environment).apply(to: &configuration)
        configuration.adoptsEarlierPictures = resuming
    }

    func adjust(_ configuration: inout SSHTunnelConfiguration) throws {
        try TimeScale(environment: environment).apply(to: &configuration)
    }

    /// `$HDRSHOOT_TIME_SCALE` (a test hook) runs the built-in body's time as fast as hdrshoot's waits.
    func simulatorClock() throws -> any Clock<Duration> { try TimeScale(environment: environment).clock }

    /// `--replay-session LOG`: the logged body (its data phases in a folder of their own, taken away once the
    /// simulator has stopped).
    func prepare(_ configuration: inout SimulatorConfiguration) throws -> @Sendable () -> Void {
        guard let replay else { return {} }
        return try replay.apply(to: &configuration)
    }

    /// Shows the fingerprint on first contact and asks on the terminal whether the camera shows the same.
    func confirmFirstContact(_ key: SSHHostKey, host: String) async -> Bool {
        let question = """
            The camera at \(host) is new to hdrshoot. Its SSH host key fingerprint is
              \(key.fingerprint) (\(key.algorithm))
            Compare it with the fingerprint the camera shows in its Access Authentication menu.
            Is it the same? [y/N] 
            """
        FileHandle.standardError.write(Data(question.utf8))
        let answer = try? await runBlocking { readLine() }
        return ["y", "yes"].contains((answer ?? nil)?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
    }

    /// Asks on the terminal without echo.
    func askPassword(user: String, host: String) async throws -> String? {
        let prompt = "Password of '\(user)' on the camera at \(host): "
        return try await runBlocking {
            FileHandle.standardError.write(Data(prompt.utf8))
            let mode = TerminalMode.enterSecretMode()
            defer { mode?.restore() }
            return readLine(strippingNewline: true)
        }
    }
}
