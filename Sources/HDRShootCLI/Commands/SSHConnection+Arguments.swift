import ShootKit

/// The SSH options of the commands that connect to a camera, and the target they make: the front end's half of
/// `SSHConnection` (the settings, the tunnel and the password are the layer's).
extension SSHConnection {
    /// The options of the commands that connect to a camera (`camera`, `run`, `resume`, `meter`, `serve`).
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
}

extension SSHConnection.Overrides {
    /// The options of `arguments`.
    init(_ arguments: ParsedArguments) {
        self.init()
        user = arguments.string("ssh-user")
        passwordFile = arguments.string("ssh-password-file")
        fingerprint = arguments.string("ssh-fingerprint")
    }
}
