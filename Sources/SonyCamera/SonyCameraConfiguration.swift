import PTPIP
import Shooting

/// Where a Sony body is and how patient to be with it.
///
/// The defaults are what real bodies need over Wi-Fi; tests shorten the timeouts and backoffs.
package struct SonyCameraConfiguration: Sendable {
    /// The camera's address (IPv4/IPv6 literal or name).
    package var host: String
    /// The PTP/IP port.
    package var port: UInt16
    /// The GUID and name this host introduces itself with (cameras that pair remember the GUID).
    package var identity: HostIdentity
    /// Pauses before the retries of `connectRetrying()`: 2 s, 5 s, 10 s, so up to 4 attempts in all.
    /// Only refused, timed-out and reset connections (and Init Fail "busy") are retried.
    package var connectBackoff: [Duration] = [.seconds(2), .seconds(5), .seconds(10)]
    /// Longest TCP connect plus each Init handshake.
    package var connectTimeout: Duration = .seconds(10)
    /// Longest the camera may stay silent within one operation.
    package var operationTimeout: Duration = .seconds(10)
    /// Upper bound of `disconnect()`.
    package var disconnectTimeout: Duration = .seconds(2)
    /// DeviceBusy (0x2019) policy: every busy operation is retried here, 3 attempts, 0.5 s then 1 s apart.
    package var busyRetry: RetryPolicy = .busy
    /// How long the body may take after connecting until its settings are readable (some need ~3 s).
    package var propertiesReadyTimeout: Duration = .seconds(10)
    /// The pause between two polls while the body's settings are not yet readable.
    package var propertiesPollInterval: Duration = .milliseconds(200)
    /// How long one shutter speed set waits for the read-back to show the new value (protocol 3.00).
    package var shutterConfirmTimeout: Duration = .seconds(5)
    /// How many times a 3.00 set is sent before giving up; also bounds 2.00 correction steps.
    package var shutterSetAttempts: Int = 3
    /// Added to the exposure time to bound the wait for the image after the release (at least 10 s for real bodies).
    package var processingMargin: Duration = .seconds(10)
    /// How long to wait for ObjectAdded once 0xD215 was announced, before reading 0xD215 instead.
    package var eventGrace: Duration = .milliseconds(50)
    /// Added again for fetching every waiting image once the first appeared.
    package var transferTimeout: Duration = .seconds(60)
    /// Images larger than this (or of unknown size) are fetched with GetPartialObject in chunks of this size.
    package var partialObjectChunk: Int = 8 << 20

    /// A configuration for the camera at `host:port`.
    package init(host: String, port: UInt16 = PTPIPClient.defaultPort, identity: HostIdentity) {
        self.host = host
        self.port = port
        self.identity = identity
    }

    /// `host:port` as people write it (IPv6 in brackets).
    package var address: String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
