import Foundation
import Posix

/// hdrshoot's own known-hosts file: one OpenSSH known-hosts line per camera, never the user's
/// `~/.ssh/known_hosts`, so pinning a camera's key changes nothing for the user's other SSH use.
///
/// It lives at `$XDG_STATE_HOME/hdrshoot/known_hosts` (else `~/.local/state/hdrshoot/known_hosts`), mode 0600
/// in a 0700 folder; `ssh` reads it with `StrictHostKeyChecking=yes`, so only a key kept here is accepted.
package struct KnownHostsFile: Sendable {
    /// The file's path.
    package let path: String

    /// The file at `path`.
    package init(path: String) { self.path = path }

    /// The default location for `environment`, or nil when neither XDG_STATE_HOME nor HOME is set.
    package static func defaultPath(environment: [String: String]) -> String? {
        UserDirectory.state.path("known_hosts", environment: environment)
    }

    /// The key kept for `name` (`host` or `[host]:port`), if any.
    package func key(for name: String) throws(SSHTunnelError) -> (algorithm: String, base64: String)? {
        for fields in try lines().map({ $0.split(separator: " ") }) where fields.count >= 3 && fields[0] == name {
            return (String(fields[1]), String(fields[2]))
        }
        return nil
    }

    /// Keeps `key` for `name`, replacing any other key kept for it; written to a temporary file and renamed,
    /// mode 0600.
    package func keep(_ key: SSHHostKey, for name: String) throws(SSHTunnelError) {
        let kept = try lines().filter { $0.split(separator: " ").first.map(String.init) != name }
        let text = (kept + ["\(name) \(key.algorithm) \(key.base64)"]).joined(separator: "\n") + "\n"
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = path + ".\(CurrentProcess.id).tmp"
        do throws(Errno) {
            try FileSystem.makeDirectories(folder, permissions: 0o700)
            let file = try FileDescriptor.open(
                temporary, .writeOnly, [.create, .truncate, .noFollow], permissions: 0o600)
            defer { file.closeIgnoringErrors() }
            try file.setPermissions(0o600)
            try file.writeAll(Array(text.utf8))
            try file.sync()
            try FileSystem.rename(temporary, to: path)
        } catch {
            try? FileSystem.unlink(temporary)
            throw .knownHosts(path: path, reason: "\(error)")
        }
    }

    private func lines() throws(SSHTunnelError) -> [String] {
        guard FileSystem.exists(path) else { return [] }
        do throws(Errno) {
            let bytes = try FileSystem.readAll(path)
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
                .filter { !$0.hasPrefix("#") && !$0.isEmpty }
        } catch {
            throw .knownHosts(path: path, reason: "\(error)")
        }
    }
}
