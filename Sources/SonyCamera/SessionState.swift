import Timing

/// Everything one PTP/IP session of a Sony body knows beyond its settings; held by the link, so a new
/// session starts from a new value and nothing is reset by hand.
struct SessionState: Sendable {
    /// Property codes the event channel reported as changed since the last 0x9209 read.
    var changedHints: Set<UInt16> = []
    /// The image bookkeeping.
    var images = ImageLedger()
    /// Events of any kind received in this session: a body that sent none is polled instead of waited on.
    var eventsSeen = 0
    /// Measures from the start of the session, and again from when it is ready (a release soon after that may
    /// be ignored by the body).
    var started: Stopwatch
    /// Measures from the end of the last operation on the command channel (the keepalive's measure).
    var lastActivity: Stopwatch
    /// Operations sent and not answered yet (the keepalive stays quiet meanwhile).
    var operationsInFlight = 0
    /// How the shutter speed is changed in this session.
    var shutterControl: ShutterControl = .direct
    /// Images downloaded in this session (names an image the camera gave no name for).
    var downloads = 0
    /// Whether a direct (0x9205) shutter set was confirmed by a read-back in this session.
    var directSetConfirmed = false
    /// Whether 0xD215 must be read before the buffer is trusted (until the first full read, and after every
    /// release and download).
    var bufferUnread = true
    /// Whether a body without 0xD215 may hold images no announcement of this session told of (an earlier
    /// session's): it is asked on the chance until GetObjectInfo says nothing waits.
    var bufferUnknown = true
    /// The camera's name of the last file fetched from the buffer (a body whose 0xD215 lags offers it again).
    var lastDownloadedName: String?
    /// The longest a confirmed release showed nothing beyond its exposure in this session.
    var slowestEvidence: Duration = .zero
    /// The longest any confirmed release took, past its exposure, to show that it fired in this session (late ones
    /// too, which `slowestEvidence` leaves out); the learned evidence latency the session log records.
    var longestEvidence: Duration?
    /// Files fetched from the buffer in this session.
    var filesFetched = 0
    /// Whether a file was fetched since 0xD215 was last read: its count may then be too high.
    var downloadedSinceRead = false
    /// The files 0xD215 counted just before the last release was pressed, when that count was current (nil: it
    /// was not, or the body does not report 0xD215).
    var waitingBeforeRelease: Int?
    /// Releases of this session the body showed it fired: once one did, the body is past the releases it
    /// ignores right after connecting, and a later release that shows nothing is never taken for one of those.
    var releasesConfirmed = 0

    /// A new session's state, starting now on `clock`.
    init(clock: any Clock<Duration>) {
        started = Stopwatch(clock: clock)
        lastActivity = Stopwatch(clock: clock)
    }

    /// Whether the body has announced anything on its event channel in this session.
    var bodySendsEvents: Bool { eventsSeen > 0 }
}

/// How a session changes the shutter speed.
enum ShutterControl: Sendable, Equatable {
    /// Protocol 3.00: 0x9205 with the value, read back.
    case direct
    /// Protocol 2.00, or a 3.00 body that refused or ignored direct sets: notch steps with 0x9207.
    case stepping
}

/// The pauses between polls of a body that sends no events: they start short (an answer usually comes
/// within milliseconds) and double up to a ceiling, so a long wait costs few reads.
struct PollBackoff: Sendable, Equatable {
    /// The first pause and the longest.
    let range: ClosedRange<Duration>
    /// The next pause.
    private(set) var next: Duration

    /// Starts at the range's lower bound.
    init(_ range: ClosedRange<Duration>) {
        self.range = range
        next = range.lowerBound
    }

    /// Returns the next pause and doubles the one after it (up to the ceiling).
    mutating func take() -> Duration {
        let pause = next
        next = min(range.upperBound, next * 2)
        return pause
    }
}
