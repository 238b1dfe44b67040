import Exposure
import Foundation

/// The exposure a release was meant to make, to check its images against (their EXIF ExposureTime).
package enum ExpectedExposure: Sendable, Hashable {
    /// A timed exposure the camera made itself.
    case timed(ShutterSpeed)
    /// BULB, held for this long.
    case bulb(held: Duration)

    /// Whether an image recording `exposure` is this one's.
    package func matches(_ exposure: ShutterSpeed) -> Bool {
        switch self {
        case .timed(let speed):
            // 1/6 stop either way: a body may write 1/250 as 1/256 or 10/2500.
            return abs(log2(exposure.seconds / speed.seconds)) <= 1.0 / 6
        case .bulb(let held):
            let seconds = Double(held.components.seconds) + Double(held.components.attoseconds) / 1e18
            return abs(exposure.seconds - seconds) <= max(0.5, seconds * 0.1)
        }
    }

    /// `1/250`, `BULB 40"`.
    package var label: String {
        switch self {
        case .timed(let speed): speed.label
        case .bulb(let held):
            "BULB \(ShutterSpeed(numerator: max(1, Int(held.components.seconds)), denominator: 1).label)"
        }
    }
}

/// The frames fired and not yet downloaded, in firing order, and the rule that files each downloaded image
/// under the frame whose exposure its EXIF records.
///
/// A pure value (no I/O): the runner tells it what fired and what arrived, and it says where each file
/// belongs, which frames are complete, and which never got an image. The body hands out its buffer in
/// firing order (reference pp. 47-48: 0xFFFFC001 is always "the first file to be transferred"), so:
/// - an image belongs to the first waiting frame whose expected exposure it records and that has no file of
///   its kind yet (a RAW+JPEG pair: the JPEG first, then the RAW, one of each per frame); when both the
///   frame's file and the image carry DateTimeOriginal, they must agree (reference p. 48: sequence numbers
///   restart at power-on, so the time tells a pair apart);
/// - frames before that one that got a file are complete (the body has moved on), and frames before it with
///   no file at all never produced one: they are missing and are shot again;
/// - an image that matches no waiting frame is unmatched: kept apart, never filed under a frame;
/// - when the buffer reads empty, every waiting frame with a file is complete and the rest are missing.
package struct DownloadQueue: Sendable, Equatable {
    /// One fired frame waiting for its files.
    package struct Fired: Sendable, Equatable {
        /// Where the frame is in the plan.
        package var position: ShootPosition
        /// The camera setting it fired with.
        package var setting: CameraShutterSpeed
        /// What its images must record.
        package var expected: ExpectedExposure
        /// The files filed under it so far, in arrival order.
        package var images: [SavedImage] = []
        /// Whether the body confirmed the release (false: a release that may or may not have fired, such as
        /// one cut off by a dropped connection; its missing image is then no surprise).
        package var confirmed: Bool

        /// Creates a fired frame with no files yet.
        package init(
            position: ShootPosition, setting: CameraShutterSpeed, expected: ExpectedExposure, confirmed: Bool = true
        ) {
            self.position = position
            self.setting = setting
            self.expected = expected
            self.confirmed = confirmed
        }
    }

    /// Where a downloaded image goes.
    package enum Verdict: Sendable, Equatable {
        /// It is this frame's file.
        case frame(ShootPosition)
        /// It matches no waiting frame; `reason` says why, for the note.
        case unmatched(reason: String)
    }

    /// What an arrival (or the end of the buffer) settled.
    package struct Settled: Sendable, Equatable {
        /// Where the image goes (nil when nothing arrived: the buffer read empty).
        package var verdict: Verdict?
        /// Frames that are now complete, in firing order: record them saved.
        package var complete: [Fired] = []
        /// Frames that will get no image, in firing order: shoot them again.
        package var missing: [Fired] = []
    }

    /// The frames fired and not complete yet, in firing order.
    package private(set) var waiting: [Fired] = []

    /// Creates an empty queue.
    package init() {}

    /// How many fired frames wait for their files.
    package var count: Int { waiting.count }

    /// Whether no fired frame waits.
    package var isEmpty: Bool { waiting.isEmpty }

    /// Whether a waiting frame has no file yet (its image may still be processing in the body).
    package var awaitsImages: Bool { waiting.contains { $0.images.isEmpty } }

    /// The frame the next file most likely belongs to: the oldest frame with no file, else the newest frame
    /// (the RAW of its pair may follow). Its folder is where the next download is written.
    package var likelyNext: Fired? { waiting.first { $0.images.isEmpty } ?? waiting.last }

    /// A frame fired (or may have fired, when `confirmed` is false).
    package mutating func fired(_ frame: Fired) {
        waiting.append(frame)
    }

    /// Files `image` (as downloaded, with its EXIF read) and settles what its arrival proves.
    package mutating func arrived(_ image: SavedImage) -> Settled {
        guard let index = waiting.firstIndex(where: { accepts($0, image) }) else {
            let expected = waiting.map(\.expected.label)
            let recorded = image.exposure?.label ?? "no exposure time"
            let reason =
                expected.isEmpty
                ? "it records \(recorded), and no frame was waiting for an image"
                : "it records \(recorded), and no waiting frame (\(expected.joined(separator: ", "))) was shot so"
            return Settled(verdict: .unmatched(reason: reason))
        }
        var settled = Settled(verdict: .frame(waiting[index].position))
        for earlier in waiting[..<index] {
            if earlier.images.isEmpty {
                settled.missing.append(earlier)
            } else {
                settled.complete.append(earlier)
            }
        }
        waiting.removeFirst(index)
        waiting[0].images.append(image)
        return settled
    }

    /// Replaces the newest file of the waiting frame at `position` (the file was moved after it was filed).
    package mutating func replaceLastFile(of position: ShootPosition, with image: SavedImage) {
        guard let index = waiting.firstIndex(where: { $0.position == position }), !waiting[index].images.isEmpty
        else { return }
        waiting[index].images[waiting[index].images.count - 1] = image
    }

    /// Removes the leading frames that have a file and returns them as complete (a stop between frames: a RAW
    /// still to come for the last of them is then fetched by `resume` and set apart as unmatched).
    package mutating func takeFramesWithFiles() -> [Fired] {
        let count = waiting.prefix { !$0.images.isEmpty }.count
        defer { waiting.removeFirst(count) }
        return Array(waiting.prefix(count))
    }

    /// The buffer read empty and nothing more is coming: every frame with a file is complete, the rest are
    /// missing; the queue is empty afterwards.
    package mutating func drained() -> Settled {
        var settled = Settled()
        for frame in waiting {
            if frame.images.isEmpty {
                settled.missing.append(frame)
            } else {
                settled.complete.append(frame)
            }
        }
        waiting.removeAll()
        return settled
    }

    /// Empties the queue and returns what waited (a stop leaves those frames' images in the camera, and the
    /// journal keeps them as "in the camera" for `resume`).
    package mutating func removeAll() -> [Fired] {
        defer { waiting.removeAll() }
        return waiting
    }

    /// Whether `frame` takes `image`: its exposure (when recorded) is the frame's, the frame has no file of
    /// the image's kind yet, and their capture times agree when both are known.
    private func accepts(_ frame: Fired, _ image: SavedImage) -> Bool {
        if let exposure = image.exposure, !frame.expected.matches(exposure) { return false }
        let kind = image.kind
        if frame.images.contains(where: { $0.kind == kind }) { return false }
        if let time = image.dateTimeOriginal,
            let other = frame.images.lazy.compactMap(\.dateTimeOriginal).first, other != time
        {
            return false
        }
        return true
    }
}

/// What kind of file an image is, as far as pairing is concerned: a RAW+JPEG release gives one of each.
package enum ImageKind: String, Sendable, Hashable, Codable {
    /// A JPEG (or HEIF) picture.
    case picture
    /// A RAW file (ARW).
    case raw
    /// Anything else.
    case other

    /// The kind of a file name's extension.
    package init(fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg", "heif", "heic", "hif": self = .picture
        case "arw", "srf", "sr2", "raw", "dng": self = .raw
        default: self = .other
        }
    }
}

extension SavedImage {
    /// Picture or RAW, from the file name.
    package var kind: ImageKind { ImageKind(fileName: fileName) }
}
