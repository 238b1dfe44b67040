import Shooting

/// The image bookkeeping of one Sony session: what the body announced, which of it a release of ours
/// explains, what waits in the buffer, and what the last download left to check.
///
/// A pure value (no I/O): `SonyCamera` feeds it what it sees (events, 0xD215 reads, releases, downloads)
/// and asks it what to do next; its rules are unit-tested on their own.
struct ImageLedger: Sendable, Equatable {
    /// ObjectAdded events (0xC201 or PTP 0x4002) seen in this session.
    private(set) var objectsAdded = 0
    /// ObjectAdded events explained by a fetched image or by a buffer read: more than this means the body
    /// announced an image no capture of this session made (see `SonyCamera.recoverUnclaimedImages`).
    private(set) var objectsClaimed = 0
    /// Releases this session pressed (S2 down answered OK); before the first, a busy release may be an
    /// earlier session's exposure still running.
    private(set) var releases = 0
    /// DevicePropChanged events for 0xD215 (images waiting) seen in this session.
    private(set) var shootingFileInfoEvents = 0
    /// Reads of 0xD215 that showed images waiting (`noteBufferRead`): a wait for the image after a release
    /// compares this count instead of trusting events, which some bodies never send.
    private(set) var imagesShownByReads = 0
    /// The buffer check a capture left for later, if any.
    var deferredCheck: DeferredImageCheck?

    /// Whether the session released the shutter yet.
    var hasReleased: Bool { releases > 0 }

    /// Whether the body announced an image that no capture of this session explains.
    var hasUnclaimedAnnouncement: Bool { objectsAdded > objectsClaimed }

    /// An ObjectAdded event arrived.
    mutating func noteObjectAdded() { objectsAdded += 1 }

    /// Captured events (0xC206) seen in this session: each says a release fired.
    private(set) var capturedEvents = 0

    /// A captured event (0xC206) arrived.
    mutating func noteCapturedEvent() { capturedEvents += 1 }

    /// A DevicePropChanged event for 0xD215 arrived.
    mutating func noteShootingFileInfoEvent() { shootingFileInfoEvents += 1 }

    /// A 0x9209 read reported 0xD215; `hasImages` is whether it showed images waiting.
    mutating func noteBufferRead(hasImages: Bool) {
        if hasImages { imagesShownByReads += 1 }
    }

    /// A release of ours was pressed (S2 answered OK).
    mutating func noteRelease() { releases += 1 }

    /// Every announcement up to `announced` is explained (by a download or by a read of the buffer).
    mutating func claim(upTo announced: Int) { objectsClaimed = max(objectsClaimed, announced) }

    /// What a wait for a release's image compares against: announcements and buffer reads so far.
    var mark: Mark { Mark(objectsAdded: objectsAdded, imagesShownByReads: imagesShownByReads) }

    /// Whether the body showed an image since `mark`: an ObjectAdded event, or a read of 0xD215 showing one.
    func showedImage(since mark: Mark) -> Bool {
        objectsAdded > mark.objectsAdded || imagesShownByReads > mark.imagesShownByReads
    }

    /// How many images the body announced since `mark` (at least 1 once it showed one by a read).
    func announcedImages(since mark: Mark) -> Int {
        max(objectsAdded - mark.objectsAdded, imagesShownByReads > mark.imagesShownByReads ? 1 : 0)
    }

    /// A point in the ledger to compare with later.
    struct Mark: Sendable, Equatable {
        /// ObjectAdded events seen at the mark.
        let objectsAdded: Int
        /// Buffer reads showing images at the mark.
        let imagesShownByReads: Int
    }
}

/// A buffer check left for later: images in the camera may not all be fetched yet.
enum DeferredImageCheck: Equatable, Sendable {
    /// 0xD215 has not been read since the last download.
    case pending(CaptureDestination, lastFetchedName: String)
    /// A read showed images still waiting; they are fetched before the next release.
    case imagesWaiting(CaptureDestination, lastFetchedName: String?)
    /// A read showed images that no capture of this session made (an earlier session ended between a
    /// release and the download); the next capture or the recovery of the interrupted frame fetches them.
    case unclaimed
}
