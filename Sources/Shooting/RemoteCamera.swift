import Exposure
import Foundation

/// A camera the bracket runner can drive: connect, check, set the shutter speed, fire, and save.
///
/// `Shooting` knows cameras only through this protocol (it never imports PTP/IP or Sony code).
/// Conforming types are usually actors. Requirements every implementation must meet:
///
/// - Every method may be called again after it threw; none may hang forever. In particular
///   `capture(exposure:to:beforeRelease:)` must time out on its own (at least the exposure plus 10 s plus
///   transfer time).
/// - Errors should conform to ``RemoteCameraError`` so the runner can tell a busy camera (retried with
///   backoff) and a lost connection (auto-reconnect) from everything else (the run stops). Any other
///   error is treated as permanent. `CancellationError` means the caller cancelled.
/// - Methods honour task cancellation where they wait (a cancelled capture is abandoned).
package protocol RemoteCamera: Sendable {
    /// Who the camera is; fields the camera has not reported yet are empty or `nil`.
    var identity: CameraIdentity { get async }

    /// Whether a session is open and usable (false after `disconnect()` or a detected drop).
    var isConnected: Bool { get async }

    /// Opens a session (one bounded attempt; the runner owns reconnect backoff). Connecting while connected
    /// returns at once. A refused, reset or timed-out connection throws an error with `isConnectionLost`.
    func connect() async throws

    /// Closes the session in a safe order, bounded in time; never throws, harmless when not connected.
    func disconnect() async

    /// The exposure mode the camera's dial or menu is in now.
    func shootingMode() async throws -> ShootingMode

    /// Every shutter speed the camera offers in its current mode, including `.bulb` when available.
    func availableShutterSpeeds() async throws -> [CameraShutterSpeed]

    /// The shutter speed the camera reports now.
    func currentShutterSpeed() async throws -> CameraShutterSpeed

    /// Sets the shutter speed and returns only once the camera reports the new value back.
    ///
    /// A speed the camera does not offer is a permanent error; a busy camera is a transient one.
    func setShutterSpeed(_ speed: CameraShutterSpeed) async throws

    /// Takes one picture and returns once every resulting image is saved under `destination`.
    ///
    /// `exposure` is the planned exposure time: with the camera set to `.bulb` the implementation holds
    /// the shutter open that long; otherwise it only sizes the timeouts. The implementation creates
    /// `destination.directory` when missing, keeps the camera's own file names (with
    /// `destination.fileNamePrefix` in front) and never overwrites an existing file.
    ///
    /// A transient (busy) error means the shutter was NOT released, because the runner retries it; once the
    /// shutter may have fired, failures must be permanent or connection-lost (the runner then records the
    /// frame as possibly fired and reshoots it only on reconnect or resume).
    ///
    /// An image an earlier session left in the camera (the session ended between a release and its
    /// download) is fetched into `destination` before this release and returned as
    /// `CapturedFrame.recoveredImages`: the runner reshoots an interrupted frame first after a reconnect or
    /// a resume, so it is that frame's first exposure. It is never discarded and never blocks the release.
    ///
    /// `beforeRelease` is what must be durable before the shutter may fire (the runner's "about to fire"
    /// journal record). The implementation calls it at most once per call of this method, and always before
    /// the release: after everything that happens before the half-press (fetching images left in the camera),
    /// possibly while the half-press is in flight (it does not fire), and awaits it to the end before it
    /// releases or throws (a camera transaction in flight is never cancelled for it). Then:
    /// - when `beforeRelease` throws, the shutter is not released: the half-press is let go (best effort) and
    ///   the hook's error is rethrown unchanged, even when the half-press failed too;
    /// - when the half-press fails, `beforeRelease` has still returned before the half-press's error is thrown;
    /// - a call that throws without having called `beforeRelease` has not released the shutter.
    /// A retry after a busy error is a new call of this method, so it calls `beforeRelease` again.
    func capture(
        exposure: ShutterSpeed, to destination: CaptureDestination,
        beforeRelease: @Sendable () async throws -> Void
    ) async throws -> CapturedFrame

    /// After a reconnect, before a frame whose release may have happened is fired again: looks for that
    /// release's image and saves it under `destination` as `capture` would.
    ///
    /// An image the camera already holds is fetched at once; otherwise the implementation waits at most
    /// `waitingAtMost` (what is left of the interrupted exposure and its processing) for one to appear.
    /// Returns the frame when an image came, `nil` when none did: the release certainly did not fire, or its
    /// image is gone, and the frame may be fired again. Throws like `capture` (a lost link is connection-lost).
    func recoverInterruptedCapture(
        exposure: ShutterSpeed, to destination: CaptureDestination, waitingAtMost: Duration
    ) async throws -> CapturedFrame?

    /// Returns once every file of `frame` (as `capture` or `recoverInterruptedCapture` returned it) is durable on
    /// disk; the runner calls it before it records the frame saved. Throws when a file could not be made durable.
    func makeDurable(_ frame: CapturedFrame) async throws

    /// The battery level and the shots left on the card, where the body reports them (best effort, never throws).
    func mediaStatus() async -> MediaStatus

    /// What the camera has to tell the photographer since the last call (a fallback it took, a warning), each
    /// message once; the runner reports them as `.cameraNote` events.
    func takeNotes() async -> [String]

    /// A new stream of the camera's status: first the current status at once, then every change.
    ///
    /// Each call returns an independent stream; it ends (or yields `.disconnected`) when the session drops.
    func statusUpdates() async -> AsyncStream<CameraStatus>
}

extension RemoteCamera {
    /// Takes one picture with nothing to make durable before the release (tools and tests without a journal).
    package func capture(exposure: ShutterSpeed, to destination: CaptureDestination) async throws -> CapturedFrame {
        try await capture(exposure: exposure, to: destination, beforeRelease: {})
    }
}

/// Errors a camera implementation throws, classified so the runner can react without knowing the protocol.
package protocol RemoteCameraError: Error {
    /// Trying the same operation again after a pause may succeed (the camera said it is busy).
    var isTransient: Bool { get }
    /// The connection to the camera is gone; reconnecting may help.
    var isConnectionLost: Bool { get }
}

/// A shutter speed as a camera offers it: an exact time, or BULB (held open by the caller).
package enum CameraShutterSpeed: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A timed exposure the camera meters itself.
    case timed(ShutterSpeed)
    /// The shutter stays open while the release is held (Sony encodes it as 0).
    case bulb

    /// The camera's label: `1/250`, `2.5"`, `BULB`.
    package var description: String {
        switch self {
        case .timed(let speed): speed.label
        case .bulb: "BULB"
        }
    }

    /// The camera setting that shoots `speed`: the same timed value when offered, else BULB when
    /// `speed` is longer than every timed value and the camera offers BULB, else `nil`.
    ///
    /// `OfferedSpeeds.choice(for:substituting:)` without substitution: the plan was matched already, so a
    /// speed that is not there means the camera's list changed.
    package static func resolve(_ speed: ShutterSpeed, in available: [CameraShutterSpeed]) -> CameraShutterSpeed? {
        let offers = OfferedSpeeds(available, offersBulb: available.contains(.bulb)) { setting in
            if case .timed(let value) = setting { return value }
            return nil
        }
        return switch offers.choice(for: speed, substituting: false) {
        case .offered?: .timed(speed)
        case .bulb?: .bulb
        case nil: nil
        }
    }
}

/// The camera's exposure mode, as far as shooting is concerned.
package enum ShootingMode: Sendable, Hashable, Codable {
    /// M: aperture and shutter set by hand (BULB available).
    case manual
    /// S: shutter priority.
    case shutterPriority
    /// A: aperture priority (the camera picks the shutter speed).
    case aperturePriority
    /// P: program auto.
    case program
    /// Anything else (movie, scene, auto), with the camera's raw code for the message.
    case other(code: UInt32)

    /// Whether hdrshoot can set shutter speeds in this mode (M or S).
    package var allowsShutterControl: Bool { self == .manual || self == .shutterPriority }
}

/// What the camera is doing, as reported on its event channel.
package enum CameraStatus: Sendable, Hashable {
    /// Ready for the next command; every image of the last capture is saved.
    case idle
    /// The shutter is open.
    case exposing
    /// The camera is processing or the image is being transferred.
    case saving
    /// The session is gone.
    case disconnected
    /// The camera reported a fault (card full, lens error); `code` is the camera's, for the message.
    case error(code: UInt32)
}

/// Who a camera is: shown in summaries and stored in the journal so a resume reconnects to the same body.
package struct CameraIdentity: Sendable, Hashable, Codable {
    /// The model name (`DSC-RX100M7`).
    package var model: String
    /// The serial number, or the PTP/IP GUID when the body reports no serial.
    package var serialNumber: String?
    /// Where it was reached: `host:port`.
    package var address: String
    /// The Wi-Fi network it was reached on, when the host knows it.
    package var ssid: String?

    /// Creates an identity.
    package init(model: String, serialNumber: String? = nil, address: String, ssid: String? = nil) {
        self.model = model
        self.serialNumber = serialNumber
        self.address = address
        self.ssid = ssid
    }
}

/// Where a capture's images go: a directory and a prefix for the camera's file names.
package struct CaptureDestination: Sendable, Hashable, Codable {
    /// The folder the images are written into (created by the camera implementation when missing).
    package var directory: URL
    /// Put in front of the camera's own file name (may be empty).
    package var fileNamePrefix: String

    /// Creates a destination.
    package init(directory: URL, fileNamePrefix: String = "") {
        self.directory = directory
        self.fileNamePrefix = fileNamePrefix
    }

    /// Where images of an earlier, interrupted attempt go: an `earlier` folder inside this one, so they are
    /// kept but never mixed with the frame's own files.
    package var earlier: CaptureDestination {
        CaptureDestination(
            directory: directory.appendingPathComponent("earlier", isDirectory: true), fileNamePrefix: fileNamePrefix)
    }
}

/// One image file a capture produced.
package struct SavedImage: Sendable, Hashable, Codable {
    /// The file name as written (prefix plus the camera's name, e.g. `DSC01234.ARW`).
    package var fileName: String
    /// The full path of the written file.
    package var path: String
    /// The number of bytes written.
    package var byteCount: Int
    /// The exposure time the image itself records (EXIF ExposureTime), when it has one.
    package var exposure: ShutterSpeed?
    /// What went wrong while it was fetched, when something did (every byte that arrived is kept).
    package var problem: String?

    /// Creates a record of a saved image.
    package init(
        fileName: String, path: String, byteCount: Int, exposure: ShutterSpeed? = nil, problem: String? = nil
    ) {
        self.fileName = fileName
        self.path = path
        self.byteCount = byteCount
        self.exposure = exposure
        self.problem = problem
    }
}

/// What one capture produced: one file, or more (RAW + JPEG).
package struct CapturedFrame: Sendable, Hashable, Codable {
    /// The saved files, in the order the camera offered them.
    package var images: [SavedImage]
    /// The shutter speed the camera actually used, when it reported one.
    package var actualSpeed: CameraShutterSpeed?
    /// Images an interrupted earlier release left in the camera, fetched before this release into an
    /// `earlier` folder beside the frame's; empty in the normal case.
    package var recoveredImages: [SavedImage]
    /// Images that arrived with this frame but whose own exposure time (EXIF) is not the frame's: kept, in
    /// an `unmatched` folder, named with the exposure they have, and never counted as the frame.
    package var unmatchedImages: [SavedImage]

    /// Creates a capture result.
    package init(
        images: [SavedImage], actualSpeed: CameraShutterSpeed? = nil, recoveredImages: [SavedImage] = [],
        unmatchedImages: [SavedImage] = []
    ) {
        self.images = images
        self.actualSpeed = actualSpeed
        self.recoveredImages = recoveredImages
        self.unmatchedImages = unmatchedImages
    }

    private enum CodingKeys: String, CodingKey {
        case images, actualSpeed, recoveredImages, unmatchedImages
    }

    /// Decodes a capture result; `recoveredImages` may be missing (records written before it existed).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        images = try container.decode([SavedImage].self, forKey: .images)
        actualSpeed = try container.decodeIfPresent(CameraShutterSpeed.self, forKey: .actualSpeed)
        recoveredImages = try container.decodeIfPresent([SavedImage].self, forKey: .recoveredImages) ?? []
        unmatchedImages = try container.decodeIfPresent([SavedImage].self, forKey: .unmatchedImages) ?? []
    }
}

/// What a body reports about its battery and memory card; `nil` fields are not reported.
package struct MediaStatus: Sendable, Hashable {
    /// The battery level, in percent.
    package var batteryPercent: Int?
    /// Shots left on the memory card.
    package var remainingShots: Int?

    /// Creates a status.
    package init(batteryPercent: Int? = nil, remainingShots: Int? = nil) {
        self.batteryPercent = batteryPercent
        self.remainingShots = remainingShots
    }
}
