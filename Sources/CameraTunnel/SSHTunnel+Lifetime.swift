extension SSHTunnel {
    /// Checks the camera's host key before any password is sent, and keeps it on first contact.
    ///
    /// - A `pin` (`--ssh-fingerprint`) must match the camera's key; the key is then kept.
    /// - A kept key must be the camera's; a changed one is refused, never replaced silently.
    /// - On first contact `confirm` shows the fingerprint and asks; it is nil without a terminal, and the
    ///   first contact is then refused with the fingerprint named.
    package static func verifyHostKey(
        _ configuration: SSHTunnelConfiguration, pin: String?,
        confirm: (@Sendable (SSHHostKey) async -> Bool)?
    ) async throws(SSHTunnelError) -> SSHHostKey {
        let key = try await SSHHostKey.scan(
            host: configuration.host, port: configuration.port, tools: configuration.tools)
        let name = configuration.knownHostsName
        let kept = try configuration.knownHosts.key(for: name)
        if let pin {
            guard key.matches(pin) else { throw .fingerprintMismatch(expected: pin, found: key.fingerprint) }
            if kept?.base64 != key.base64 || kept?.algorithm != key.algorithm {
                try configuration.knownHosts.keep(key, for: name)
            }
            return key
        }
        if let kept {
            guard kept.base64 == key.base64, kept.algorithm == key.algorithm else {
                let keptFingerprint = try await SSHHostKey.fingerprint(
                    algorithm: kept.algorithm, base64: kept.base64, tools: configuration.tools)
                throw .hostKeyChanged(host: configuration.host, kept: keptFingerprint, found: key.fingerprint)
            }
            return key
        }
        guard let confirm else { throw .unknownHostKey(host: configuration.host, fingerprint: key.fingerprint) }
        guard await confirm(key) else { throw .hostKeyNotConfirmed(fingerprint: key.fingerprint) }
        try configuration.knownHosts.keep(key, for: name)
        return key
    }

    /// Opens a tunnel, runs `body` with its local port while `supervise()` keeps it open, then closes it (also
    /// when `body` throws). When the tunnel could not be reopened, its failure replaces `body`'s error: the
    /// refused login or changed key is what the photographer must act on, not the lost link it caused.
    package static func withTunnel<T: Sendable>(
        configuration: SSHTunnelConfiguration, password: String, clock: any Clock<Duration> = ContinuousClock(),
        onEvent: @escaping @Sendable (SSHTunnelEvent) -> Void = { _ in },
        _ body: (_ localPort: UInt16, _ tunnel: SSHTunnel) async throws -> T
    ) async throws -> T {
        let tunnel = SSHTunnel(configuration: configuration, password: password, clock: clock, onEvent: onEvent)
        let port = try await tunnel.open()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await tunnel.supervise() }
            do {
                let value = try await body(port, tunnel)
                await tunnel.close()
                group.cancelAll()
                return value
            } catch {
                let failure = await tunnel.failure
                await tunnel.close()
                group.cancelAll()
                throw failure ?? error
            }
        }
    }
}
