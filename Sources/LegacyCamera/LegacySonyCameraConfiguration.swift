import CameraRemoteAPI
import Shooting

/// Where a legacy body's Camera Remote API is and how patient to be with it.
///
/// The defaults are what real bodies need over Wi-Fi (reference pp. 20-28: the description, startRecMode, the
/// sets that apply late, actTakePicture's 40403 after "several tens of seconds"); tests shorten them.
package struct LegacySonyCameraConfiguration: Sendable {
    /// How the `camera` service is found.
    package enum Location: Sendable, Hashable {
        /// The service's endpoint itself (`http://192.168.122.1:8080/sony/camera`).
        case endpoint(RemoteURL)
        /// The device description (the SSDP LOCATION, `http://192.168.122.1:64321/dd.xml`), whose
        /// `X_ScalarWebAPI_ActionList_URL` for `camera` gives the endpoint (p. 20).
        case description(RemoteURL)
    }

    /// The API's port on bodies with the Smart Remote app ("Ctrl w/ Smartphone").
    package static let defaultPort: UInt16 = 8080
    /// The built-in API's port on the A7 III family.
    package static let builtInPort: UInt16 = 10000

    /// Where the service is.
    package var location: Location
    /// Who the camera is to a person and in the journal: `http://192.168.122.1:8080`, or a name the caller gives.
    package var address: String
    /// Pauses before the retries of `connectRetrying`: 2 s, 5 s, 10 s (refused, timed-out and reset connections).
    package var connectBackoff: [Duration] = [.seconds(2), .seconds(5), .seconds(10)]
    /// The longest one ordinary call may take (connect, send, answer).
    package var callTimeout: Duration = .seconds(10)
    /// The longest a getEvent long poll may wait (bodies answer within about a minute when nothing changes).
    package var longPollTimeout: Duration = .seconds(75)
    /// How long one actTakePicture or awaitTakePicture may wait; longer than a body's 40403 answer (p. 28).
    package var captureCallTimeout: Duration = .seconds(75)
    /// Added to an exposure (and a Long Exposure NR dark frame as long) to bound the wait for its picture.
    package var processingMargin: Duration = .seconds(30)
    /// How long a body may take after startRecMode until it lists the shooting methods (seconds on real ones).
    package var recModeTimeout: Duration = .seconds(15)
    /// A setShutterSpeed answered with a transient error (1 "Any", 40401 "Camera Not Ready") is sent again with
    /// these pauses: 10 attempts in all, like the field scripts that drive these bodies.
    package var setRetry = RetryPolicy(
        maxAttempts: 10,
        delays: [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1)])
    /// How long one set may take to show in getShutterSpeed / getEvent (setShutterSpeed answers first, p. 103).
    package var shutterConfirmTimeout: Duration = .seconds(3)
    /// How many times a set that never shows is sent before giving up.
    package var shutterSetAttempts = 3
    /// Pauses between read-backs while waiting for something (a set to show, the rec mode, a picture); the last
    /// repeats.
    package var pollIntervals: [Duration] = [
        .milliseconds(20), .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(500)
    ]
    /// The longest one postview download may take.
    package var downloadTimeout: Duration = .seconds(60)
    /// The largest postview accepted.
    package var maximumImageBytes = 64 << 20
    /// Whether pictures the body reports at the first connect of this camera (taken before it: a shoot that
    /// ended between a release and its download) are fetched as waiting images: `resume` wants them, a new shoot
    /// does not. Pictures reported at a reconnect are always fetched (a release a dropped link cut off).
    package var adoptsEarlierPictures = false
    /// The postview size asked for: `Original` is the full-size JPEG the body saves (p. 136).
    package var postviewSize = "Original"
    /// A test hook (`$HDRSHOOT_TIME_SCALE`): a BULB hold lasts a `timeScale`-th of its exposure, for a simulator
    /// whose time runs that many times faster (`hdrshoot simulate --api --time-scale`); 1 for a real body.
    package var timeScale = 1

    /// A camera at `location`, shown as `address`.
    package init(location: Location, address: String) {
        self.location = location
        self.address = address
    }

    /// A camera at `text`: `http://HOST:PORT` (the service at `/sony/camera`), `http://HOST:PORT/sony` or
    /// `.../sony/camera` (the same), or `http://HOST:PORT/....xml` (a device description).
    package init(url text: String) throws(CameraRemoteAPIError) {
        let url = try RemoteURL(text)
        let path = url.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url.path
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        let base = RemoteURL(host: url.host, port: url.port, path: "/")
        if trimmed.lowercased().hasSuffix(".xml") {
            self.init(location: .description(url), address: url.description)
        } else if trimmed == "/" || trimmed.isEmpty {
            self.init(location: .endpoint(url.with(path: "/sony/camera")), address: Self.shown(base))
        } else if trimmed.hasSuffix("/camera") {
            self.init(location: .endpoint(url.with(path: trimmed)), address: Self.shown(base))
        } else {
            self.init(location: .endpoint(url.with(path: trimmed + "/camera")), address: Self.shown(base))
        }
    }

    /// `http://192.168.122.1:8080` (no trailing slash).
    private static func shown(_ base: RemoteURL) -> String { "http://\(base.authority)" }

    /// The host the camera is reached at.
    package var host: String {
        switch location {
        case let .endpoint(url), let .description(url): url.host
        }
    }
}
