import LegacyCamera
import ShootKit

extension NetworkWatch {
    /// Starts the watch for a shoot whose journal names `address` (`host:port`); nil without a warning for
    /// the built-in simulator (in-process, nothing to watch) or when `enabled` is false (`--no-network-monitor`).
    /// Warnings go to standard error; each monitor event goes to the session log.
    static func start(
        forJournalAddress address: String, enabled: Bool, output: any OutputStreams
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
            cameraHost: host, messages: CLIMessages(),
            record: { fields in SessionLogging.record("network", fields.map { ($0.0, .string($0.1)) }) },
            warn: { output.writeError($0 + "\n") })
    }
}
