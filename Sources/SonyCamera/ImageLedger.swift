import Shooting

/// The image bookkeeping of one Sony session: what the body announced on its event channel, and which of it
/// a download or a buffer read of ours explains.
///
/// A pure value (no I/O): `SonyCamera` feeds it what it sees (events, releases, downloads) and asks it what
/// a release moved; its rules are unit-tested on their own.
struct ImageLedger: Sendable, Equatable {
    /// ObjectAdded events (0xC201 or PTP 0x4002) seen in this session.
    private(set) var objectsAdded = 0
    /// ObjectAdded events explained by a fetched image or by a buffer read: more than this means the body
    /// announced an image that no download of this session explains yet (an earlier session's exposure that
    /// finished after the connect, or a frame of ours waiting in the buffer).
    private(set) var objectsClaimed = 0
    /// Releases this session pressed (S2 down answered OK).
    private(set) var releases = 0
    /// DevicePropChanged events for 0xD215 (images waiting) seen in this session.
    private(set) var shootingFileInfoEvents = 0
    /// Captured events (0xC206) seen in this session: each says a release fired.
    private(set) var capturedEvents = 0

    /// Whether the body announced an image that no download of this session explains.
    var hasUnclaimedAnnouncement: Bool { objectsAdded > objectsClaimed }

    /// An ObjectAdded event arrived.
    mutating func noteObjectAdded() { objectsAdded += 1 }

    /// A captured event (0xC206) arrived.
    mutating func noteCapturedEvent() { capturedEvents += 1 }

    /// A DevicePropChanged event for 0xD215 arrived.
    mutating func noteShootingFileInfoEvent() { shootingFileInfoEvents += 1 }

    /// A release of ours was pressed (S2 answered OK).
    mutating func noteRelease() { releases += 1 }

    /// One more announcement is explained (a body without 0xD215: one download, one image).
    mutating func claimOne() { objectsClaimed = min(objectsClaimed + 1, objectsAdded) }

    /// Every announcement up to `announced` is explained (by a download or by a read of the buffer).
    mutating func claim(upTo announced: Int) { objectsClaimed = max(objectsClaimed, announced) }
}
