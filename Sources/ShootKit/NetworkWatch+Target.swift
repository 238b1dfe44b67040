import LegacyCamera

extension NetworkWatch {
    /// Starts the watch for a shoot whose journal names `address` (`host:port`); nil without a warning for
    /// the built-in simulator (in-process, nothing to watch) or when `enabled` is false (`--no-network-monitor`).
    /// A warning goes to `warn` (one line); each monitor event goes to the session log.
    package static func start(
        forJournalAddress address: String, enabled: Bool, messages: any ShootMessages,
        warn: @escaping @Sendable (String) -> Void
    ) async -> NetworkWatch? {
        guard enabled else { return nil }
        let host: String
        switch CameraTarget(stored: address) {
        case let .address(parsed)?, let .host(parsed, _)?, let .ssh(parsed, _)?:
            host = parsed.host
        case let .remoteAPI(url)?:
            guard let configuration = try? LegacySonyCameraConfiguration(url: url) else { return nil }
            host = configuration.host
        case .simulator?, .apiSimulator?, nil:
            return nil
        }
        return await start(
            cameraHost: host, messages: messages,
            record: { fields in SessionLogging.record("network", fields.map { ($0.0, .string($0.1)) }) }, warn: warn)
    }
}
