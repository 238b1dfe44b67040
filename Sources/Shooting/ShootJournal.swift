import Exposure
import Foundation

/// The durable record of one shoot: the plan, the camera, and the state of every frame.
///
/// Written by `JournalStore` (atomically) through `JournalRecorder` before each frame fires and after each
/// frame is saved, so `hdrshoot resume` and `hdrshoot status` know exactly what was shot, even after a
/// crash. Frames that were in flight when the process died are reshot and reported as possibly duplicated.
package struct ShootJournal: Sendable, Hashable, Codable {
    /// The file format this code writes; newer formats are refused rather than misread.
    package static let currentFormat = 1

    /// The format of this journal.
    package var format: Int
    /// The shoot's identifier and file name stem: `20261122-071502-3fa9` (UTC time of creation, random).
    package var id: String
    /// When the shoot was created.
    package var createdAt: Date
    /// When the journal was last changed.
    package var updatedAt: Date
    /// Increases with every save.
    package var revision: Int
    /// The plan as shot (speeds after substitution).
    package var plan: BracketPlan
    /// The camera the shoot runs on.
    package var camera: CameraIdentity
    /// Planned speeds the camera lacks and what is shot instead.
    package var substitutions: [SpeedSubstitution]
    /// The shoot's output folder.
    package var outputDirectory: String
    /// The state of every frame, per set, in plan order.
    package var frames: [[FrameRecord]]
    /// Starts, pauses, resumes and stops, in order.
    package var log: [LogEntry]
    /// Where the shoot stands.
    package var status: Status
    /// How the plan was asked for (readings and planner options) and what the output folders get; absent in
    /// journals written before it was recorded.
    package var recipe: ShootRecipe?
    /// The schedule and repetitions of an interval series (`run --every`); absent for a single bracket.
    package var series: SeriesRecord?
    /// The session logs of the runs of this shoot (`hdrshoot log`), oldest first; absent when none was kept.
    package var sessionLogs: [String]? = nil

    /// One frame's record.
    package struct FrameRecord: Sendable, Hashable, Codable {
        /// Where the frame stands.
        package var state: FrameState
        /// How many times the frame was about to fire.
        package var attempts: Int
        /// True when an earlier attempt may have fired (crash or drop mid-frame): the card may hold it twice.
        package var possiblyDuplicated: Bool
        /// Images of earlier attempts: saved before a set was restarted with `--restart-set`, or recovered
        /// from the camera's buffer after an attempt was interrupted between the release and the download.
        package var earlierImages: [SavedImage]
        /// Images that came with the frame but record another exposure (EXIF): kept in `unmatched/`, never
        /// the frame's; absent in journals written before they were recorded.
        package var unmatchedImages: [SavedImage]? = nil

        /// A frame not shot yet.
        package static let pending = FrameRecord(
            state: .pending, attempts: 0, possiblyDuplicated: false, earlierImages: [])
    }

    /// Where one frame stands.
    package enum FrameState: Sendable, Hashable, Codable {
        /// Not fired yet.
        case pending
        /// About to fire or firing since `since`; if the process dies now, the frame is reshot.
        case inFlight(since: Date)
        /// Fired at `since` (the body confirmed the release); its image waits in the camera's buffer until it is
        /// downloaded. `resume` fetches it first and shoots the frame again only when no image of it is left.
        case inCamera(since: Date)
        /// Saved at `at` as `images`.
        case done(images: [SavedImage], at: Date)
        /// The last attempt failed.
        case failed(FrameFailure)
    }

    /// Why a frame failed, as far as resume and status need to know.
    package struct FrameFailure: Sendable, Hashable, Codable {
        /// When.
        package var at: Date
        /// The error, for display (`String(describing:)`).
        package var detail: String
        /// The camera connection was lost.
        package var connectionLost: Bool
        /// The shutter may have been released.
        package var mayHaveFired: Bool

        /// Creates a failure record.
        package init(at: Date, detail: String, connectionLost: Bool, mayHaveFired: Bool) {
            self.at = at
            self.detail = detail
            self.connectionLost = connectionLost
            self.mayHaveFired = mayHaveFired
        }
    }

    /// One line of the run log.
    package struct LogEntry: Sendable, Hashable, Codable {
        /// When.
        package var at: Date
        /// What happened.
        package var event: LogEvent

        /// Creates an entry.
        package init(at: Date, event: LogEvent) {
            self.at = at
            self.event = event
        }
    }

    /// What the run log records.
    package enum LogEvent: Sendable, Hashable, Codable {
        /// A run started (or resumed after an exit) at the position.
        case started(at: ShootPosition, restartingSet: Bool)
        /// A pause hold was added.
        case paused(PauseReason)
        /// A pause hold was released.
        case resumed(PauseReason)
        /// The run stopped early at the position.
        case stopped(StopKind, at: ShootPosition?, detail: String?)
        /// Every frame is saved.
        case completed
    }

    /// Why a run stopped, without the error value (which is not stored).
    package enum StopKind: String, Sendable, Hashable, Codable {
        /// `StopReason.stopRequested`.
        case stopRequested
        /// `StopReason.cancelled`.
        case cancelled
        /// `StopReason.failed`.
        case failed
        /// `StopReason.reconnectGaveUp`.
        case reconnectGaveUp
        /// `StopReason.recordingFailed`.
        case recordingFailed
    }

    /// Where a shoot stands.
    package enum Status: Sendable, Hashable, Codable {
        /// A run is (or was, if the process died) shooting.
        case inProgress
        /// A run stopped early; `hdrshoot resume` continues.
        case stopped(StopKind)
        /// Every frame is saved.
        case complete
    }

    /// Creates the journal of a new shoot with every frame pending.
    package init(
        id: String? = nil,
        plan: BracketPlan,
        camera: CameraIdentity,
        substitutions: [SpeedSubstitution] = [],
        outputDirectory: String,
        recipe: ShootRecipe? = nil,
        createdAt: Date = Date()
    ) {
        self.format = Self.currentFormat
        self.id = id ?? Self.makeID(at: createdAt)
        self.createdAt = createdAt
        self.updatedAt = createdAt
        self.revision = 0
        self.plan = plan
        self.camera = camera
        self.substitutions = substitutions
        self.outputDirectory = outputDirectory
        self.frames = plan.sets.map { Array(repeating: .pending, count: $0.count) }
        self.log = []
        self.status = .inProgress
        self.recipe = recipe
    }

    /// A sortable identifier: UTC `yyyyMMdd-HHmmss` of `date` and 4 random hex digits.
    package static func makeID(at date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let text = String(value ?? 0)
            return text.count < 2 ? "0" + text : text
        }
        let random = String(UInt16.random(in: .min ... .max), radix: 16)
        let suffix = String(repeating: "0", count: 4 - random.count) + random
        return
            "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))-\(suffix)"
    }

    // MARK: - Derived state

    /// The record of the frame at `position` (which must be in the plan).
    package func frame(at position: ShootPosition) -> FrameRecord { frames[position.set - 1][position.frame - 1] }

    /// The first frame in plan order that is not saved: where `resume` starts; `nil` when all are saved.
    package var resumePosition: ShootPosition? {
        plan.positions.first { position in
            if case .done = frame(at: position).state { return false }
            return true
        }
    }

    /// Frames that may have fired without being recorded as saved (in flight at a crash, or failed after
    /// the shutter may have opened): reshot on resume and reported as possibly duplicated.
    package var interruptedFrames: [ShootPosition] {
        plan.positions.filter { position in
            switch frame(at: position).state {
            case .inFlight: true
            case .failed(let failure): failure.mayHaveFired
            case .pending, .done, .inCamera: false
            }
        }
    }

    /// The paths of every file the journal names (saved images, earlier attempts' and unmatched ones): a file in
    /// the shoot's folders not among them was written by a process that died before recording it.
    package var filesNamed: Set<String> {
        var paths = Set<String>()
        for record in frames.joined() {
            for image in record.earlierImages + (record.unmatchedImages ?? []) { paths.insert(image.path) }
            if case .done(let images, _) = record.state { paths.formUnion(images.map(\.path)) }
        }
        return paths
    }

    /// Frames fired whose images wait in the camera (not downloaded yet), in plan order.
    package var framesInCamera: [ShootPosition] {
        plan.positions.filter { position in
            if case .inCamera = frame(at: position).state { return true }
            return false
        }
    }

    /// How many frames are saved.
    package var savedCount: Int {
        frames.joined().filter { if case .done = $0.state { true } else { false } }.count
    }

    /// Whether the shoot still has frames to shoot.
    package var isUnfinished: Bool { status != .complete || series.map { !$0.ended } ?? false }

    /// Changes the record of the frame at `position`.
    package mutating func updateFrame(at position: ShootPosition, _ change: (inout FrameRecord) -> Void) {
        change(&frames[position.set - 1][position.frame - 1])
    }
}

extension StopReason {
    /// The stored kind of this reason.
    package var kind: ShootJournal.StopKind {
        switch self {
        case .stopRequested: .stopRequested
        case .cancelled: .cancelled
        case .failed: .failed
        case .reconnectGaveUp: .reconnectGaveUp
        case .recordingFailed: .recordingFailed
        }
    }

    /// The underlying error, if any.
    package var error: (any Error)? {
        switch self {
        case .stopRequested, .cancelled: nil
        case .failed(let error), .recordingFailed(let error): error
        case .reconnectGaveUp(_, let error): error
        }
    }
}

/// How a shoot's plan was asked for, as typed and resolved: the two readings and the planner's options, plus
/// `--link-shared`. Kept in the journal so every run of the shoot (`resume` too) writes the same manifest.
/// The recorded form of the bracket as asked; `SeriesRecord.Base` is its typed form, and ShootKit's
/// `ShootRecipe+Typed.swift` says why there are two and is the one crossing between them.
package struct ShootRecipe: Sendable, Hashable, Codable {
    /// The shadow reading, as a stop label (`1/4`).
    package var shadow: String
    /// The highlight reading, as a stop label (`1/1000`).
    package var highlight: String
    /// Frames per set.
    package var frames: Int
    /// EV between frames, as its label (`1`, `1.5`, `0.3`).
    package var spacing: String
    /// `third` or `half`.
    package var scale: String
    /// `fast-first` or `slow-first`.
    package var order: String
    /// `--dedupe`: the frame two neighbouring sets share is shot once, into the set that comes first.
    package var dedupe: Bool
    /// `--link-shared`: a shared frame is also hard-linked into the other set's folder.
    package var linkShared: Bool
    /// `--check extend`: how many sets the range check appended to the plan (at most
    /// `ShootRecipe.maximumExtensions`); nil before the first (and in journals written before the range check).
    package var extensions: Int?

    /// The most sets `--check extend` appends to one shoot: each is shot, checked, and extended again only while
    /// an end still lacks (the check's estimate of what is missing is deliberately simple).
    package static let maximumExtensions = 3

    /// Creates a recipe.
    package init(
        shadow: String, highlight: String, frames: Int, spacing: String, scale: String, order: String, dedupe: Bool,
        linkShared: Bool
    ) {
        self.shadow = shadow
        self.highlight = highlight
        self.frames = frames
        self.spacing = spacing
        self.scale = scale
        self.order = order
        self.dedupe = dedupe
        self.linkShared = linkShared
    }
}
