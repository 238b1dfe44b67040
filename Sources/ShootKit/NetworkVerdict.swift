import NetworkMonitor

/// Whether the host can reach the camera, judged from the network monitor's view of the interface that
/// routes to it, with the sentence a person reads.
///
/// Pure: the watcher feeds it the monitor's latest snapshot after every event, so it never needs to
/// remember the event history (after lost events the snapshot is the re-read truth).
package enum NetworkVerdict: Sendable, Equatable {
    /// The link carries traffic and, on Wi-Fi, the host is on the camera's network.
    case usable
    /// The camera's network is gone; the message says why and what to do.
    case lost(message: String)

    /// Judges `snapshot` for a camera at an address of `family` (AF_INET or AF_INET6) that was reached on
    /// `cameraSSID` (nil when the host was not on Wi-Fi, or the SSID could not be read).
    ///
    /// Checked in this order, so the message names the most telling cause: the Wi-Fi association ended;
    /// the host is on another SSID (during a roam the link is briefly down too); the link is down; the
    /// camera left the host's access point (when the host is the camera's access point); the interface has
    /// no address of the camera's family left. An SSID the kernel did not tell is taken as
    /// the camera's: the runner's reconnect still checks that the camera answers.
    package static func judge(_ snapshot: NetworkSnapshot, cameraSSID: SSID?, family: UInt8) -> NetworkVerdict {
        let interface = snapshot.interfaceName ?? "the camera's interface"
        if case .disconnected = snapshot.wireless {
            guard let cameraSSID else {
                return .lost(
                    message:
                        "Paused: the host's Wi-Fi (\(interface)) disconnected. Rejoin the camera's network to resume.")
            }
            return .lost(message: "Paused: the host left the camera's Wi-Fi '\(cameraSSID)'. Rejoin it to resume.")
        }
        if case .connected(let current?) = snapshot.wireless, let cameraSSID, current != cameraSSID {
            return .lost(
                message:
                    "Paused: the host left the camera's Wi-Fi '\(cameraSSID)' for '\(current)'. Rejoin it to resume.")
        }
        guard snapshot.isUsable else {
            return .lost(
                message: "Paused: the network link to the camera (\(interface)) went down. Reconnect it to resume.")
        }
        if case .absent(let mac) = snapshot.station {
            return .lost(
                message: "Paused: the camera (\(mac)) left the access point on \(interface). "
                    + "Bring it back in range, or turn its Wi-Fi on again, to resume.")
        }
        guard snapshot.addresses.contains(where: { $0.family == family }) else {
            let kind = family == 10 ? "IPv6" : "IPv4" // AF_INET6 is 10 on Linux
            return .lost(
                message: "Paused: the host has no \(kind) address on \(interface), the camera's network. "
                    + "Reconnect it to resume.")
        }
        return .usable
    }

    /// What is printed when shooting may continue again after `snapshot` became usable.
    package static func backMessage(_ snapshot: NetworkSnapshot, cameraSSID: SSID?) -> String {
        if case .present = snapshot.station {
            return "The camera is back on the access point (\(snapshot.interfaceName ?? "?")); "
                + "continuing once the camera answers."
        }
        if let cameraSSID, snapshot.ssid == cameraSSID {
            return "The host is back on the camera's Wi-Fi '\(cameraSSID)'; continuing once the camera answers."
        }
        return
            "The network link to the camera (\(snapshot.interfaceName ?? "?")) is back; continuing once the camera answers."
    }

    /// What is said once when the host is the camera's access point but the camera's station cannot be
    /// followed (no neighbour entry for its address): the shoot then pauses only for the host's own link.
    package static func unresolvedStationMessage(_ snapshot: NetworkSnapshot) -> String {
        let interface = snapshot.interfaceName ?? "?"
        return "Network watch: \(interface) is the camera's access point, but the camera has no neighbour entry "
            + "there, so its leaving is not seen; pausing only if \(interface) itself drops."
    }
}
