import ImageMetadata

/// How the simulated legacy body behaves: its model, its timings and the quirks real bodies show over the
/// Camera Remote API, each of which a client must survive.
///
/// Build one in code (tests) or with `parse(arguments:)` (`hdrshoot simulate --api`, `legacy-simulator`).
package struct LegacySimulatorConfiguration: Sendable, Equatable {
    /// The address to listen on (loopback unless told otherwise).
    package var host = "127.0.0.1"
    /// The TCP port; 0 lets the kernel choose (`LegacyCameraSimulator.port` says which).
    package var port: UInt16 = 0
    /// The model name (`friendlyName`, EXIF Model).
    package var model = "ILCE-6000"
    /// The mode dial: `Manual`, `Shutter`, `Aperture`, `Program Auto`, `Intelligent Auto`. Outside M and S the
    /// shutter has no candidates and setShutterSpeed is refused; only M offers BULB.
    package var exposureMode = "Manual"
    /// The shutter label at start.
    package var initialShutter = "1/60"
    /// Quirk: the body lists only a few methods (and refuses shooting ones) until startRecMode.
    package var needsStartRecMode = true
    /// How long startRecMode takes before the body is IDLE and lists everything (a real one takes seconds).
    package var recModeDelay: Duration = .milliseconds(200)
    /// Quirk: setShutterSpeed answers [0] at once, but the new value applies this much later (p. 103).
    package var settingDelay: Duration = .milliseconds(150)
    /// Quirk: every `setFailureEvery`-th setShutterSpeed fails with [1, "Any"] (nil: never).
    package var setFailureEvery: Int?
    /// Quirk: the `dropConnectionAtShot`-th actTakePicture takes the picture but closes the connection
    /// instead of answering (once; nil: never).
    package var dropConnectionAtShot: Int?
    /// How long after a release actTakePicture answers 40403 when the exposure is still running (p. 28:
    /// "within several tens of seconds"); awaitTakePicture waits as long again.
    package var captureAnswerTimeout: Duration = .seconds(30)
    /// How long a getEvent long poll waits for a change before answering anyway.
    package var longPollTimeout: Duration = .seconds(60)
    /// StillSaving after each exposure.
    package var saveDuration: Duration = .milliseconds(100)
    /// Test hook (`save-at-shot:N:MS`): the `shot`-th picture saves for `duration` instead of `saveDuration`, so
    /// a test can stop the client while that one picture is surely still saving and let every other save be quick.
    package var saveAtShot: SaveAtShot?

    /// One picture's own saving time (`saveAtShot`).
    package struct SaveAtShot: Sendable, Equatable {
        /// Which picture, counted from 1.
        package var shot: Int
        /// How long it saves.
        package var duration: Duration

        /// The `shot`-th picture saving for `duration`.
        package init(shot: Int, duration: Duration) {
            self.shot = shot
            self.duration = duration
        }
    }
    /// The size of an "Original" postview in bytes ("2M" postviews are a tenth, at least the minimum).
    package var imageSize = 200_000
    /// The body's clock at start, for EXIF DateTimeOriginal.
    package var cameraClock = ExifDateTime(year: 2026, month: 1, day: 1)!
    /// The ISO setting (`AUTO` or one of `isoLabels`); BULB is refused with Auto ISO, as bodies do.
    package var isoSpeedRate = "AUTO"
    /// Holds every timed exposure at most this long (tests, benchmarks); EXIF still records the label's time.
    package var exposureCap: Duration?
    /// Added before each HTTP answer, like a Wi-Fi round trip.
    package var roundTripDelay: Duration = .zero
    /// File to append one JSON line per fired frame to (`LegacyCaptureRecord`).
    package var captureLogPath: String?
    /// The UDP port SSDP M-SEARCHes for `urn:schemas-sony-com:service:ScalarWebAPI:1` are answered on (on `host`,
    /// unicast only; 0 lets the kernel choose); nil: no SSDP.
    package var ssdpPort: UInt16?

    /// The defaults: an ILCE-6000 in M needing startRecMode, sets applying late, no failures, no drop.
    package init() {}

    /// The shutter labels an ILCE-6000 offers over the API in M, as its answers write them (BULB first,
    /// then 30" down to 1/4000: its fastest speed, so 1/8000 to 1/5000 are missing).
    package static let manualShutterLabels: [String] = [
        "BULB", "30\"", "25\"", "20\"", "15\"", "13\"", "10\"", "8\"", "6\"", "5\"", "4\"", "3.2\"", "2.5\"", "2\"",
        "1.6\"", "1.3\"", "1\"", "0.8\"", "0.6\"", "0.5\"", "0.4\"", "1/3", "1/4", "1/5", "1/6", "1/8", "1/10", "1/13",
        "1/15", "1/20", "1/25", "1/30", "1/40", "1/50", "1/60", "1/80", "1/100", "1/125", "1/160", "1/200", "1/250",
        "1/320", "1/400", "1/500", "1/640", "1/800", "1/1000", "1/1250", "1/1600", "1/2000", "1/2500", "1/3200",
        "1/4000"
    ]

    /// The ISO labels the body offers (`setIsoSpeedRate` takes one of them).
    package static let isoLabels = ["AUTO", "100", "200", "400", "800", "1600", "3200", "6400"]

    /// The methods before startRecMode (when the body needs it).
    package static let methodsBeforeRecMode = [
        "getVersions", "getMethodTypes", "getApplicationInfo", "getAvailableApiList", "getEvent", "startRecMode",
        "stopRecMode"
    ]

    /// The methods once in rec mode: the shooting calls a bracket needs among the usual set.
    package static let methodsInRecMode = [
        "getVersions", "getMethodTypes", "getApplicationInfo", "getAvailableApiList", "getEvent", "actTakePicture",
        "awaitTakePicture", "stopRecMode", "startLiveview", "stopLiveview", "setSelfTimer", "getSelfTimer",
        "getExposureMode", "getSupportedExposureMode", "getAvailableExposureMode", "setShutterSpeed",
        "getShutterSpeed", "getSupportedShutterSpeed", "getAvailableShutterSpeed", "setIsoSpeedRate",
        "getIsoSpeedRate", "getSupportedIsoSpeedRate", "getAvailableIsoSpeedRate", "setPostviewImageSize",
        "getPostviewImageSize", "getSupportedPostviewImageSize", "getAvailablePostviewImageSize",
        "startBulbShooting", "stopBulbShooting"
    ]
}
