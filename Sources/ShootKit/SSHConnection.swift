import CameraTunnel
import Foundation
import Posix

/// How a camera whose Access Authentication is on is reached: the SSH settings, the password, the host key's first
/// contact, and the tunnel that lives as long as the camera is needed. The options that make the settings are the
/// front end's.
package enum SSHConnection {
    /// The environment variable naming the camera-side PTP/IP port behind sshd (a test hook; 15740 otherwise).
    package static let forwardPortVariable = "HDRSHOOT_SSH_FORWARD_PORT"

    /// What `--ssh` and its options ask for.
    package struct Settings: Sendable, Equatable {
        /// `--ssh-user`.
        package var user: String
        /// `--ssh-password-file`, when given.
        package var passwordFile: String?
        /// `--ssh-fingerprint`, when given.
        package var fingerprint: String?
        /// Why SSH: asked for, remembered or journaled, or the camera's description says so.
        package var reason: CameraConnection.Reason = .asked

        /// Settings from their parts.
        package init(
            user: String, passwordFile: String? = nil, fingerprint: String? = nil,
            reason: CameraConnection.Reason = .asked
        ) {
            self.user = user
            self.passwordFile = passwordFile
            self.fingerprint = fingerprint
            self.reason = reason
        }
    }

    /// What a bare `--camera HOST` carries until the camera's description decides the way in: `--no-ssh` or
    /// nothing, and the SSH options to use if the camera says it needs SSH.
    package struct Choice: Sendable, Equatable {
        /// `--no-ssh`, or automatic.
        package var preference: CameraConnection.Preference = .automatic
        /// `--ssh-user`, `--ssh-password-file`, `--ssh-fingerprint`.
        package var overrides = Overrides()

        /// A choice from its parts (automatic, no SSH options, by default).
        package init(preference: CameraConnection.Preference = .automatic, overrides: Overrides = Overrides()) {
            self.preference = preference
            self.overrides = overrides
        }
    }

    /// `--ssh-user`, `--ssh-password-file` and `--ssh-fingerprint` as given, to apply to a camera behind SSH
    /// that comes from the journal or the remembered address (`resume`, a bare `hdrshoot camera`).
    package struct Overrides: Sendable, Equatable {
        /// `--ssh-user`.
        package var user: String?
        /// `--ssh-password-file`.
        package var passwordFile: String?
        /// `--ssh-fingerprint`.
        package var fingerprint: String?

        /// Those given (none by default).
        package init(user: String? = nil, passwordFile: String? = nil, fingerprint: String? = nil) {
            self.user = user
            self.passwordFile = passwordFile
            self.fingerprint = fingerprint
        }

        /// Whether any was given.
        package var isEmpty: Bool { user == nil && passwordFile == nil && fingerprint == nil }

        /// `target` with these applied when it is a camera behind SSH; any other target unchanged.
        package func applied(to target: CameraTarget) -> CameraTarget {
            guard case .ssh(let address, var settings) = target else { return target }
            if let user { settings.user = user }
            if let passwordFile { settings.passwordFile = passwordFile }
            if let fingerprint { settings.fingerprint = fingerprint }
            return .ssh(address, settings)
        }
    }

    /// The PTP/IP port of a camera reached without SSH.
    package static let ptpipPort: UInt16 = 15740

    /// `ssh://USER@HOST:PORT`: how a camera behind SSH is remembered and journaled (never the password).
    package static func stored(_ address: CameraAddress, _ settings: Settings) -> String {
        "ssh://\(settings.user)@\(address.description)"
    }

    /// Parses `ssh://USER@HOST:PORT`; nil for anything else.
    package static func parseStored(_ text: String) -> (CameraAddress, Settings)? {
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
    /// PTP/IP connects to; the tunnel is closed when `body` ends, however it ends. The photographer is asked (the
    /// key on first contact, the password without a file) through `reach`, and only when `reach.canAsk`.
    static func withTunnel<T: Sendable>(
        to address: CameraAddress, settings: Settings, reach: some CameraReach,
        note: @escaping @Sendable (ConnectionNote) -> Void, _ body: (CameraAddress) async throws -> T
    ) async throws -> T {
        let environment = reach.environment
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
        try reach.adjust(&configuration)
        note(.checkingHostKey(address))
        let host = address.host
        var confirm: (@Sendable (SSHHostKey) async -> Bool)? = nil
        if reach.canAsk { confirm = { @Sendable key in await reach.confirmFirstContact(key, host: host) } }
        let key = try await SSHTunnel.verifyHostKey(configuration, pin: settings.fingerprint, confirm: confirm)
        let password = try await readPassword(settings: settings, address: address, reach: reach)
        note(.openingTunnel(address, user: settings.user, fingerprint: key.fingerprint))
        return try await SSHTunnel.withTunnel(
            configuration: configuration, password: password,
            onEvent: { event in
                switch event {
                case let .closed(detail): note(.tunnelClosed(detail: detail))
                case .reopened: note(.tunnelReopened)
                }
            }
        ) { localPort, _ in
            try await body(CameraAddress(host: "127.0.0.1", port: localPort))
        }
    }

    /// The password from `--ssh-password-file` (owned by this user, mode 0600 or stricter, one trailing newline
    /// dropped), else asked of the photographer through `reach`; never from argv or the environment.
    static func readPassword(
        settings: Settings, address: CameraAddress, reach: some CameraReach
    ) async throws -> String {
        if let path = settings.passwordFile {
            return try readPasswordFile(path)
        }
        guard reach.canAsk else { throw SSHTunnelError.noPassword }
        guard let typed = try await reach.askPassword(user: settings.user, host: address.host), !typed.isEmpty else {
            throw SSHTunnelError.noPassword
        }
        return typed
    }

    /// Reads a password file after checking who may read it.
    package static func readPasswordFile(_ path: String) throws(SSHTunnelError) -> String {
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
        guard let path = try? FileSystem.symbolicLinkDestination("/proc/self/exe") else {
            throw SSHTunnelError.exited(status: -1, detail: "cannot find hdrshoot's own executable")
        }
        return path
    }
}
