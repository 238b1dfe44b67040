import Exposure

/// A frame's place in the plan: set and frame, both counted from 1 (as shown to the photographer).
package struct ShootPosition: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The set, from 1.
    package var set: Int
    /// The frame within its set, from 1.
    package var frame: Int

    /// Creates a position; both numbers count from 1.
    package init(set: Int, frame: Int) {
        self.set = set
        self.frame = frame
    }

    /// The first frame of the first set.
    package static let start = ShootPosition(set: 1, frame: 1)

    /// Plan order.
    package static func < (lhs: ShootPosition, rhs: ShootPosition) -> Bool {
        (lhs.set, lhs.frame) < (rhs.set, rhs.frame)
    }

    /// `set 2, frame 3`.
    package var description: String { "set \(set), frame \(frame)" }
}

extension BracketPlan {
    /// Every frame position in shooting order.
    package var positions: [ShootPosition] {
        sets.enumerated().flatMap { set in
            set.element.indices.map { ShootPosition(set: set.offset + 1, frame: $0 + 1) }
        }
    }

    /// The planned speed at `position`, or `nil` outside the plan.
    package func speed(at position: ShootPosition) -> ShutterSpeed? {
        guard sets.indices.contains(position.set - 1) else { return nil }
        let set = sets[position.set - 1]
        return set.indices.contains(position.frame - 1) ? set[position.frame - 1] : nil
    }

    /// How many frames come before `position` in plan order.
    package func framesBefore(_ position: ShootPosition) -> Int {
        sets.prefix(position.set - 1).reduce(0) { $0 + $1.count } + (position.frame - 1)
    }
}

/// The step a frame is in.
package enum FramePhase: String, Sendable, Hashable, Codable {
    /// Setting the shutter speed and waiting for the camera to confirm it.
    case settingSpeed
    /// Firing the shutter and waiting for the body to confirm the release.
    case capturing
    /// Fired: the body confirmed the release, and the image waits in its buffer to be downloaded.
    case inCamera
    /// Downloading the frame's files from the body's buffer.
    case downloading
    /// The frame is saved and counted.
    case saved
}

/// One step of one frame, with the counts a progress line needs.
package struct FrameProgress: Sendable, Hashable {
    /// Which frame.
    package var position: ShootPosition
    /// How many sets the plan has.
    package var setCount: Int
    /// How many frames this frame's set has.
    package var framesInSet: Int
    /// The planned speed.
    package var speed: ShutterSpeed
    /// The camera setting used for it (the same speed, or BULB).
    package var setting: CameraShutterSpeed
    /// The step the frame has reached.
    package var phase: FramePhase
    /// Frames of the plan saved so far (frames before the start position count as saved).
    package var completed: Int
    /// Frames in the plan.
    package var total: Int
    /// What was saved, in the `.saved` phase.
    package var saved: CapturedFrame?
    /// Frames fired whose images still wait in the camera to be downloaded (not counted in `completed`).
    package var inCamera: Int = 0

    /// Frames of the plan fired: the saved ones and those still in the camera.
    package var fired: Int { completed + inCamera }
}

/// Why shooting is held; several holds can be active at once and shooting continues when none is left.
package struct PauseReason: Sendable, Hashable, Codable {
    /// Who holds the pause; `resume(_:)` releases the hold of one kind.
    package enum Kind: String, Sendable, Hashable, Codable {
        /// The photographer (keyboard).
        case user
        /// The host lost the camera's network (network monitor).
        case network
        /// The camera connection dropped; the runner is reconnecting.
        case connection
        /// Anything else a front end wants to hold shooting for.
        case other
    }

    /// Who holds the pause.
    package var kind: Kind
    /// Context for the message (an SSID, an interface name); never needed for logic.
    package var detail: String?

    /// Creates a reason.
    package init(_ kind: Kind, detail: String? = nil) {
        self.kind = kind
        self.detail = detail
    }
}

/// Why a run ended before the last frame.
package enum StopReason: Sendable {
    /// `stop()` was called; the frame in flight was finished first.
    case stopRequested
    /// The task running the shoot was cancelled; a frame in flight was abandoned.
    case cancelled
    /// An error stopped the run (preflight, a permanent camera error, busy retries exhausted, a timeout).
    case failed(any Error)
    /// Auto-reconnect gave up after `attempts` attempts; `lastError` is the last connect failure.
    case reconnectGaveUp(attempts: Int, lastError: (any Error)?)
    /// The recorder (journal) could not store a frame; the run stops rather than shoot untracked.
    case recordingFailed(any Error)
}

/// How a run ended: always with the counts and, when not complete, where to resume and why.
package struct ShootResult: Sendable {
    /// Frames of the plan saved (frames before the start position count as saved).
    package var saved: Int
    /// Frames in the plan.
    package var total: Int
    /// Frames saved by this run.
    package var savedThisRun: Int
    /// The first frame not saved, or `nil` when the plan is complete.
    package var resumePosition: ShootPosition?
    /// Why the run stopped early, or `nil` when the plan is complete.
    package var stopReason: StopReason?
    /// Frames fired whose images were left in the camera (a stop during the downloads): `resume` downloads
    /// them first.
    package var inCamera: Int = 0

    /// Frames of the plan fired: the saved ones and those left in the camera.
    package var fired: Int { saved + inCamera }

    /// Whether every frame of the plan is saved.
    package var isComplete: Bool { stopReason == nil }
}

/// What a running shoot reports, in order, on `BracketRunner.events`.
package enum ShootEvent: Sendable {
    /// The run checked the camera and starts at `position` with `completed` of `total` frames already saved.
    case started(position: ShootPosition, completed: Int, total: Int)
    /// A frame reached a phase.
    case progress(FrameProgress)
    /// A transient error; the step is tried again (attempt `attempt`) after `delay`.
    case retrying(position: ShootPosition, phase: FramePhase, attempt: Int, delay: Duration, error: any Error)
    /// A hold was added; shooting parks before the next frame.
    case paused(PauseReason)
    /// A hold was released; shooting continues when no hold is left.
    case resumed(PauseReason)
    /// Reconnect attempt `attempt` starts after `delay`.
    case reconnecting(attempt: Int, delay: Duration)
    /// Reconnect attempt `attempt` failed.
    case reconnectFailed(attempt: Int, error: any Error)
    /// The camera is back (mode and speeds re-checked); the frame that did not finish is shot again.
    case reconnected(attempt: Int)
    /// The run is over; the last event.
    case finished(ShootResult)
    /// Something the camera had to say (a fallback it took, a warning); shown once.
    case cameraNote(String)
    /// A file crossed the link and is written (`bytes` long); the download counts and rates come from these.
    case fileDownloaded(fileName: String, bytes: Int)
    /// Every frame of the plan has fired; `waiting` of them still have images in the camera to download.
    case allFired(waiting: Int)
    /// A limit of the body was learned (or recalled from an earlier shoot of it), as a typed record.
    case learned(LearnedLimit)
}
