import Exposure
import Foundation

/// What a running series reports, in order, on `SeriesRunner.events`.
package enum SeriesEvent: Sendable {
    /// Waiting for `start`, `remaining` from now (reported when the wait begins and after a pause ends).
    case waiting(RepetitionSchedule.Start, remaining: Duration)
    /// Start times that passed while hdrshoot was away, skipped (`--skip-missed`); their numbers.
    case skipped([Int])
    /// A repetition starts; `plan` is what it shoots (shifted when the series shifts).
    case repetitionStarted(RepetitionSchedule.Start, plan: BracketPlan)
    /// An event of the repetition `repetition`'s bracket run.
    case shoot(repetition: Int, ShootEvent)
    /// A repetition's bracket run ended.
    case repetitionFinished(repetition: Int, ShootResult)
    /// A hold was added while waiting between repetitions (during a repetition its runner reports it).
    case paused(PauseReason)
    /// A hold was released while waiting between repetitions.
    case resumed(PauseReason)
    /// The series is over; the last event.
    case finished(SeriesResult)
}

/// How a series ended.
package struct SeriesResult: Sendable {
    /// Repetitions this run shot to the end, by number.
    package var completedRepetitions: [Int]
    /// The last repetition's result, when one ran.
    package var lastResult: ShootResult?
    /// Why the series stopped early, or `nil` when its schedule is done.
    package var stopReason: StopReason?
    /// The repetition to continue (not finished, or not started yet) when the series stopped early.
    package var resumeAt: RepetitionSchedule.Start?

    /// Whether every repetition of the schedule is done.
    package var isComplete: Bool { stopReason == nil }
}

/// What a `SeriesRunner` needs to shoot one repetition: its plan, where its frames go, its journal.
package struct SeriesRepetition: Sendable {
    /// The plan of this repetition (shifted when the series shifts).
    package var plan: BracketPlan
    /// Its folder (`<output>/rep-003`); frames go to `set-NN` below it.
    package var outputDirectory: URL
    /// The recorder of its frames (the series journal's recorder for this repetition).
    package var recorder: any ShootRecorder
    /// Where shooting starts (not `.start` when an interrupted repetition is continued).
    package var start: ShootPosition
    /// `--restart-set` for a continued repetition.
    package var restartingSet: Bool

    /// Creates a repetition.
    package init(
        plan: BracketPlan, outputDirectory: URL, recorder: any ShootRecorder,
        start: ShootPosition = .start, restartingSet: Bool = false
    ) {
        self.plan = plan
        self.outputDirectory = outputDirectory
        self.recorder = recorder
        self.start = start
        self.restartingSet = restartingSet
    }

    /// The folder name of repetition `number`: `rep-001`.
    package static func folderName(_ number: Int) -> String {
        let digits = String(number)
        return "rep-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }
}

/// Receives a series' durable milestones and supplies each repetition (the series journal implements it).
package protocol SeriesRecorder: Sendable {
    /// Repetition `start.number` starts now (`actual` after the first start): returns what it shoots and
    /// records that it started. A throw ends the series (`.recordingFailed`) before anything fires.
    func repetitionWillStart(_ start: RepetitionSchedule.Start, actual: Duration) async throws -> SeriesRepetition
    /// A repetition's bracket run ended (complete or not).
    func repetitionDidFinish(_ number: Int, result: ShootResult, endedAt: Duration) async
    /// Start times that passed are skipped.
    func repetitionsSkipped(_ numbers: [Int]) async
    /// The series ended; `next` is the start still to come when it stopped early.
    func seriesDidFinish(_ result: SeriesResult) async
}
