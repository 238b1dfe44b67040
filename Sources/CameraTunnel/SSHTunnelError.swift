/// Why an SSH tunnel to a camera could not be opened or kept open.
///
/// Each case carries what a photographer needs to act: the host, the fingerprint to compare, the user. The
/// CLI's table (`SSHTunnelError+CLI.swift`) gives each its line and exit code.
package enum SSHTunnelError: Error, Sendable, Equatable {
    /// No `ssh` (or `ssh-keyscan`, `ssh-keygen`) program was found on `PATH`.
    case toolMissing(String)
    /// The camera's SSH port did not answer (refused, timed out, unreachable); `detail` is what the tool said.
    case unreachable(host: String, port: UInt16, detail: String)
    /// First contact without a terminal to confirm on, no `--ssh-fingerprint` and no kept key.
    case unknownHostKey(host: String, fingerprint: String)
    /// The photographer did not confirm the fingerprint shown.
    case hostKeyNotConfirmed(fingerprint: String)
    /// `--ssh-fingerprint` names another key than the camera's.
    case fingerprintMismatch(expected: String, found: String)
    /// The camera's key is not the one kept on first contact.
    case hostKeyChanged(host: String, kept: String, found: String?)
    /// The camera refused the login (wrong user or password), after one attempt.
    case loginRefused(user: String, host: String)
    /// The camera refused the forward to its PTP/IP port (or the local port could not be bound).
    case forwardRefused(detail: String)
    /// `ssh` ended for another reason; `detail` is its last line.
    case exited(status: Int32, detail: String)
    /// The login did not complete in time.
    case timedOut(seconds: Int)
    /// The password file cannot be used (missing, readable by others, empty).
    case passwordFile(path: String, reason: String)
    /// There is no password: no terminal to ask on and no `--ssh-password-file`.
    case noPassword
    /// hdrshoot's own known-hosts file could not be read or written.
    case knownHosts(path: String, reason: String)

    /// Whether trying again later may succeed without anything changed (the camera was off or out of reach).
    package var isTransient: Bool {
        switch self {
        case .unreachable, .timedOut, .exited: true
        default: false
        }
    }
}
