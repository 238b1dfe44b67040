import Foundation
import Glibc

/// A real OpenSSH server (Debian's `openssh-server`) set up like a Sony body with Access Authentication on:
/// an ECDSA host key, the cipher `aes128-ctr` only, keyboard-interactive login only (PAM), forwarding only to
/// `localhost:<forwardPort>`, no shell.
///
/// The camera's own sshd allows `localhost:15740`; a test cannot own port 15740 (other tests and a real
/// simulator may), so the permitted target is the test simulator's port and hdrshoot is told the same port
/// through its test hook `HDRSHOOT_SSH_FORWARD_PORT`. The target stays the literal `localhost`, as on the body.
///
/// Keyboard-interactive on Linux is PAM's. sshd reads `/etc/pam.d/sshd`, so the server runs in a mount
/// namespace of its own (`unshare --mount`) where the test's `pam.d` folder is bound over `/etc/pam.d`: the
/// machine's PAM files are never touched. The PAM stack checks the password with `pam_exec` and a script that
/// compares it with the test's password file and counts each attempt in `attempts`. Needs root (sshd with PAM,
/// the mount namespace); `available` says whether this machine can.
///
/// sshd runs as the child of `unshare --fork --kill-child`, not as the test's own child: sshd closes every
/// inherited descriptor as it starts, Foundation's process monitor takes that for its exit and blocks in
/// wait4(2) on it, and no other child of the test process would be reaped until sshd ended. `--kill-child`
/// ends sshd when the test kills `unshare`.
package final class CameraSSHServer: Sendable {
    /// The SSH port on 127.0.0.1.
    package let port: UInt16
    /// The folder holding the keys, the config, the PAM stack and the logs.
    package let folder: URL
    /// The process running sshd.
    package let process: BackgroundProcess

    private init(port: UInt16, folder: URL, process: BackgroundProcess) {
        self.port = port
        self.folder = folder
        self.process = process
    }

    /// Whether sshd, unshare and root are here (else the tests that need them are skipped with `skipReason`).
    package static var available: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh")
            && (FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/security/pam_exec.so")
                || FileManager.default.fileExists(atPath: "/lib/x86_64-linux-gnu/security/pam_exec.so"))
    }

    /// Why the SSH tests are skipped.
    package static let skipReason =
        "needs root, /usr/sbin/sshd (Debian openssh-server), /usr/bin/ssh and unshare"

    /// Makes an ECDSA host key named `name` in `folder` (once) and returns its path.
    @discardableResult
    package static func makeHostKey(in folder: URL, name: String) async throws -> String {
        let path = folder.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/ssh-keygen"), arguments: ["-q", "-t", "ecdsa", "-N", "", "-f", path])
        guard result.exitCode == 0 else { throw POSIXError(.EIO) }
        return path
    }

    /// The `SHA256:` fingerprint of the host key at `path`, as `ssh-keygen -l` prints it.
    package static func fingerprint(ofKey path: String) async throws -> String {
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/ssh-keygen"), arguments: ["-l", "-E", "sha256", "-f", path + ".pub"])
        guard let print = result.standardOutput.split(separator: " ").first(where: { $0.hasPrefix("SHA256:") })
        else { throw POSIXError(.EIO) }
        return String(print)
    }

    /// Starts sshd in `folder` with the host key `hostKey` (made there if missing), accepting `user` with
    /// `password` and forwarding only to `localhost:forwardPort`; runs `body`, then stops it.
    package static func with<T>(
        folder: URL, hostKey: String = "host_ecdsa", user: String = "root", password: String,
        forwardPort: UInt16, _ body: (CameraSSHServer) async throws -> T
    ) async throws -> T {
        let keyPath = try await makeHostKey(in: folder, name: hostKey)
        let pam = folder.appendingPathComponent("pam.d")
        try FileManager.default.createDirectory(at: pam, withIntermediateDirectories: true)
        let passwordPath = folder.appendingPathComponent("password").path
        try Data(password.utf8).write(to: URL(fileURLWithPath: passwordPath))
        let attempts = folder.appendingPathComponent("attempts").path
        // Each server counts its own attempts (a test may start a second one in the same folder).
        try? FileManager.default.removeItem(atPath: attempts)
        let check = folder.appendingPathComponent("check-password.sh").path
        // pam_exec's expose_authtok hands the password on standard input, NUL-terminated.
        try """
        #!/bin/sh
        echo attempt >> '\(attempts)'
        given=$(tr -d '\\000')
        [ "$given" = "$(cat '\(passwordPath)')" ]

        """.write(toFile: check, atomically: true, encoding: .utf8)
        chmod(check, 0o755)
        try """
        auth required pam_exec.so quiet expose_authtok \(check)
        auth required pam_permit.so
        account required pam_permit.so
        session required pam_permit.so
        password required pam_deny.so

        """.write(to: pam.appendingPathComponent("sshd"), atomically: true, encoding: .utf8)
        let port = try LoopbackSocket.closedTCPPort()
        let config = folder.appendingPathComponent("sshd_config").path
        try """
        Port \(port)
        ListenAddress 127.0.0.1
        HostKey \(keyPath)
        PidFile none
        Ciphers aes128-ctr
        KbdInteractiveAuthentication yes
        PasswordAuthentication no
        PubkeyAuthentication no
        AuthenticationMethods keyboard-interactive
        UsePAM yes
        PermitRootLogin yes
        AllowUsers \(user)
        AllowTcpForwarding local
        PermitOpen localhost:\(forwardPort)
        PermitTTY no
        X11Forwarding no
        AllowAgentForwarding no
        ForceCommand /bin/false
        StrictModes no

        """.write(toFile: config, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        let script = "mount --bind '\(pam.path)' /etc/pam.d && exec /usr/sbin/sshd -D -e -f '\(config)' 2>&1"
        return try await BackgroundProcess.with(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            arguments: ["--mount", "--propagation", "private", "--fork", "--kill-child", "sh", "-c", script]
        ) { process in
            // sshd ends its log lines with CR LF, which BackgroundProcess's line reader does not split on.
            let deadline = ContinuousClock.now + .seconds(30)
            while !process.standardOutput.contains("Server listening") {
                guard process.exitStatus == nil, ContinuousClock.now < deadline else {
                    throw BackgroundProcess.Failure.noMatchingLine(
                        output: process.standardOutput, errorOutput: process.standardError)
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            return try await body(CameraSSHServer(port: port, folder: folder, process: process))
        }
    }

    /// How many times the PAM stack checked a password.
    package var passwordAttempts: Int {
        let text = (try? String(contentsOfFile: folder.appendingPathComponent("attempts").path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").count
    }

    /// What sshd logged so far.
    package var log: String { process.standardOutput }
}

/// Processes by what their command line holds.
package enum ProcessTable {
    /// The PIDs of running processes (not zombies) whose command line contains `text`.
    package static func pids(withCommandLineContaining text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), pid != getpid() else { return nil }
            guard let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !data.isEmpty else {
                return nil
            }
            let line = String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            return line.contains(text) ? pid : nil
        }
    }
}
