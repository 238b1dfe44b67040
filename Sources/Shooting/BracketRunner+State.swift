/// What a `BracketRunner` is doing, and everything it knows while it does it: the photographer's controls and
/// the run's progress travel with every state but the end (the `SeriesRunner` shape), so nothing sits in a
/// loose variable beside the state enum.
extension BracketRunner {
    /// What the runner is doing; every transition happens on the actor and is re-checked after each await.
    package enum State: Sendable {
        /// Created, `run` not called yet (a hold or a stop may come before it).
        case ready(Controls)
        /// Checking the camera before the first frame.
        case preparing(Controls, Progress)
        /// Setting the speed of, and firing, the frame at the position.
        case running(ShootPosition, Controls, Progress)
        /// Downloading the images waiting in the camera (the oldest frame still waiting for files, if any).
        case downloading(ShootPosition?, Controls, Progress)
        /// Parked before the frame at the position while holds are active.
        case paused(ShootPosition, Controls, Progress)
        /// Reconnecting before reshooting the frame at the position.
        case reconnecting(ShootPosition, attempt: Int, Controls, Progress)
        /// Over; the result says why.
        case finished(ShootResult)

        /// The controls of a run that is not over; nil once it is.
        var controls: Controls? {
            switch self {
            case .ready(let controls), .preparing(let controls, _), .running(_, let controls, _),
                .downloading(_, let controls, _), .paused(_, let controls, _), .reconnecting(_, _, let controls, _):
                controls
            case .finished: nil
            }
        }

        /// The progress of a run under way; nil before `run` and once it is over.
        var progress: Progress? {
            switch self {
            case .preparing(_, let progress), .running(_, _, let progress), .downloading(_, _, let progress),
                .paused(_, _, let progress), .reconnecting(_, _, _, let progress):
                progress
            case .ready, .finished: nil
            }
        }

        /// The same state with `controls` (the end keeps none).
        func with(_ controls: Controls) -> State {
            switch self {
            case .ready: .ready(controls)
            case .preparing(_, let progress): .preparing(controls, progress)
            case .running(let position, _, let progress): .running(position, controls, progress)
            case .downloading(let position, _, let progress): .downloading(position, controls, progress)
            case .paused(let position, _, let progress): .paused(position, controls, progress)
            case .reconnecting(let position, let attempt, _, let progress):
                .reconnecting(position, attempt: attempt, controls, progress)
            case .finished: self
            }
        }

        /// The same state with `progress` (states without progress keep none).
        func with(_ progress: Progress) -> State {
            switch self {
            case .ready, .finished: self
            case .preparing(let controls, _): .preparing(controls, progress)
            case .running(let position, let controls, _): .running(position, controls, progress)
            case .downloading(let position, let controls, _): .downloading(position, controls, progress)
            case .paused(let position, let controls, _): .paused(position, controls, progress)
            case .reconnecting(let position, let attempt, let controls, _):
                .reconnecting(position, attempt: attempt, controls, progress)
            }
        }
    }

    /// What the photographer asked of a run that is not over.
    package struct Controls: Sendable {
        /// The holds on, one per kind (keys, a signal, the network, the reconnect loop).
        package var holds: [PauseReason.Kind: PauseReason] = [:]
        /// Whether, and how, the run is to end.
        package var stop: StopRequest = .none
    }

    /// A stop asked of the run: none, one that fetches what waits in the camera first, or one that leaves it
    /// there (a second stop, or one during the downloads).
    package enum StopRequest: Sendable, Equatable {
        /// Shoot on.
        case none
        /// Fire no more frames, download what waits in the camera, then end (resumable).
        case afterDownloading
        /// End between two frames' files; what is left stays in the camera for `resume`.
        case leavingImagesInCamera

        /// Whether any stop was asked.
        var isRequested: Bool { self != .none }
    }

    /// Where a run under way stands: what is saved, what waits in the camera, what is still to fire.
    package struct Progress: Sendable {
        /// Frames of the plan saved (frames before the start position included).
        package var completed = 0
        /// Frames saved by this run.
        package var capturedThisRun = 0
        /// The frames fired whose images are not downloaded yet, and the rule that files what arrives.
        package var queue = DownloadQueue()
        /// The frames still to fire, in plan order (a frame whose image never arrived comes back here).
        package var toShoot: [ShootPosition] = []
        /// The release of the frame being fired, while one is under way.
        var release: ReleaseAttempt?
        /// Per frame: releases that ended in a dropped link, and confirmed releases whose image never arrived.
        var lostReleases: [ShootPosition: LostReleases] = [:]
        /// Images set apart as unmatched while downloading, by the frame whose folder they were fetched into;
        /// listed with that frame when it is saved.
        package var unmatchedByFrame: [ShootPosition: [SavedImage]] = [:]
        /// Notes already given (each is given once a run).
        package var notesGiven: Set<String> = []
        /// The camera setting of every remaining frame, as the last preparation resolved them.
        package var preparedSettings: [ShootPosition: CameraShutterSpeed] = [:]
        /// The shutter setting the camera last confirmed.
        package var lastSetting: CameraShutterSpeed?
        /// The captures the body holds, learned when it took no release while that many waited (the release's
        /// image never came): from then on only the room each release needs is fetched, not the whole buffer.
        package var learnedBufferCapacity: Int?
        /// The file fetched behind the release under way while it showed no sign of firing (nil: none started).
        var fetchedBehind: FetchBehind?
        /// Frames released without evidence while images waited, with how many waited: a frame among them whose
        /// image does not come teaches the buffer size.
        var refusedWhileHolding: [ShootPosition: Int] = [:]
        /// Learned when the body did not take a speed change while images waited: from then on what waits is
        /// fetched before each change, instead of a timeout per frame.
        package var fetchesBeforeSpeedChange = false
        /// Learned when the body refused a release (busy) while images waited: from then on what waits is
        /// fetched before each release.
        package var fetchesBeforeRelease = false

        /// The frames fired whose images have not started to arrive (what the body still holds of them).
        var framesInCamera: Int { queue.waiting.lazy.filter { $0.images.isEmpty }.count }
    }
}

/// A file fetched behind a release while it showed no sign of firing (the room a full buffer needs).
struct FetchBehind: Sendable {
    /// The files fetched (0 or 1).
    var files = 0
    /// Why the fetch failed, when it did: thrown once the release is settled.
    var failure: (any Error)?
}
