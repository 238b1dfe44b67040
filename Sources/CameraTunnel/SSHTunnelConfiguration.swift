/// How hdrshoot reaches a camera whose Access Authentication is on: the camera's SSH server, the user set in its
/// menu, and where its PTP/IP port is behind it.
///
/// The defaults are the camera's own (Sony "Camera Control PTP 3" reference pp. 36-41 and a firmware's
/// `sshd_config`): an ECDSA host key, keyboard-interactive login only, the cipher `aes128-ctr`, and forwards
/// allowed only to the literal `localhost:15740` (`127.0.0.1` is refused).
package struct SSHTunnelConfiguration: Sendable {
    /// The camera's address.
    package var host: String
    /// The camera's SSH port (22).
    package var port: UInt16 = 22
    /// The user set in the camera's network menu.
    package var user: String
    /// The forward's target as the camera's sshd allows it: `localhost`, never `127.0.0.1`.
    package var forwardHost = "localhost"
    /// The camera's PTP/IP port behind its sshd (15740; tests name another).
    package var forwardPort: UInt16 = 15740
    /// hdrshoot's own known-hosts file.
    package var knownHosts: KnownHostsFile
    /// The OpenSSH programs.
    package var tools: SSHTools
    /// The program `ssh` runs to read the password: hdrshoot's own executable.
    package var askpassProgram: String
    /// Where the password's pipe is made (`$XDG_RUNTIME_DIR`, else `/tmp`).
    package var temporaryFolder = "/tmp"
    /// What `ssh` may keep of the environment (PATH, HOME); nothing else reaches it.
    package var environment: [String: String] = [:]
    /// Seconds between keep-alives over the tunnel (`ServerAliveInterval`).
    package var keepAliveSeconds = 5
    /// Keep-alives missed before `ssh` gives the tunnel up (`ServerAliveCountMax`).
    package var keepAliveCount = 3
    /// How long a login (TCP connect, key exchange, password) may take before it is given up.
    package var loginTimeout: Duration = .seconds(30)
    /// The waits between attempts to open a tunnel again after it closed during a shoot (the last repeats).
    package var reopenWaits: [Duration] = [.seconds(1), .seconds(2), .seconds(5)]

    /// A configuration for `user` at `host:port`.
    package init(
        host: String, port: UInt16 = 22, user: String, knownHosts: KnownHostsFile, tools: SSHTools,
        askpassProgram: String
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.knownHosts = knownHosts
        self.tools = tools
        self.askpassProgram = askpassProgram
    }

    /// The name the known-hosts file keeps this camera's key under.
    package var knownHostsName: String { SSHHostKey.knownHostsName(host: host, port: port) }

    /// `ssh`'s arguments for a tunnel from `127.0.0.1:localPort`: no config file, the camera's cipher,
    /// keyboard-interactive only with one attempt, the key checked strictly against hdrshoot's own file, no
    /// shell, and the forward required.
    package func sshArguments(localPort: UInt16) -> [String] {
        let options = [
            "Ciphers=aes128-ctr",
            "PreferredAuthentications=keyboard-interactive", "KbdInteractiveAuthentication=yes",
            "PasswordAuthentication=no", "PubkeyAuthentication=no", "HostbasedAuthentication=no",
            "GSSAPIAuthentication=no", "IdentityAgent=none", "NumberOfPasswordPrompts=1", "BatchMode=no",
            "StrictHostKeyChecking=yes", "UserKnownHostsFile=\(knownHosts.path)", "GlobalKnownHostsFile=/dev/null",
            "HostKeyAlgorithms=ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,ecdsa-sha2-nistp521",
            "UpdateHostKeys=no", "CheckHostIP=no", "HashKnownHosts=no",
            "ExitOnForwardFailure=yes", "ServerAliveInterval=\(keepAliveSeconds)",
            "ServerAliveCountMax=\(keepAliveCount)", "ConnectTimeout=\(Int(loginTimeout.components.seconds))",
            "ControlMaster=no", "ControlPath=none", "ForwardAgent=no", "ForwardX11=no", "LogLevel=ERROR"
        ]
        return ["-F", "none", "-N", "-T", "-p", String(port), "-l", user]
            + options.flatMap { ["-o", $0] }
            + ["-L", "127.0.0.1:\(localPort):\(forwardHost):\(forwardPort)", "--", host]
    }
}
