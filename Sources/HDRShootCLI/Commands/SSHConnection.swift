import CameraTunnel
import Foundation
import Posix
import ShootKit

/// How a command reaches a camera whose Access Authentication is on: `--ssh` and its options, the password,
/// the host key's first contact, and the tunnel that lives as long as the command needs the camera.
enum SSHConnection {
    /// The options of the commands that connect to a camera (`camera`, `run`, `resume`).
    static let options: [OptionSpec] = [
        .flag(
            "ssh",
            help: "Reach the camera through SSH (Access Authentication on); the port in --camera is then its SSH port."),
        .flag(
            "no-ssh",
            help: "Plain PTP/IP on port 15740 whatever the camera's description says (a bare --camera HOST "
                + "otherwise goes through SSH when the camera says Access Authentication is on)."),
        .value(
            "ssh-user", placeholder: "<name>",
            help: "With --ssh: the user set in the camera's Access Authentication menu."),
        .value(
            "ssh-password-file", placeholder: "<file>",
            help: "With --ssh: read the password from this file (mode 0600; a trailing newline is ignored)."),
        .value(
            "ssh-fingerprint", placeholder: "<SHA256:...>",
            help: "With --ssh: the camera's host key fingerprint as its menu shows it; pins the key up front.")
    ]

    /// The environment variable naming the camera-side PTP/IP port behind sshd (a test hook; 15740 otherwise).
    static let forwardPortVariable = "HDRSHOOT_SSH_FORWARD_PORT"

    /// What `--ssh` and its options ask for.
    struct Settings: Sendable, Equatable {
        /// `--ssh-user`.
        var user: String
        /// `--ssh-password-file`, when given.
        var passwordFile: String?
        /// `--ssh-fingerprint`, when given.
        var fingerprint: String?
        /// Why SSH: asked for, remembered or journaled, or the camera's description says so.
        var reason: CameraConnection.Reason = .asked
    }

    /// What a bare `--camera HOST` carries until the camera's description decides the way in: `--no-ssh` or
    /// nothing, and the SSH options to use if the camera says it needs SSH.
    struct Choice: Sendable, Equatable {
        /// `--no-ssh`, or automatic.
        var preference: CameraConnection.Preference = .automatic
        /// `--ssh-user`, `--ssh-password-file`, `--ssh-fingerprint`.
        var overrides = Overrides()
    }

    /// `--ssh-user`, `--ssh-password-file` and `--ssh-fingerprint` as given, to apply to a camera behind SSH
    /// that comes from the journal or the remembered address (`resume`, a bare `hdrshoot camera`).
    struct Overrides: Sendable, Equatable {
        /// `--ssh-user`.
        var user: String?
        /// `--ssh-password-file`.
        var passwordFile: String?
        /// `--ssh-fingerprint`.
        var fingerprint: String?

        /// The options of `arguments`.
        init(_ arguments: ParsedArguments) {
            user = arguments.string("ssh-user")
            passwordFile = arguments.string("ssh-password-file")
            fingerprint = arguments.string("ssh-fingerprint")
        }

        /// None given.
        init() {}

        /// Whether any was given.
        var isEmpty: Bool { user == nil && passwordFile == nil && fingerprint == nil }

        /// `target` with these applied when it is a camera behind SSH; any other target unchanged.
        func applied(to target: CameraTarget) -> CameraTarget {
            guard case .ssh(let address, var settings) = target else { return target }
            if let user { settings.user = user }
            if let passwordFile { settings.passwordFile = passwordFile }
            if let fingerprint { settings.fingerprint = fingerprint }
            return .ssh(address, settings)
        }
    }

    /// The target `--ssh` makes of `target`: the camera's SSH port (22 unless `--camera` names one), the user;
    /// without `--ssh`, `target` with the SSH options applied (a camera behind SSH, a bare host whose description
    /// decides, or none yet: the journal's or the remembered one gets them later). `--no-ssh` makes a remembered
    /// camera behind SSH plain PTP/IP again. The SSH options on any other camera are a usage error.
    static func apply(
        to target: CameraTarget?, arguments: ParsedArguments
    ) throws(UsageError) -> CameraTarget? {
        let overrides = Overrides(arguments)
        let noSSH = arguments.flag("no-ssh")
        // What the config file gave applies where it fits and is left out elsewhere (a `[camera ...]` section's
        // SSH user on `--camera simulator`); only what the command line gave can be a usage error.
        let sshOptions = ["ssh-user", "ssh-password-file", "ssh-fingerprint"]
        let typed = sshOptions.contains { arguments.string($0) != nil && !arguments.fromConfig.contains($0) }
        let sshConfigured = arguments.fromConfig.contains("ssh")
        guard arguments.flag("ssh") else {
            switch target {
            case nil: return nil
            case let .ssh(address, settings)?:
                guard !noSSH else { return .address(CameraAddress(host: address.host, port: ptpipPort)) }
                return overrides.applied(to: .ssh(address, settings))
            case let .host(address, _)?:
                return .host(address, Choice(preference: noSSH ? .noSSH : .automatic, overrides: overrides))
            case let other?:
                guard !typed else {
                    throw UsageError(
                        "--ssh-user, --ssh-password-file and --ssh-fingerprint need --ssh, or a bare --camera HOST "
                            + "whose description says it needs SSH", command: arguments.command)
                }
                return other
            }
        }
        guard !noSSH else { throw UsageError("--ssh and --no-ssh contradict each other", command: arguments.command) }
        let address: CameraAddress
        switch target {
        case let .host(given, _): address = CameraAddress(host: given.host, port: 22)
        case let .address(given): address = given
        case let .ssh(given, _): address = given
        case nil where sshConfigured: return nil
        case let other? where sshConfigured && !typed:
            // `ssh = yes` in the file does not make a simulator or an http:// camera an SSH one.
            switch other {
            case .simulator, .apiSimulator, .remoteAPI: return other
            default: break
            }
            throw UsageError(
                "--ssh needs --camera HOST[:SSH-PORT] (the camera's own address)", command: arguments.command)
        case nil, .simulator, .apiSimulator, .remoteAPI:
            throw UsageError(
                "--ssh needs --camera HOST[:SSH-PORT] (the camera's own address)", command: arguments.command)
        }
        guard let user = overrides.user, !user.isEmpty else {
            throw UsageError(
                "--ssh needs --ssh-user NAME, the user set in the camera's Access Authentication menu"
                    + (sshConfigured ? " (the config file says ssh = yes)" : ""),
                command: arguments.command)
        }
        return .ssh(
            address,
            Settings(
                user: user, passwordFile: overrides.passwordFile, fingerprint: overrides.fingerprint,
                reason: sshConfigured ? .configured : .asked))
    }

    /// The PTP/IP port of a camera reached without SSH.
    static let ptpipPort: UInt16 = 15740

    /// `ssh://USER@HOST:PORT`: how a camera behind SSH is remembered and journaled (never the password).
    static func stored(_ address: CameraAddress, _ settings: Settings) -> String {
        "ssh://\(settings.user)@\(address.description)"
    }

    /// Parses `ssh://USER@HOST:PORT`; nil for anything else.
    static func parseStored(_ text: String) -> (CameraAddress, Settings)? {
        guard text.hasPrefix("ssh://") else { return nil }
        let rest = text.dropFirst("ssh://".count)
        guard let at = rest.lastIndex(of: "@") else { return nil }
        let user = String(rest[..<at])
        guard !user.isEmpty, let address = CameraAddress(parsing: String(rest[rest.index(after: at)...])) else {
            return nil
        }
        return (address, Settings(user: user, reason: .remembered))
    }

    // MARK: - Opening the tunnel

    /// Checks the camera's key, gets the password, opens the tunnel and runs `body` with the loopback address
    /// PTP/IP connects to; the tunnel is closed when `body` ends, however it ends.
    static func withTunnel<T: Sendable>(
        to address: CameraAddress, settings: Settings, environment: [String: String],
        say: @escaping @Sendable (String) -> Void, _ body: (CameraAddress) async throws -> T
    ) async throws -> T {
        let tools = try SSHTools.find(environment: environment)
        guard let knownHostsPath = KnownHostsFile.defaultPath(environment: environment) else {
            throw SSHTunnelError.knownHosts(path: "~/.local/state/hdrshoot/known_hosts", reason: "HOME is not set")
        }
        var configuration = SSHTunnelConfiguration(
            host: address.host, port: address.port, user: settings.user,
            knownHosts: KnownHostsFile(path: knownHostsPath), tools: tools, askpassProgram: try ownExecutable())
        configuration.environment = environment
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), FileSystem.exists(runtime) {
            configuration.temporaryFolder = runtime
        }
        if let text = environment[forwardPortVariable], let port = UInt16(text), port > 0 {
            configuration.forwardPort = port
        }
        let interactive = TerminalMode.isTerminal(.standardInput) && TerminalMode.isTerminal(.standardError)
        say("Checking the SSH host key of \(address.description)...")
        let host = address.host
        var confirm: (@Sendable (SSHHostKey) async -> Bool)? = nil
        if interactive { confirm = { @Sendable key in await confirmFirstContact(key, host: host) } }
        let key = try await SSHTunnel.verifyHostKey(configuration, pin: settings.fingerprint, confirm: confirm)
        let password = try await readPassword(settings: settings, address: address, interactive: interactive)
        say("Opening an SSH tunnel to \(address.description) as '\(settings.user)' (key \(key.fingerprint))...")
        return try await SSHTunnel.withTunnel(
            configuration: configuration, password: password,
            onEvent: { event in
                switch event {
                case let .closed(detail): say("The SSH tunnel to the camera closed (\(detail)); opening it again...")
                case .reopened: say("The SSH tunnel to the camera is open again.")
                }
            }
        ) { localPort, _ in
            try await body(CameraAddress(host: "127.0.0.1", port: localPort))
        }
    }

    /// Shows the fingerprint on first contact and asks on the terminal whether the camera shows the same.
    private static func confirmFirstContact(_ key: SSHHostKey, host: String) async -> Bool {
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

    /// The password from `--ssh-password-file` (owned by this user, mode 0600 or stricter, one trailing newline
    /// dropped), else asked on the terminal without echo; never from argv or the environment.
    static func readPassword(
        settings: Settings, address: CameraAddress, interactive: Bool
    ) async throws -> String {
        if let path = settings.passwordFile {
            return try readPasswordFile(path)
        }
        guard interactive else { throw SSHTunnelError.noPassword }
        let prompt = "Password of '\(settings.user)' on the camera at \(address.host): "
        let typed: String? = try await runBlocking {
            FileHandle.standardError.write(Data(prompt.utf8))
            let mode = TerminalMode.enterSecretMode()
            defer { mode?.restore() }
            return readLine(strippingNewline: true)
        }
        guard let typed, !typed.isEmpty else { throw SSHTunnelError.noPassword }
        return typed
    }

    /// Reads a password file after checking who may read it.
    static func readPasswordFile(_ path: String) throws(SSHTunnelError) -> String {
        let status: (permissions: FilePermissions, owner: UInt32)
        do {
            status = try FileSystem.permissions(of: path)
        } catch {
            throw .passwordFile(path: path, reason: "\(error)")
        }
        guard status.owner == CurrentProcess.userID else {
            throw .passwordFile(path: path, reason: "it belongs to another user")
        }
        guard status.permissions & 0o077 == 0 else {
            throw .passwordFile(
                path: path,
                reason: "others may read it (mode \(String(status.permissions, radix: 8))); run chmod 600 on it")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readAll(path)
        } catch {
            throw .passwordFile(path: path, reason: "\(error)")
        }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasSuffix("\n") || text.hasSuffix("\r\n") { text.removeLast() }
        guard !text.isEmpty, !text.contains("\n") else {
            throw .passwordFile(path: path, reason: text.isEmpty ? "it is empty" : "it holds more than one line")
        }
        return text
    }

    /// hdrshoot's own executable: `ssh` runs it to read the password (`SSH_ASKPASS`).
    private static func ownExecutable() throws -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw SSHTunnelError.exited(status: -1, detail: "cannot find hdrshoot's own executable")
        }
        return path
    }
}
