import CameraRemoteAPI

/// A legacy body's settings as its getEvent answers and read-backs last reported them (pure).
struct ReportedSettings: Sendable, Equatable {
    /// `cameraStatus`.
    var status: CameraStatus?
    /// `exposureMode`'s current value (`Manual`, `Shutter`, ...).
    var exposureMode: String?
    /// `shutterSpeed`: the current label and the candidates.
    var shutter: AvailableSetting?
    /// `isoSpeedRate`'s current value (`AUTO`, `100`, ...).
    var isoSpeedRate: String?
    /// `postviewImageSize`'s current value (`Original`, `2M`).
    var postviewSize: String?

    /// Takes every object the answer carries (absent objects leave the value as it was).
    mutating func absorb(_ event: CameraEvent) {
        if let status = event.cameraStatus { self.status = status }
        if let mode = event.exposureMode { exposureMode = mode.current }
        if let shutter = event.shutterSpeed { self.shutter = shutter }
        if let iso = event.isoSpeedRate { isoSpeedRate = iso.current }
        if let size = event.postviewImageSize { postviewSize = size.current }
    }
}

/// The pictures a legacy body reported (actTakePicture's answer, getEvent's `takePicture`) and not yet downloaded,
/// oldest first, and every postview URL this camera has seen, so a picture reported twice is fetched once (pure).
struct PictureQueue: Sendable, Equatable {
    /// The postview URLs waiting to be downloaded, oldest first.
    private(set) var waiting: [String] = []
    private var seen: Set<String> = []

    /// Whether nothing waits.
    var isEmpty: Bool { waiting.isEmpty }

    /// How many pictures wait.
    var count: Int { waiting.count }

    /// The oldest waiting picture.
    var first: String? { waiting.first }

    /// How many different pictures were reported so far (a mark to tell a new one by).
    var reportedCount: Int { seen.count }

    /// Notes a reported URL: queued when it is new and `adopting`; returns false only for a new URL left out.
    @discardableResult
    mutating func report(_ url: String, adopting: Bool = true) -> Bool {
        guard seen.insert(url).inserted else { return true }
        if adopting { waiting.append(url) }
        return adopting
    }

    /// The oldest waiting picture is downloaded (or gone): it no longer waits.
    mutating func removeFirst() {
        if !waiting.isEmpty { waiting.removeFirst() }
    }
}
