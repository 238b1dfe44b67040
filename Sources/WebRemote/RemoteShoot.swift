import ShootKit

/// What the web remote drives: the application layer's shoot controller, seen through the few things a page
/// does with it. The server never orchestrates a shoot; it turns requests into these calls and sends the
/// states it is given.
package protocol RemoteShoot: Sendable {
    /// The states of the shoot as the application layer's update type, JSON-encoded, one full snapshot each;
    /// the first is the state at the moment of the call. The stream ends when the shoot's controller is gone.
    func states() async -> AsyncStream<[UInt8]>

    /// Carries out `command`; throws `RemoteCommandRefusal` with a sentence when the controller refuses it now
    /// (nothing to confirm, a shoot already running). Returns at once: it never waits for a frame.
    func perform(_ command: RemoteCommand) async throws(RemoteCommandRefusal)

    /// A saved frame's image as JPEG bytes for a thumbnail (set and frame from 1), nil when there is none.
    func thumbnail(set: Int, frame: Int) async -> [UInt8]?

    /// A saved frame's luma as the range check measures it (`GET /api/frames/SET/FRAME.json`): the page's
    /// histogram and its clipped and blocked figures; nil when the frame has no file the check reads.
    func luminance(set: Int, frame: Int) async -> FrameLuminanceReading?

    /// The unfinished shoot the page offers as Resume (`GET /api/resumable`), nil when there is none.
    func resumable() async -> ResumableShoot?

    /// The link's health from the current (or last) shoot's session log (`GET /api/link`), nil without one.
    func link() async -> LinkHealth?

    /// Connects to the camera while no shoot runs, reads what a shoot would check, and lets it go
    /// (`POST /api/check-camera`); a refusal says why not (a shoot holds the camera, it does not answer).
    func checkCamera() async throws(RemoteCommandRefusal) -> IdleCameraStatus
}

/// The camera as the idle page shows it: who it is, its battery and card, and what would block a shoot.
package struct IdleCameraStatus: Sendable, Equatable, Codable {
    /// Model, address, serial number, battery and shots left (as a shoot's summary carries them).
    package var camera: ShootUpdate.Camera
    /// What would block a shoot now, as sentences (empty: ready).
    package var blockers: [String]

    /// Creates a status.
    package init(camera: ShootUpdate.Camera, blockers: [String]) {
        self.camera = camera
        self.blockers = blockers
    }
}

/// An unfinished shoot that `POST /api/shoot` with `{"resume": true}` continues: what the page shows on its
/// Resume button.
package struct ResumableShoot: Sendable, Equatable, Codable {
    /// The journal's id (`hdrshoot status` lists it; `{"resume": true, "id": ...}` names it).
    package var id: String
    /// The shoot's folder name inside serve's `--output`.
    package var folder: String
    /// Exposures saved so far.
    package var saved: Int
    /// Exposures planned.
    package var total: Int

    /// Creates the offer.
    package init(id: String, folder: String, saved: Int, total: Int) {
        self.id = id
        self.folder = folder
        self.saved = saved
        self.total = total
    }
}

/// A command from the page (or a script): a POST to `/api/...`.
package enum RemoteCommand: Sendable, Equatable {
    /// Plan a bracket and wait in the proposed state (`POST /api/shoot`); `confirm` confirms at once.
    case shoot(ShootForm)
    /// Shoot what was proposed.
    case confirm
    /// Drop what was proposed.
    case decline
    /// Hold the shoot before the next frame.
    case pause
    /// Lift the page's hold.
    case resume
    /// Stop after the frame in flight.
    case stop
}

/// The fields of `POST /api/shoot`: what the page's form (or a script) asks for.
package struct ShootForm: Sendable, Equatable, Codable {
    /// The shadow reading (`1/4`, `2"`).
    package var shadow: String?
    /// The highlight reading (`1/1000`).
    package var highlight: String?
    /// Frames per set.
    package var frames: Int?
    /// EV spacing between frames.
    package var ev: Double?
    /// Resume the unfinished shoot instead of planning a new one.
    package var resume: Bool?
    /// With `resume`: the journal id of the shoot to continue (default: the one `GET /api/resumable` offers).
    package var id: String?
    /// Confirm at once instead of waiting in the proposed state.
    package var confirm: Bool?

    /// Creates a form.
    package init(
        shadow: String? = nil, highlight: String? = nil, frames: Int? = nil, ev: Double? = nil, resume: Bool? = nil,
        id: String? = nil, confirm: Bool? = nil
    ) {
        self.id = id
        self.shadow = shadow
        self.highlight = highlight
        self.frames = frames
        self.ev = ev
        self.resume = resume
        self.confirm = confirm
    }
}

/// Why the controller did not carry out a command: a sentence for the page (HTTP 409, or 400 for a request
/// that is not one the shoot could take).
package struct RemoteCommandRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// What a person reads (`Nothing waits for a confirm`).
    package var message: String
    /// The HTTP status: 409 (not now) or 400 (not ever, as sent).
    package var status: Int

    /// Creates a refusal.
    package init(_ message: String, status: Int = 409) {
        self.message = message
        self.status = status
    }

    package var description: String { message }
}

/// A saved frame's luma as the page shows it under the frame: the range check's own measurement (its 64-bin
/// histogram and exact clipped and blocked percentages, the manifest's `luminance` of the frame) with the
/// levels it counts against, so the page and `hdrshoot check` never disagree about the same frame.
package struct FrameLuminanceReading: Sendable, Equatable, Codable {
    /// 64 bins of 4 levels each (bin `i`: levels `4i` up to `4i + 4`), counts of the luma's samples.
    package var histogram: [Int]
    /// Percentage of samples above `highlightLevel`.
    package var clippedPercent: Double
    /// Percentage of samples below `shadowLevel`.
    package var blockedPercent: Double
    /// A sample above this level clips (235).
    package var highlightLevel: Double
    /// A sample below this level is blocked (50).
    package var shadowLevel: Double

    /// Creates a reading.
    package init(
        histogram: [Int], clippedPercent: Double, blockedPercent: Double, highlightLevel: Double, shadowLevel: Double
    ) {
        self.histogram = histogram
        self.clippedPercent = clippedPercent
        self.blockedPercent = blockedPercent
        self.highlightLevel = highlightLevel
        self.shadowLevel = shadowLevel
    }
}
