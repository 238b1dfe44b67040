import Foundation
import JSON
import LegacyCamera
import PTPIP
import Posix
import ShootKit
import SonyCamera

/// `hdrshoot discover`: finds Sony cameras on the networks this computer is on and says which can shoot now.
enum DiscoverCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "discover",
        abstract: "Find Sony cameras on the network and check whether each is ready to shoot.",
        discussion: """
            Sends an SSDP search for Sony's remote services (DigitalImaging and ScalarWebAPI) out of every
            network interface, reads each answering camera's description (name, model, whether it needs pairing
            or SSH), then opens a PTP/IP session to confirm it and check the mode dial (M or S). When this
            computer is on a camera's own Wi-Fi (192.168.122.0/24), 192.168.122.1 is tried as well. When exactly
            one camera is ready, it is remembered for 'hdrshoot camera'.
            """,
        options: [
            .value(
                "timeout", placeholder: "<duration>", help: "How long to wait for answers (5s, 1500ms, 2).",
                default: "5s"),
            .flag("json", help: "Print one JSON object."),
            .value(
                "ssdp-target", placeholder: "<host:port>[,...]",
                help: "For testing: search only these addresses (unicast).", default: nil, hidden: true),
            .value(
                "ptpip-port", placeholder: "<port>", help: "For testing: the PTP/IP port to confirm cameras on.",
                default: "15740", hidden: true),
            .value(
                "expect-answers", placeholder: "<count>",
                help: "For testing: end the search once this many answers (address and service) arrived.",
                default: nil, hidden: true)
        ],
        run: run
    )

    private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        let timeout = try arguments.value("timeout", default: Duration.seconds(5), parseDuration)
        let port = try arguments.value("ptpip-port", default: PTPIPClient.defaultPort) { text in
            guard let port = UInt16(text), port > 0 else { throw UsageError("'\(text)' is not a port") }
            return port
        }
        let targets = try arguments.value("ssdp-target", default: [SocketAddress]?.none) { text in
            try text.split(separator: ",").map { item in
                guard let address = CameraAddress(parsing: String(item)), item.contains(":"),
                    let socket = SocketAddress(numericHost: address.host, port: address.port)
                else {
                    throw UsageError("'\(item)' is not an address; write it like 127.0.0.1:1900")
                }
                return socket
            }
        }
        let expectedAnswers = try arguments.value("expect-answers", default: Int?.none) { text in
            guard let count = Int(text), count > 0 else { throw UsageError("'\(text)' is not a count of answers") }
            return count
        }
        let environment = ProcessInfo.processInfo.environment
        let identity: HostIdentity
        do {
            identity = try HostIdentity.loadOrCreate(environment: environment)
        } catch {
            throw CameraCommandError.identityUnavailable(reason: "\(error)")
        }
        var configuration = DiscoveryConfiguration(identity: identity)
        configuration.searchTime = timeout
        configuration.ptpipPort = port
        configuration.expectedAnswers = expectedAnswers
        if let targets {
            configuration.ssdpTargets = targets
            // Explicit targets replace the whole real-network search, the access-point fallback included.
            configuration.hostAddresses = []
        }
        var cameras: [DiscoveredCamera]
        do {
            cameras = try await CameraDiscovery(configuration: configuration).run()
        } catch {
            throw DiscoverCommandError.searchFailed(reason: "\(error)")
        }
        var remoteAPI: [String: RemoteAPIReadiness] = [:]
        for camera in cameras {
            guard let url = camera.remoteAPIURL else { continue }
            remoteAPI[camera.host] = await RemoteAPIReadiness.confirm(url)
        }
        // One address per camera: PTP/IP when it is ready there, else the Camera Remote API when it is.
        let ready = cameras.compactMap { camera -> String? in
            if camera.isReady { return camera.address }
            return remoteAPI[camera.host].flatMap { $0.isReady ? $0.address : nil }
        }
        if ready.count == 1 { await CameraAddressStore(environment: environment).remember(ready[0]) }
        context.output.writeOut(
            arguments.flag("json")
                ? try json(cameras, remoteAPI: remoteAPI)
                : text(cameras, timeout: timeout, remembered: ready.count == 1, remoteAPI: remoteAPI))
        return .success
    }

    /// What the Camera Remote API of a discovered body said: whether it can shoot, in which mode, or why not.
    struct RemoteAPIReadiness: Sendable {
        /// `http://HOST:PORT`.
        var address: String
        /// The exposure mode, when it answered.
        var exposureMode: String?
        /// The API versions, when it answered.
        var apiVersions: [String] = []
        /// What stops a shoot (or why it could not be reached); empty when ready.
        var problems: [String]

        /// Whether a session opened and nothing blocks a shoot.
        var isReady: Bool { problems.isEmpty }

        /// Opens a session to the API at `url` (its ActionList_URL), reads what blocks a shoot, and closes it.
        static func confirm(_ url: String) async -> RemoteAPIReadiness {
            guard var configuration = try? LegacySonyCameraConfiguration(url: url) else {
                return RemoteAPIReadiness(address: url, problems: ["the description names an unusable API address"])
            }
            configuration.callTimeout = .seconds(3)
            configuration.recModeTimeout = .seconds(5)
            let camera = LegacySonyCamera(configuration: configuration)
            do {
                try await camera.connect()
                let info = try await camera.info()
                await camera.disconnect()
                return RemoteAPIReadiness(
                    address: configuration.address, exposureMode: info.exposureMode, apiVersions: info.apiVersions,
                    problems: info.blockers)
            } catch {
                await camera.disconnect()
                return RemoteAPIReadiness(address: configuration.address, problems: [HDRShoot.message(for: error)])
            }
        }
    }

    /// `5s`, `1500ms`, `2.5s`, `2` (seconds); between 100 ms and 60 s.
    static func parseDuration(_ text: String) throws -> Duration {
        let lower = text.lowercased()
        let (number, scale): (Substring, Double) =
            lower.hasSuffix("ms")
            ? (lower.dropLast(2), 0.001)
            : lower.hasSuffix("s") ? (lower.dropLast(), 1) : (lower[...], 1)
        guard let value = Double(number), value.isFinite else {
            throw UsageError("'\(text)' is not a duration; write it like 5s or 1500ms")
        }
        let milliseconds = Int((value * scale * 1000).rounded())
        guard (100...60_000).contains(milliseconds) else { throw UsageError("'\(text)' is outside 100ms...60s") }
        return .milliseconds(milliseconds)
    }

    // MARK: - Output

    /// One line per camera, then notes indented below it.
    static func text(
        _ cameras: [DiscoveredCamera], timeout: Duration, remembered: Bool,
        remoteAPI: [String: RemoteAPIReadiness] = [:]
    ) -> String {
        guard !cameras.isEmpty else {
            return "No Sony camera answered within \(format(timeout)). Check that the camera's 'Ctrl w/ Smartphone' "
                + "(or 'PC Remote') is on and that this computer has joined the camera's Wi-Fi.\n"
        }
        var out = "Found \(cameras.count) camera\(cameras.count == 1 ? "" : "s"):\n"
        for camera in cameras {
            let name = camera.friendlyName ?? "(no name)"
            let model = camera.model ?? "(unknown model)"
            var status = "not ready"
            if case let .connected(mode, _, blockers) = camera.readiness, blockers.isEmpty {
                status = "ready (mode \(mode ?? "?"))"
            }
            out += "  \(name)  \(model)  \(camera.address)  \(status)\n"
            for problem in camera.problems where !camera.isReady {
                out += "      - \(problem)\n"
            }
            if camera.digitalImaging.pairingRequired == true {
                out += "      note: the camera asks to approve this computer once (pairing); confirm on its screen\n"
            }
            if let connection = connection(of: camera) {
                out += "      connection: \(connectionText(connection, host: camera.host))\n"
            }
            let modes = transferModes(of: camera.digitalImaging)
            if !modes.isEmpty { out += "      offers: \(modes.joined(separator: ", "))\n" }
            if let problem = camera.descriptionProblem {
                out += "      note: \(problem)\n"
            }
            if let api = remoteAPI[camera.host] {
                let state = api.isReady ? "ready (mode \(api.exposureMode ?? "?"))" : "not ready"
                out += "      Camera Remote API at \(api.address): \(state)\n"
                for problem in api.problems { out += "      - \(problem)\n" }
            }
        }
        if remembered { out += "The ready camera is remembered: 'hdrshoot camera' will use it.\n" }
        return out
    }

    /// How hdrshoot would reach `camera`, when its description was read.
    static func connection(of camera: DiscoveredCamera) -> CameraConnection? {
        let imaging = camera.digitalImaging
        guard camera.descriptionProblem == nil, imaging.sshRequired != nil || imaging.pairingRequired != nil else {
            return nil
        }
        return CameraConnection.decide(description: imaging, preference: .automatic)
    }

    /// `PTP/IP through SSH (Access Authentication is on): hdrshoot camera --camera HOST --ssh-user NAME`.
    static func connectionText(_ connection: CameraConnection, host: String) -> String {
        switch connection.route {
        case .plain: "plain PTP/IP (the description asks for neither SSH nor pairing)"
        case .pairing: "PTP/IP with pairing (press OK on the camera the first time)"
        case .ssh:
            "PTP/IP through SSH (Access Authentication is on): hdrshoot camera --camera \(host) --ssh-user NAME"
        }
    }

    /// The modes the description offers: remote control (shooting) and contents transfer (reference p. 39).
    static func transferModes(of imaging: DigitalImagingDescription) -> [String] {
        var modes: [String] = []
        if imaging.remoteControlSupported == true { modes.append("remote control") }
        if imaging.mediaServerSupported == true { modes.append("contents transfer") }
        return modes
    }

    /// `{"cameras": [...]}`, each with `name`, `model`, `address`, `host`, `port`, `ready`, `exposureMode`,
    /// `protocolVersion`, `problems`, `udn`, `services`, `pairingRequired`, `sshRequired`, `connection` (`plain`,
    /// `pairing`, `ssh`), `contentsTransfer`, `source`,
    /// `descriptionProblem` (unknown values are null).
    static func json(_ cameras: [DiscoveredCamera], remoteAPI: [String: RemoteAPIReadiness] = [:]) throws -> String {
        ShootText.jsonLine(DiscoveryReport(cameras: cameras.map { CameraEntry($0, remoteAPI: remoteAPI[$0.host]) }))
    }

    /// `discover --json`'s one object.
    struct DiscoveryReport: Encodable {
        /// The cameras found, in the order they answered.
        var cameras: [CameraEntry]
    }

    /// One camera of `discover --json`; a value not known is `null`, its key always there.
    struct CameraEntry: Encodable {
        @AlwaysEncoded var name: String? = nil
        @AlwaysEncoded var model: String? = nil
        var address: String
        var host: String
        var port: Int
        var ready: Bool
        @AlwaysEncoded var exposureMode: String? = nil
        @AlwaysEncoded var protocolVersion: String? = nil
        var problems: [String]
        @AlwaysEncoded var udn: String? = nil
        var services: [String]
        @AlwaysEncoded var pairingRequired: Bool? = nil
        @AlwaysEncoded var sshRequired: Bool? = nil
        @AlwaysEncoded var connection: String? = nil
        @AlwaysEncoded var contentsTransfer: Bool? = nil
        var source: String
        @AlwaysEncoded var descriptionProblem: String? = nil
        @AlwaysEncoded var remoteAPI: RemoteAPIEntry? = nil

        /// The entry of `camera`, with the Camera Remote API found on its host.
        init(_ camera: DiscoveredCamera, remoteAPI api: RemoteAPIReadiness?) {
            name = camera.friendlyName
            model = camera.model
            address = camera.address
            host = camera.host
            port = Int(camera.ptpipPort)
            ready = camera.isReady
            if case let .connected(exposureMode, protocolVersion, _) = camera.readiness {
                self.exposureMode = exposureMode
                self.protocolVersion = protocolVersion
            }
            problems = camera.problems
            udn = camera.udn
            services = camera.services
            pairingRequired = camera.digitalImaging.pairingRequired
            sshRequired = camera.digitalImaging.sshRequired
            connection = DiscoverCommand.connection(of: camera)?.route.rawValue
            contentsTransfer = camera.digitalImaging.mediaServerSupported
            source = camera.source.rawValue
            descriptionProblem = camera.descriptionProblem
            remoteAPI = api.map(RemoteAPIEntry.init)
        }
    }

    /// The Camera Remote API on a discovered camera's host.
    struct RemoteAPIEntry: Encodable {
        var address: String
        var ready: Bool
        @AlwaysEncoded var exposureMode: String?
        var apiVersions: [String]
        var problems: [String]

        /// The entry of what the API answered.
        init(_ api: RemoteAPIReadiness) {
            address = api.address
            ready = api.isReady
            exposureMode = api.exposureMode
            apiVersions = api.apiVersions
            problems = api.problems
        }
    }

    private static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}

/// Failures of `hdrshoot discover` that are not a camera's.
enum DiscoverCommandError: Error, CLIReportable {
    /// No search socket could be opened.
    case searchFailed(reason: String)

    var cliMessage: String {
        switch self {
        case let .searchFailed(reason): "cannot search the network for cameras: \(reason)"
        }
    }

    var exitCode: ExitCode { .failure }
}
