import Exposure
import Foundation

/// The durable record of one shoot: the plan, the camera, and the state of every frame.
///
/// Written by `JournalStore` (atomically) through `JournalRecorder` before each frame fires and after each
/// frame is saved, so `hdrshoot resume` and `hdrshoot status` know exactly what was shot, even after a
/// crash. Frames that were in flight when the process died are reshot and reported as possibly duplicated.
public struct ShootJournal: Sendable, Hashable, Codable {
    /// The file format this code writes; newer formats are refused rather than misread.
    public static let currentFormat = 1

    /// The format of this journal.
    public var format: Int
    /// The shoot's identifier and file name stem: `20261122-071502-3fa9` (UTC time of creation, random).
    public var id: String
    /// When the shoot was created.
    public var createdAt: Date
    /// When the journal was last changed.
    public var updatedAt: Date
    /// Increases with every save.
    public var revision: Int
    /// The plan as shot (speeds after substitution).
    public var plan: BracketPlan
    /// The camera the shoot runs on.
    public var camera: CameraIdentity
    /// Planned speeds the camera lacks and what is shot instead.
    public var substitutions: [Substitution]
    /// The shoot's output folder.
    public var outputDirectory: String
    /// The state of every frame, per set, in plan order.
    public var frames: [[FrameRecord]]
    /// Starts, pauses, resumes and stops, in order.
    public var log: [LogEntry]
    /// Where the shoot stands.
    public var status: Status

    /// A planned speed replaced by one the camera has.
    public struct Substitution: Sendable, Hashable, Codable {
        /// What the plan asked for.
        public var planned: ShutterSpeed
        /// What is shot instead.
        public var used: ShutterSpeed

        /// Creates a substitution.
        public init(planned: ShutterSpeed, used: ShutterSpeed) {
            self.planned = planned
            self.used = used
        }
    }

    /// One frame's record.
    public struct FrameRecord: Sendable, Hashable, Codable {
        /// Where the frame stands.
        public var state: FrameState
        /// How many times the frame was about to fire.
        public var attempts: Int
        /// True when an earlier attempt may have fired (crash or drop mid-frame): the card may hold it twice.
        public var possiblyDuplicated: Bool
        /// Images of earlier attempts: saved before a set was restarted with `--restart-set`, or recovered
        /// from the camera's buffer after an attempt was interrupted between the release and the download.
        public var earlierImages: [SavedImage]

        /// A frame not shot yet.
        public static let pending = FrameRecord(state: .pending, attempts: 0, possiblyDuplicated: false, earlierImages: [])
    }

    /// Where one frame stands.
    public enum FrameState: Sendable, Hashable, Codable {
        /// Not fired yet.
        case pending
        /// About to fire or firing since `since`; if the process dies now, the frame is reshot.
        case inFlight(since: Date)
        /// Saved at `at` as `images`.
        case done(images: [SavedImage], at: Date)
        /// The last attempt failed.
        case failed(FrameFailure)
    }

    /// Why a frame failed, as far as resume and status need to know.
    public struct FrameFailure: Sendable, Hashable, Codable {
        /// When.
        public var at: Date
        /// The error, for display (`String(describing:)`).
        public var detail: String
        /// The camera connection was lost.
        public var connectionLost: Bool
        /// The shutter may have been released.
        public var mayHaveFired: Bool

        /// Creates a failure record.
        public init(at: Date, detail: String, connectionLost: Bool, mayHaveFired: Bool) {
            self.at = at
            self.detail = detail
            self.connectionLost = connectionLost
            self.mayHaveFired = mayHaveFired
        }
    }

    /// One line of the run log.
    public struct LogEntry: Sendable, Hashable, Codable {
        /// When.
        public var at: Date
        /// What happened.
        public var event: LogEvent

        /// Creates an entry.
        public init(at: Date, event: LogEvent) {
            self.at = at
            self.event = event
        }
    }

    /// What the run log records.
    public enum LogEvent: Sendable, Hashable, Codable {
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
    public enum StopKind: String, Sendable, Hashable, Codable {
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
    public enum Status: Sendable, Hashable, Codable {
        /// A run is (or was, if the process died) shooting.
        case inProgress
        /// A run stopped early; `hdrshoot resume` continues.
        case stopped(StopKind)
        /// Every frame is saved.
        case complete
    }

    /// Creates the journal of a new shoot with every frame pending.
    public init(
        id: String? = nil,
        plan: BracketPlan,
        camera: CameraIdentity,
        substitutions: [Substitution] = [],
        outputDirectory: String,
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
    }

    /// A sortable identifier: UTC `yyyyMMdd-HHmmss` of `date` and 4 random hex digits.
    public static func makeID(at date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let text = String(value ?? 0); return text.count < 2 ? "0" + text : text }
        let random = String(UInt16.random(in: .min ... .max), radix: 16)
        let suffix = String(repeating: "0", count: 4 - random.count) + random
        return "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))-\(suffix)"
    }

    // MARK: - Derived state

    /// The record of the frame at `position` (which must be in the plan).
    public func frame(at position: ShootPosition) -> FrameRecord { frames[position.set - 1][position.frame - 1] }

    /// The first frame in plan order that is not saved: where `resume` starts; `nil` when all are saved.
    public var resumePosition: ShootPosition? {
        plan.positions.first { position in
            if case .done = frame(at: position).state { return false }
            return true
        }
    }

    /// Frames that may have fired without being recorded as saved (in flight at a crash, or failed after
    /// the shutter may have opened): reshot on resume and reported as possibly duplicated.
    public var interruptedFrames: [ShootPosition] {
        plan.positions.filter { position in
            switch frame(at: position).state {
            case .inFlight: true
            case .failed(let failure): failure.mayHaveFired
            case .pending, .done: false
            }
        }
    }

    /// How many frames are saved.
    public var savedCount: Int {
        frames.joined().filter { if case .done = $0.state { true } else { false } }.count
    }

    /// Whether the shoot still has frames to shoot.
    public var isUnfinished: Bool { status != .complete }

    /// Changes the record of the frame at `position`.
    public mutating func updateFrame(at position: ShootPosition, _ change: (inout FrameRecord) -> Void) {
        change(&frames[position.set - 1][position.frame - 1])
    }
}

extension StopReason {
    /// The stored kind of this reason.
    public var kind: ShootJournal.StopKind {
        switch self {
        case .stopRequested: .stopRequested
        case .cancelled: .cancelled
        case .failed: .failed
        case .reconnectGaveUp: .reconnectGaveUp
        case .recordingFailed: .recordingFailed
        }
    }

    /// The underlying error, if any.
    public var error: (any Error)? {
        switch self {
        case .stopRequested, .cancelled: nil
        case .failed(let error), .recordingFailed(let error): error
        case .reconnectGaveUp(_, let error): error
        }
    }
}
