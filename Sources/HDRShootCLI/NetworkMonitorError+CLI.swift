import NetworkMonitor

extension NetworkMonitorError: CLIReportable {
    /// One line per case. A monitor that fails never ends a command (the shoot goes on without it, after a
    /// warning line), so these codes are for completeness: 69 when this host cannot watch (no netlink, no
    /// interface toward the camera), 75 for what passes by itself (lost events, a slow or inconsistent answer, a
    /// monitor stopped), 1 for the rest.
    package var exitCode: ExitCode {
        switch self {
        case .system(let operation, _) where Self.isUnavailable(operation): .unavailable
        case .system: .failure
        case .kernel: .failure
        case .malformed: .failure
        case .eventsLost: .transientFailure
        case .requestTimedOut: .transientFailure
        case .dumpInterrupted: .transientFailure
        case .interfaceNotFound: .unavailable
        case .invalidAddress: .failure
        case .closed: .transientFailure
        }
    }

    /// One line saying why the network is not watched (inside the `warning: not watching the network …` line).
    package var cliMessage: String {
        switch self {
        case let .system(operation, errno) where Self.isUnavailable(operation):
            "netlink is not available here: \(operation) failed with \(errno.name)"
        case let .system(operation, errno): "\(operation) failed: \(errno.name)"
        case let .kernel(request, errno): "kernel refused \(request): \(errno.name)"
        case let .malformed(context, error): "malformed netlink \(context): \(error)"
        case .eventsLost: "netlink events were lost (ENOBUFS)"
        case let .requestTimedOut(request): "no netlink reply to \(request)"
        case let .dumpInterrupted(request, attempts): "\(request) dump inconsistent after \(attempts) attempts"
        case let .interfaceNotFound(what): "no network interface for the \(what)"
        case let .invalidAddress(text): "not an IP address: \(text)"
        case .closed: "network monitor closed"
        }
    }

    /// Whether a failed `operation` means this host has no netlink to watch with (a sandbox, another system).
    private static func isUnavailable(_ operation: String) -> Bool {
        operation == "socket" || operation == "bind"
    }
}
