import Exposure
import Foundation

/// A camera the bracket runner can drive: connect, check, set the shutter speed, fire, and save.
///
/// `Shooting` knows cameras only through this protocol (it never imports PTP/IP or Sony code).
/// Conforming types are usually actors. Requirements every implementation must meet:
///
/// - Every method may be called again after it threw; none may hang forever. In particular
///   `release(exposure:beforeRelease:)` must time out on its own (at least the exposure plus 10 s), and
///   `nextImage(to:waitingAtMost:)` after its wait and a bounded transfer.
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

    /// The files waiting in the body's buffer now (a fresh read) and just before the last release was pressed;
    /// nil when the body does not count them. Lets the runner tell a release the body refused (its buffer full)
    /// from one whose evidence is late, after fetching one file (see `BufferCount`).
    func bufferCount() async throws -> BufferCount?

    /// How many captures this body holds, as an earlier shoot of the same body (by serial) learned it; nil when
    /// none did (see `rememberBufferCapacity(_:)`).
    func rememberedBufferCapacity() async -> Int?

    /// Keeps the number of captures this body was found to hold for its next shoot (best effort).
    func rememberBufferCapacity(_ capacity: Int) async

    /// The longest a release of this session took, past its exposure, to show that it fired; nil when the camera
    /// does not time it or no release showed it yet.
    func evidenceLatency() async -> Duration?

    /// Every shutter speed the camera offers in its current mode, including `.bulb` when available.
    func availableShutterSpeeds() async throws -> [CameraShutterSpeed]

    /// The shutter speed the camera reports now.
    func currentShutterSpeed() async throws -> CameraShutterSpeed

    /// Sets the shutter speed and returns only once the camera reports the new value back.
    ///
    /// A speed the camera does not offer is a permanent error; a busy camera is a transient one.
    func setShutterSpeed(_ speed: CameraShutterSpeed) async throws

    /// Fires the shutter once, at the speed set, and returns once the body confirms the release; the image
    /// stays in the body's buffer until `nextImage` fetches it (capture first, download behind).
    ///
    /// `exposure` is the planned exposure time: with the camera set to `.bulb` the implementation holds the
    /// shutter open that long; otherwise it only sizes the timeouts. The release is confirmed by the body
    /// (a captured event, an image announced, or its count of waiting images rising), never by an OK to the
    /// button press alone (Sony's reference p. 114: the press is answered OK whether or not it fires). A press
    /// that shows no sign of firing is pressed again only once it is certain that nothing fired (the whole
    /// exposure, a dark frame and the processing margin passed with no sign); a body that still shows nothing
    /// throws an error with `isReleaseIgnored` (images waiting in a full buffer are a common cause: the caller
    /// downloads them and tries again).
    ///
    /// A transient (busy) error means the shutter was NOT released, because the runner retries it; once the
    /// shutter may have fired, failures must be permanent or connection-lost (the runner then looks for the
    /// frame's image after the reconnect, and fires it again only when none arrives).
    ///
    /// `beforeRelease` is what must be durable before the shutter may fire (the runner's "about to fire"
    /// journal record). The implementation calls it at most once per call of this method, and always before
    /// the release, possibly while the half-press is in flight (it does not fire), and awaits it to the end
    /// before it releases or throws (a camera transaction in flight is never cancelled for it). Then:
    /// - when `beforeRelease` throws, the shutter is not released: the half-press is let go (best effort) and
    ///   the hook's error is rethrown unchanged, even when the half-press failed too;
    /// - when the half-press fails, `beforeRelease` has still returned before the half-press's error is thrown;
    /// - a call that throws without having called `beforeRelease` has not released the shutter.
    /// A retry after a busy error is a new call of this method, so it calls `beforeRelease` again.
    func release(exposure: ShutterSpeed, beforeRelease: @Sendable () async throws -> Void) async throws -> Release

    /// `release(exposure:beforeRelease:)`, calling `whileUnconfirmed` at most once, concurrently with the rest of
    /// the wait, when the release has shown no sign of firing past its exposure and a short grace (the caller
    /// fetches the room a full buffer needs meanwhile: the camera takes other calls while it waits). Evidence
    /// counted by the buffer takes the files fetched meanwhile into account. By default `whileUnconfirmed` is
    /// never called.
    func release(
        exposure: ShutterSpeed, beforeRelease: @Sendable () async throws -> Void,
        whileUnconfirmed: @Sendable () async -> Void
    ) async throws -> Release

    /// Fetches the next file waiting in the body's buffer (the oldest first) into `destination` and returns
    /// it with the exposure time and capture time its own EXIF records; `nil` once the buffer holds nothing.
    ///
    /// When the buffer is empty the implementation waits at most `waitingAtMost` for an image to arrive (a
    /// release confirmed before its image was processed). Every byte that arrived is kept; the file is
    /// written with the camera's own name (with `destination.fileNamePrefix` in front), never over an
    /// existing file, and its durability is awaited by `makeDurable`. Throws like `release` (a lost link is
    /// connection-lost; the image then stays in the camera and is fetched again after the reconnect).
    func nextImage(to destination: CaptureDestination, waitingAtMost: Duration) async throws -> SavedImage?

    /// Moves a fetched file into `folder` as `name` (never over an existing file, keeping its durability
    /// promise) and returns its new record: an image filed under another frame, or set apart as unmatched.
    func move(_ image: SavedImage, toFolder folder: URL, name: String) async throws -> SavedImage

    /// What the body sends over the link, as far as it reports it (best effort, never throws).
    func transferSettings() async -> TransferSettings

    /// Returns once every file of `frame` is durable on disk; the runner calls it before it records the frame
    /// saved. Throws when a file could not be made durable.
    func makeDurable(_ frame: CapturedFrame) async throws

    /// The whole images an abruptly ended process left in `destination`'s folder that no record names (`known`:
    /// the paths the journal names), durable and with their EXIF read, oldest first; partial files there are
    /// deleted. `resume` adopts each under the frame its EXIF says it is, so a frame whose image was written
    /// but not yet recorded is never fired again. A camera that writes no files finds none.
    func filesLeftBehind(in destination: CaptureDestination, known: Set<String>) async throws -> [SavedImage]

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
    /// A camera that writes no image files leaves none behind.
    package func filesLeftBehind(in destination: CaptureDestination, known: Set<String>) async throws -> [SavedImage] {
        []
    }
}

/// Errors a camera implementation throws, classified so the runner can react without knowing the protocol.
package protocol RemoteCameraError: Error {
    /// Trying the same operation again after a pause may succeed (the camera said it is busy).
    var isTransient: Bool { get }
    /// The connection to the camera is gone; reconnecting may help.
    var isConnectionLost: Bool { get }
    /// The body showed no sign of firing after a release was pressed (nothing was fired, it is certain).
    var isReleaseIgnored: Bool { get }
    /// The body refused the release before it fired (it answered the shutter button "busy"): nothing was fired,
    /// it is certain, and a body that refuses while images wait in it takes the release once they are fetched.
    var isReleaseRefused: Bool { get }
    /// Reconnecting cannot help until the photographer does something to the body (one that still holds a
    /// session dropped without CloseSession needs a power cycle, issue 33): the run stops with this error
    /// instead of walking the rest of its reconnect schedule. Also a full disk on the computer (issue 37): met while
    /// a run that stops for another reason downloads what it can, it is what the stop says, since `resume` needs
    /// the space first.
    var needsThePhotographer: Bool { get }
}

extension RemoteCamera {
    /// A body that keeps no record of itself remembers nothing.
    package func rememberedBufferCapacity() async -> Int? { nil }

    /// A body that keeps no record of itself forgets what was learned.
    package func rememberBufferCapacity(_ capacity: Int) async {}

    /// A camera that takes no other call while a release waits for its evidence calls nothing meanwhile.
    package func release(
        exposure: ShutterSpeed, beforeRelease: @Sendable () async throws -> Void,
        whileUnconfirmed: @Sendable () async -> Void
    ) async throws -> Release {
        try await release(exposure: exposure, beforeRelease: beforeRelease)
    }

    /// A body that does not count its buffer says nothing.
    package func bufferCount() async throws -> BufferCount? { nil }

    /// A camera that does not time its releases' evidence says nothing.
    package func evidenceLatency() async -> Duration? { nil }
}

/// The files waiting in a body's buffer as the body counts them (Sony: 0xD215, reference pp. 448-449): now, read
/// afresh, and just before the last release was pressed. A release that showed no sign of firing, followed by
/// downloads of `d` files and a count `now <= before - d`, fired nothing: no image of it joined the buffer.
package struct BufferCount: Sendable, Hashable {
    /// The files waiting now (a fresh read).
    package var now: Int
    /// The files waiting just before the last release was pressed, when the count then was current (nil: a
    /// download since the last read may have lowered it). An image still processing then is not in it.
    package var beforeLastRelease: Int?

    /// Creates a count.
    package init(now: Int, beforeLastRelease: Int?) {
        self.now = now
        self.beforeLastRelease = beforeLastRelease
    }
}

extension RemoteCameraError {
    /// Most errors are not an ignored release.
    package var isReleaseIgnored: Bool { false }
    /// Most errors are not a refused release.
    package var isReleaseRefused: Bool { false }
    /// Most connection failures may pass on their own.
    package var needsThePhotographer: Bool { false }
}

/// A release the body confirmed.
package struct Release: Sendable, Hashable {
    /// How the body showed it fired.
    package var evidence: ReleaseEvidence
    /// The images waiting in the body's buffer after it, as far as the body said (nil: not read).
    package var imagesWaiting: Int?

    /// Creates a release record.
    package init(evidence: ReleaseEvidence, imagesWaiting: Int? = nil) {
        self.evidence = evidence
        self.imagesWaiting = imagesWaiting
    }
}

/// How a body showed that a release fired.
package enum ReleaseEvidence: String, Sendable, Hashable, Codable {
    /// Its captured event (Sony 0xC206, reference p. 676).
    case capturedEvent
    /// An image announced (ObjectAdded 0xC201) or its count of waiting images rising (0xD215).
    case imageWaiting
    /// Its shots-left count dropping (a body that keeps the images on the card).
    case shotsLeft
}

/// What a body sends to the computer after a release (Sony: 0xD222, 0xD268, 0xD269).
package struct TransferSettings: Sendable, Hashable {
    /// Where the body saves stills.
    package enum Destination: String, Sendable, Hashable {
        /// To the computer only: every image crosses the link.
        case host
        /// To its memory card only: nothing crosses the link.
        case camera
        /// To both.
        case hostAndCamera
    }

    /// The save destination, when the body reports it.
    package var destination: Destination?
    /// Whether the body sends a small JPEG instead of the original (0xD268), when it reports it.
    package var smallJPEG: Bool?
    /// What a RAW+JPEG body sends (0xD269: `RAW & JPEG`, `JPEG only`, `RAW only`), when it reports it.
    package var rawJPEGSent: String?

    /// Creates settings; `nil` fields are not reported.
    package init(destination: Destination? = nil, smallJPEG: Bool? = nil, rawJPEGSent: String? = nil) {
        self.destination = destination
        self.smallJPEG = smallJPEG
        self.rawJPEGSent = rawJPEGSent
    }

    /// Whether images cross the link at all (unknown counts as yes).
    package var sendsImages: Bool { destination != .camera }
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
    /// Anything else (movie, scene, auto), with the camera's raw code and, when the camera knows it, the mode's
    /// name (`Intelligent Auto`, `Sunset`, `Movie M`) for the message.
    case other(code: UInt32, name: String? = nil)

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
    /// When the image was taken, as its EXIF DateTimeOriginal says (`2026:11:24 19:10:37`): tells the two
    /// files of a RAW+JPEG pair from a neighbour's (reference p. 48).
    package var dateTimeOriginal: String?

    /// Creates a record of a saved image.
    package init(
        fileName: String, path: String, byteCount: Int, exposure: ShutterSpeed? = nil, problem: String? = nil,
        dateTimeOriginal: String? = nil
    ) {
        self.fileName = fileName
        self.path = path
        self.byteCount = byteCount
        self.exposure = exposure
        self.problem = problem
        self.dateTimeOriginal = dateTimeOriginal
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
