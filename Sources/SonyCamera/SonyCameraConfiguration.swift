import Foundation
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
    /// The first and longest pause before asking a body that answered a start-up step busy again (the pause
    /// doubles; the start-up gives up at `propertiesReadyTimeout`).
    package var startupBusyPauses: ClosedRange<Duration> = .milliseconds(500) ... .seconds(2)
    /// The pause between two polls while the body's settings are not yet readable.
    package var propertiesPollInterval: Duration = .milliseconds(200)
    /// How long one shutter speed set waits for the read-back to show the new value (protocol 3.00).
    package var shutterConfirmTimeout: Duration = .seconds(5)
    /// How many times a 3.00 set is sent before giving up; also bounds 2.00 correction steps.
    package var shutterSetAttempts: Int = 3
    /// How long one notch step (0x9207) may take to show in the read-back before it counts as lost; a lost
    /// step is sent again from the read-back, at most `shutterSetAttempts` times.
    package var stepConfirmTimeout: Duration = .seconds(2)
    /// Added to the exposure time to bound the wait for the image after the release (at least 10 s for real bodies).
    package var processingMargin: Duration = .seconds(10)
    /// How long past its exposure a release may show nothing before the caller's `whileUnconfirmed` runs beside
    /// the rest of its evidence window (a body's captured event or image usually comes within milliseconds).
    package var fetchBehindGrace: Duration = .milliseconds(500)
    /// How long to wait for ObjectAdded once 0xD215 was announced, before reading 0xD215 instead.
    package var eventGrace: Duration = .milliseconds(50)
    /// Added again for fetching every waiting image once the first appeared.
    package var transferTimeout: Duration = .seconds(60)
    /// Images larger than this (or of unknown size) are fetched with GetPartialObject in chunks of this size.
    package var partialObjectChunk: Int = 8 << 20
    /// The longest the command channel stays silent while a session is open: a change-only 0x9209 read is
    /// sent after this much silence (bodies such as the A7C II close the link ~10 s after the last command).
    /// `nil` turns the keepalive off (tests that count sleepers on a virtual clock).
    package var keepaliveInterval: Duration? = .seconds(2)
    /// The first and longest pause between polls while waiting on a body that has sent no event yet in
    /// this session (the pause doubles from the first to the longest; an event ends the wait at once).
    package var pollIntervals: ClosedRange<Duration> = .milliseconds(5) ... .milliseconds(250)
    /// A release answered OK but followed by no sign of capture is pressed again once, no earlier than this
    /// long after the session started (libgphoto2 waits 3 s after connecting for ZV-E10, ZV-1, RX100M7,
    /// ILCE-7RM4, 7M3, 7SM3, 7M4, 9M2, ILCE-1 and 7C, which ignore earlier releases).
    package var startupReleaseSettle: Duration = .seconds(3)
    /// Where a shoot keeps what it changed on the body's focus until it is put back (so a shoot resumed after
    /// the process died still restores it); nil keeps nothing on disk.
    package var focusRecordDirectory: URL?
    /// Where what hdrshoot learned about each body is kept for its next shoot (by serial number: the real ends of
    /// a shutter it describes only as a range); nil keeps nothing on disk.
    package var bodyRecordDirectory: URL?
    /// How long a half-press may take to focus (0xD213) before the shoot stops with a focus error.
    package var focusTimeout: Duration = .seconds(5)
    /// How long after a release (beyond a timed exposure) the body must show a sign of capture (busy,
    /// 0xD215, ObjectAdded) before the release counts as ignored.
    package var releaseSettle: Duration = .seconds(1)
    /// A test hook (`$HDRSHOOT_TIME_SCALE`): a BULB hold, and the wait for a Long Exposure NR dark frame the body
    /// reports on, last a `timeScale`-th of their time, for a simulator whose time runs that many times faster
    /// (`hdrshoot simulate --time-scale`); 1 for a real body.
    package var timeScale = 1
    /// Hears every PTP/IP operation, event and connection attempt (the CLI's session log); nil by default.
    package var ptpipObserver: (any PTPIPObserver)?
    /// Opens the byte streams to the body instead of TCP to `host:port` (the deterministic simulation's in-memory
    /// transport, Tests/SimulationTests); nil, the default, connects over TCP. The client's own timeouts then run
    /// on the camera's clock.
    package var connector: TransportConnector?
    /// Told when the body seems to wait for the photographer's OK on its pairing screen (the friendly name it
    /// shows, how long hdrshoot waits); see `PTPIPClient.Configuration.onAwaitingPairing`.
    package var onAwaitingPairing: (@Sendable (_ friendlyName: String, _ wait: Duration) -> Void)?
    /// How long a body that needs no pairing takes at most to acknowledge before the wait is for a person (see
    /// `PTPIPClient.Configuration.pairingHint`); a test hook (`$HDRSHOOT_PAIRING_HINT`) shortens it for bodies
    /// that always show the pairing screen.
    package var pairingHint: Duration = .seconds(2)
    /// How long the photographer has to press OK once told.
    package var pairingWait: Duration = .seconds(120)
    /// Told the time left to press OK every `pairingTick` (see `PTPIPClient.Configuration.onPairingCountdown`).
    package var onPairingCountdown: (@Sendable (_ left: Duration) -> Void)?
    /// How often `onPairingCountdown` is told.
    package var pairingTick: Duration = .seconds(15)

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
