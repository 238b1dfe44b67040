import CameraRemoteAPI
import Foundation
import LegacyCamera
import PTPIP
import PTPIPCodec
import Posix
import SonyCamera
import Timing

// MARK: - A bare host

/// Which protocol a bare host (`--camera 192.168.122.1`) speaks: PTP/IP first (a connection to its port is
/// accepted), then the Camera Remote API (`getVersions` answers on 8080, then 10000).
package enum ProtocolProbe {
    /// What answered: the camera to use, and the host as it is shown (IPv6 in brackets).
    package struct Found: Sendable, Equatable {
        /// The camera to use: PTP/IP at an address, or the Camera Remote API at a URL.
        package var target: CameraTarget
        /// The host as a sentence shows it (`192.168.122.1`, `[::1]`).
        package var shownHost: String

        /// What answered at `shownHost`.
        package init(target: CameraTarget, shownHost: String) {
            self.target = target
            self.shownHost = shownHost
        }
    }

    /// The ports the Camera Remote API is tried on, in order.
    package static let remoteAPIPorts = [
        LegacySonyCameraConfiguration.defaultPort, LegacySonyCameraConfiguration.builtInPort
    ]

    /// Probes `host` (a numeric address; a name is left to PTP/IP's own connect); nil when nothing answered (the
    /// caller then connects over PTP/IP with its retries, as before, so a camera still waking up is waited for).
    package static func find(
        host: String, ptpipPort: UInt16, remoteAPIPorts: [UInt16] = Self.remoteAPIPorts,
        timeout: Duration = .seconds(3), clock: any Clock<Duration> = ContinuousClock()
    ) async -> Found? {
        guard let ptpip = SocketAddress(numericHost: host, port: ptpipPort) else { return nil }
        let shown = host.contains(":") ? "[\(host)]" : host
        if await accepts(ptpip, timeout: timeout, clock: clock) {
            return Found(target: .address(CameraAddress(host: host, port: ptpipPort)), shownHost: shown)
        }
        for port in remoteAPIPorts {
            let endpoint = RemoteURL(host: host, port: port, path: "/sony/camera")
            guard let client = try? CameraRemoteAPIClient(endpoint: endpoint, clock: clock, callTimeout: timeout)
            else { continue }
            defer { client.close() }
            if (try? await client.getVersions()) != nil {
                let url = "http://\(endpoint.authority)"
                return Found(target: .remoteAPI(url), shownHost: shown)
            }
        }
        return nil
    }

    /// Whether a TCP connection to `address` is accepted within `timeout` (closed at once).
    private static func accepts(_ address: SocketAddress, timeout: Duration, clock: any Clock<Duration>) async -> Bool {
        guard let socket = try? Socket(family: address.family) else { return false }
        defer { socket.close() }
        do {
            try await withTimeout(after: timeout, on: clock, throwing: SocketFailure.timedOut) {
                try await socket.connect(to: address)
            }
            return true
        } catch {
            return false
        }
    }
}

// MARK: - What a bare host says about itself

extension ProtocolProbe {
    /// The PTP/IP facts of `host`'s description (pairing, SSH, transfer), found by a unicast SSDP search and read
    /// at the answer's LOCATION (its port, whatever it is); nil when the host answered no search within 1.5 s or
    /// its description could not be read (a name rather than an address is never searched).
    package static func describe(host: String, ssdpPort port: UInt16 = SSDP.port) async -> DigitalImagingDescription? {
        guard SocketAddress(numericHost: host, port: port) != nil else { return nil }
        // The identity is only a handshake's; describing opens no session.
        var configuration = DiscoveryConfiguration(
            identity: HostIdentity(guid: PTPIPGUID(bytes: Array(repeating: 0, count: 16))!))
        configuration.searchTime = .milliseconds(1500)
        configuration.descriptionTimeout = .seconds(3)
        guard let camera = await CameraDiscovery(configuration: configuration).describe(host: host, ssdpPort: port),
            camera.descriptionProblem == nil
        else { return nil }
        return camera.digitalImaging
    }
}
