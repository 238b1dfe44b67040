import CameraTunnel

extension SSHTunnelError: CLIReportable {
    /// One line per case, saying what to check on the camera; never the password.
    package var cliMessage: String {
        switch self {
        case let .toolMissing(name):
            "'\(name)' was not found; install the OpenSSH client (Debian: apt install openssh-client) to reach a "
                + "camera with Access Authentication on"
        case let .unreachable(host, port, detail):
            "the camera's SSH server at \(host):\(port) did not answer (\(detail)); is the camera on this network "
                + "with Access Authentication on, and is the port right?"
        case let .unknownHostKey(host, fingerprint):
            "the camera at \(host) is new to hdrshoot: its key is \(fingerprint); compare it with the fingerprint "
                + "in the camera's menu, then run again on a terminal or pass --ssh-fingerprint \(fingerprint)"
        case let .hostKeyNotConfirmed(fingerprint):
            "the camera's key \(fingerprint) was not confirmed; nothing was sent"
        case let .fingerprintMismatch(expected, found):
            "the camera's key is \(found), not \(expected) as --ssh-fingerprint says; check the fingerprint in the "
                + "camera's menu (another device may answer at this address); no password was sent"
        case let .hostKeyChanged(host, kept, found):
            "the camera at \(host) shows another key (\(found ?? "a new one")) than the one kept"
                + (kept.isEmpty ? "" : " (\(kept))")
                + "; if its Access Authentication was reset, compare the fingerprint in its menu and pass "
                + "--ssh-fingerprint with it; otherwise another device may answer at this address; no password was sent"
        case let .loginRefused(user, host):
            "the camera at \(host) refused the login as '\(user)'; check the user and password set in its "
                + "Access Authentication menu (one attempt was made)"
        case let .forwardRefused(detail):
            "the camera's SSH server refused the PTP/IP forward (\(detail))"
        case let .exited(status, detail):
            "ssh to the camera ended (status \(status)): \(detail.isEmpty ? "no message" : detail)"
        case let .timedOut(seconds):
            "the SSH login to the camera did not complete in \(seconds) s; is the camera awake and in reach?"
        case let .passwordFile(path, reason):
            "cannot use the SSH password file \(path): \(reason)"
        case .noPassword:
            "the camera needs its Access Authentication password and there is no terminal to ask on; pass "
                + "--ssh-password-file FILE (mode 0600)"
        case let .knownHosts(path, reason):
            "cannot use hdrshoot's known-hosts file \(path): \(reason)"
        }
    }

    /// 69 for what the camera or its key refuses, 75 for what may pass, 64 for a bad password file.
    package var exitCode: ExitCode {
        switch self {
        case .unreachable, .timedOut, .exited: .transientFailure
        case .passwordFile, .noPassword: .usage
        case .toolMissing, .knownHosts: .failure
        case .unknownHostKey, .hostKeyNotConfirmed, .fingerprintMismatch, .hostKeyChanged, .loginRefused,
            .forwardRefused:
            .unavailable
        }
    }
}
