import Foundation

/// A camera's SSH host key as `ssh-keyscan` reads it, with its fingerprint in OpenSSH's `SHA256:` base64 form
/// (the form the camera's network menu shows next to "Access Authen. Info").
package struct SSHHostKey: Sendable, Hashable {
    /// The key's algorithm (`ecdsa-sha2-nistp256`).
    package var algorithm: String
    /// The key blob, base64 as in a known-hosts line.
    package var base64: String
    /// `SHA256:` and the unpadded base64 of the blob's SHA-256 (`ssh-keygen -l -E sha256`).
    package var fingerprint: String

    /// The name a known-hosts line gives `host` at `port` (`host` for 22, `[host]:port` otherwise), as OpenSSH
    /// looks it up.
    package static func knownHostsName(host: String, port: UInt16) -> String {
        port == 22 ? host : "[\(host)]:\(port)"
    }

    /// Reads the camera's ECDSA key with `ssh-keyscan` and fingerprints it with `ssh-keygen`; no password, no
    /// login: only the key exchange's first steps reach the camera.
    package static func scan(
        host: String, port: UInt16, tools: SSHTools, timeoutSeconds: Int = 10
    ) async throws(SSHTunnelError) -> SSHHostKey {
        let scan = try await ChildProcess.run(
            tools.keyscan, ["-T", String(timeoutSeconds), "-t", "ecdsa", "-p", String(port), "--", host])
        let line = scan.output.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty }
        let fields = line.map { $0.split(separator: " ") } ?? []
        guard fields.count >= 3 else {
            let detail = scan.errorOutput.split(separator: "\n").last { !$0.hasPrefix("#") }.map(String.init)
            throw .unreachable(host: host, port: port, detail: detail ?? "no SSH host key was offered")
        }
        let algorithm = String(fields[1])
        let base64 = String(fields[2])
        let fingerprint = try await fingerprint(algorithm: algorithm, base64: base64, tools: tools)
        return SSHHostKey(algorithm: algorithm, base64: base64, fingerprint: fingerprint)
    }

    /// The `SHA256:` fingerprint of a key, as `ssh-keygen -l -E sha256` gives it.
    package static func fingerprint(
        algorithm: String, base64: String, tools: SSHTools
    ) async throws(SSHTunnelError) -> String {
        let print = try await ChildProcess.run(
            tools.keygen, ["-l", "-E", "sha256", "-f", "-"], input: "camera \(algorithm) \(base64)\n")
        guard let fingerprint = print.output.split(separator: " ").first(where: { $0.hasPrefix("SHA256:") }) else {
            throw .exited(status: print.status, detail: "ssh-keygen could not fingerprint the camera's key")
        }
        return String(fingerprint)
    }

    /// `SHA256:abc` compared with a fingerprint as typed (with or without `SHA256:`, trailing `=` ignored).
    package func matches(_ typed: String) -> Bool {
        let normalise = { (text: String) -> String in
            var value = text.trimmingCharacters(in: .whitespaces)
            if value.lowercased().hasPrefix("sha256:") { value = String(value.dropFirst(7)) }
            while value.hasSuffix("=") { value.removeLast() }
            return value
        }
        return normalise(fingerprint) == normalise(typed)
    }
}
