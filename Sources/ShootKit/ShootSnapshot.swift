/// The states a shoot goes through, as watchers see them.
package enum ShootPhase: String, Sendable, Hashable, Codable, CaseIterable {
    /// Nothing asked yet.
    case idle
    /// Reaching and checking the camera.
    case connecting
    /// The plan matched to the camera waits for confirm or decline.
    case proposed
    /// A question waits for an answer (a missed series start: shoot late or skip).
    case asking
    /// Frames are being fired and downloaded.
    case shooting
    /// Between two repetitions of a series.
    case waiting
    /// Over: see the snapshot's `finished`.
    case finished
}

/// The whole state of a shoot at one moment: what a watcher attached mid-shoot needs to draw what the first
/// watcher sees. Built from the updates alone (`applying(_:)`), so every front end derives it the same way.
package struct ShootSnapshot: Sendable, Hashable, Codable {
    /// The version of the update schema (docs/json.md); bumped when a field changes meaning.
    package static let schemaVersion = 2

    /// The schema version these values follow.
    package var schema = ShootSnapshot.schemaVersion
    /// The controller's state.
    package var state: ShootPhase = .idle
    /// What was proposed (and, once confirmed, what is shot).
    package var summary: ShootUpdate.Summary?
    /// The question asked (state asking).
    package var question: Question?
    /// The plan of the current run.
    package var plan: ShootUpdate.Plan?
    /// How the current run started.
    package var started: ShootUpdate.Started?
    /// The latest frame progress.
    package var progress: ShootUpdate.Progress?
    /// The holds in force.
    package var holds: [ShootUpdate.Hold] = []
    /// Whether a stop was asked for.
    package var stopping = false
    /// How the shoot (or its last run) ended.
    package var finished: ShootUpdate.Finished?
    /// The wait for a series' next repetition, while waiting.
    package var waiting: ShootUpdate.Waiting?
    /// The series' repetitions done (a series).
    package var repetitionsDone: Int?
    /// The latest range verdicts, set ones and the bracket's, in order.
    package var rangeChecks: [ShootUpdate.RangeCheck] = []

    /// An idle shoot.
    package init() {}

    /// The snapshot after `update`.
    package func applying(_ update: ShootUpdate) -> ShootSnapshot {
        var next = self
        switch update {
        case .snapshot(let snapshot): return snapshot
        case .state(let change):
            next.state = change.state
            next.question = change.question
            if change.state == .shooting { next.finished = nil }
        case .summary(let summary): next.summary = summary
        case .plan(let plan): next.plan = plan
        case .started(let started):
            next.started = started
            next.finished = nil
        case .progress(let progress): next.progress = progress
        case .paused(let hold):
            next.holds.removeAll { $0.reason == hold.reason }
            next.holds.append(hold)
        case .resumed(let hold): next.holds.removeAll { $0.reason == hold.reason }
        case .rangeCheck(let check): next.rangeChecks.append(check)
        case .finished(let finished):
            next.finished = finished
            next.holds = []
        case .waiting(let waiting): next.waiting = waiting
        case .repetitionStarted:
            next.waiting = nil
            next.started = nil
            next.progress = nil
        case .repetitionFinished(let finished):
            if finished.complete { next.repetitionsDone = (next.repetitionsDone ?? 0) + 1 }
        case .seriesFinished(let finished):
            next.waiting = nil
            next.repetitionsDone = finished.repetitionsDone
        case .retrying, .note, .downloaded, .allFired, .reconnecting, .reconnectFailed, .reconnected:
            break
        }
        return next
    }
}

/// A question the shoot asks before going on, and the answers it takes.
package struct Question: Sendable, Hashable, Codable {
    /// The question as a person reads it.
    package var text: String
    /// The answers it takes, by name (`late`, `skip`).
    package var answers: [String]

    /// Creates a question.
    package init(text: String, answers: [String]) {
        self.text = text
        self.answers = answers
    }
}
