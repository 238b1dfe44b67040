import Exposure
import Shooting

extension ShootUpdate {
    /// The update of one runner event; `messages` give an error its sentence. Nil for an event a watcher is not
    /// shown (a limit learned that is only recorded in the session log).
    package init?(_ event: ShootEvent, messages: any ShootMessages) {
        switch event {
        case let .started(position, completed, total):
            self = .started(Started(set: position.set, frame: position.frame, completed: completed, total: total))
        case .progress(let progress):
            self = .progress(Progress(progress))
        case let .retrying(position, phase, attempt, delay, error):
            self = .retrying(
                Retrying(
                    set: position.set, frame: position.frame, phase: phase.rawValue, attempt: attempt,
                    delaySeconds: Self.seconds(delay), message: messages.message(for: error)))
        case .cameraNote(let text):
            self = .note(Note(message: text, from: "camera"))
        case let .fileDownloaded(fileName, bytes):
            self = .downloaded(Downloaded(file: fileName, bytes: bytes))
        case .allFired(let waiting):
            self = .allFired(AllFired(waiting: waiting))
        case .learned(let limit):
            guard let sentence = limit.sentence else { return nil }
            self = .note(Note(message: sentence, from: "camera"))
        case .paused(let reason):
            self = .paused(Hold(reason))
        case .resumed(let reason):
            self = .resumed(Hold(reason))
        case let .reconnecting(attempt, delay):
            self = .reconnecting(Reconnecting(attempt: attempt, delaySeconds: Self.seconds(delay)))
        case let .reconnectFailed(attempt, error):
            self = .reconnectFailed(
                ReconnectFailed(
                    attempt: attempt, message: messages.message(for: error), cause: messages.connectFailure(error)))
        case .reconnected(let attempt):
            self = .reconnected(Reconnected(attempt: attempt))
        case .finished(let result):
            self = .finished(Finished(result, messages: messages))
        }
    }

    /// A duration in seconds, as the JSON carries it.
    package static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

extension ShootUpdate.Plan {
    /// The update of a runner's plan.
    package init(_ plan: BracketPlan) {
        self.init(
            speeds: plan.sets.map { $0.map(\.label) }, exposureSeconds: plan.sets.map { $0.map(\.seconds) })
    }
}

extension ShootUpdate.Position {
    /// The position of a runner's `ShootPosition`.
    package init(_ position: ShootPosition) {
        self.init(set: position.set, frame: position.frame)
    }

    /// The runner's position.
    package var shootPosition: ShootPosition { ShootPosition(set: set, frame: frame) }
}

extension ShootUpdate.Progress {
    /// The update of a frame's progress.
    package init(_ progress: FrameProgress) {
        self.init(
            set: progress.position.set, frame: progress.position.frame, sets: progress.setCount,
            framesInSet: progress.framesInSet, speed: progress.speed.label, setting: progress.setting.description,
            phase: progress.phase.rawValue, completed: progress.completed, total: progress.total)
        fired = progress.fired
        inCamera = progress.inCamera
        if let saved = progress.saved {
            files = saved.images.map(\.path)
            if !saved.recoveredImages.isEmpty { recoveredFiles = saved.recoveredImages.map(\.path) }
            actualSpeed = saved.actualSpeed?.description
        }
    }

    /// The phase as the runner's type (nil for a phase this build does not know).
    package var framePhase: FramePhase? { FramePhase(rawValue: phase) }
}

extension ShootUpdate.Hold {
    /// The hold of a runner's pause reason.
    package init(_ reason: PauseReason) {
        self.init(reason: reason.kind.rawValue, detail: reason.detail)
    }

    /// The runner's pause reason (`other` for a kind this build does not know).
    package var pauseReason: PauseReason {
        PauseReason(PauseReason.Kind(rawValue: reason) ?? .other, detail: detail)
    }
}

extension ShootUpdate.Finished {
    /// How a run ended; `messages` give the stopping error its sentence.
    package init(_ result: ShootResult, messages: any ShootMessages) {
        self.init(
            complete: result.isComplete, completed: result.saved, total: result.total,
            capturedThisRun: result.savedThisRun,
            resumePosition: result.resumePosition.map(ShootUpdate.Position.init),
            stopReason: result.stopReason?.kind.rawValue, message: result.stopReason?.error.map(messages.message(for:)))
        fired = result.fired
        inCamera = result.inCamera
    }
}
