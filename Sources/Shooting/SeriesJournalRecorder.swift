import Exposure
import Foundation

/// Keeps a series' journal current: the `SeriesRecorder` of a `SeriesRunner`.
///
/// Each repetition gets its own `JournalRecorder` on the same journal: before it starts, the journal's
/// top-level plan, frames and folder are set to the repetition's and a record of its start is added; when
/// its run ends, its frames are copied into its record and the shoot stays in progress while the schedule
/// has repetitions left. Every change is saved before the call that made it returns.
package actor SeriesJournalRecorder: SeriesRecorder {
    /// What the front end supplies for a new repetition: its plan (matched to the camera) and substitutions.
    package struct Prepared: Sendable {
        /// The plan as shot.
        package var plan: BracketPlan
        /// Planned speeds the camera lacks and what is shot instead.
        package var substitutions: [SpeedSubstitution]

        /// Creates a prepared repetition.
        package init(plan: BracketPlan, substitutions: [SpeedSubstitution] = []) {
            self.plan = plan
            self.substitutions = substitutions
        }
    }

    /// Plans repetition `number` (and creates its folder, `url`); a throw ends the series before it fires.
    package typealias Prepare = @Sendable (_ number: Int, _ url: URL) async throws -> Prepared

    /// The journal with every change so far.
    package private(set) var journal: ShootJournal
    private let store: JournalStore
    private let prepare: Prepare
    private let now: @Sendable () -> Date
    private let continuing: (position: ShootPosition, restartingSet: Bool)?
    private var current: JournalRecorder?

    /// Records into `journal` (which has a `series`, and is already in `store`). `continuing` is where the
    /// interrupted repetition of the journal resumes (for `resume`); `nil` starts each repetition afresh.
    package init(
        journal: ShootJournal, store: JournalStore, continuing: (position: ShootPosition, restartingSet: Bool)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }, prepare: @escaping Prepare
    ) {
        precondition(journal.series != nil, "a series journal has a series record")
        self.journal = journal
        self.store = store
        self.continuing = continuing
        self.now = now
        self.prepare = prepare
    }

    /// The journal as it stands, including the frames the repetition shooting now has saved.
    package var latest: ShootJournal {
        get async { await current?.journal ?? journal }
    }

    /// The journal as it stood when each repetition finished, kept until `journal(whenFinished:)` takes it.
    private var asFinished: [Int: ShootJournal] = [:]

    /// The journal as it stood when repetition `number` finished (its frames and state), taken once; nil when it
    /// has not finished or was taken. Watchers run behind the runner: by the time one handles a repetition's end,
    /// the next may have started after an overrun, and `latest` then holds the new repetition's frames.
    package func journal(whenFinished number: Int) -> ShootJournal? { asFinished.removeValue(forKey: number) }

    /// Sets the journal up for the repetition `start.number` (or continues the interrupted one) and saves it.
    package func repetitionWillStart(
        _ start: RepetitionSchedule.Start, actual: Duration
    ) async throws -> SeriesRepetition {
        guard var series = journal.series else { preconditionFailure("a series journal has a series record") }
        let time = series.date(at: actual)
        if let continuing, let last = series.repetitions.last, last.number == start.number,
            last.state == .shooting || last.state == .stopped
        {
            series.repetitions[series.repetitions.count - 1].state = .shooting
            journal.series = series
            try await save()
            return repetition(from: continuing.position, restartingSet: continuing.restartingSet)
        }
        let folder = URL(fileURLWithPath: series.rootDirectory, isDirectory: true)
            .appendingPathComponent(SeriesRepetition.folderName(start.number), isDirectory: true)
        let prepared = try await prepare(start.number, folder)
        series.repetitions.append(
            SeriesRecord.Repetition(
                number: start.number, scheduledOffsetMilliseconds: SeriesRecord.milliseconds(start.at),
                plannedStart: series.date(at: start.at), actualStart: time,
                actualOffsetMilliseconds: SeriesRecord.milliseconds(actual), endedAt: nil,
                timing: Self.name(start.timing),
                state: .shooting, outputDirectory: folder.path, plan: prepared.plan, frames: nil))
        journal.series = series
        journal.plan = prepared.plan
        journal.frames = prepared.plan.sets.map { Array(repeating: .pending, count: $0.count) }
        journal.substitutions = prepared.substitutions
        journal.outputDirectory = folder.path
        journal.status = .inProgress
        try await save()
        return repetition(from: .start, restartingSet: false)
    }

    /// Copies the repetition's frames into its record; the shoot stays in progress while repetitions are left.
    package func repetitionDidFinish(_ number: Int, result: ShootResult, endedAt: Duration) async {
        if let current { journal = await current.journal }
        current = nil
        guard var series = journal.series, let index = series.repetitions.lastIndex(where: { $0.number == number })
        else { return }
        series.repetitions[index].state = result.isComplete ? .done : .stopped
        series.repetitions[index].endedAt = series.date(at: endedAt)
        series.repetitions[index].frames = journal.frames
        journal.series = series
        if result.isComplete { journal.status = .inProgress }
        asFinished[number] = journal
        try? await save()
    }

    /// Adds a skipped record for each number.
    package func repetitionsSkipped(_ numbers: [Int]) async {
        guard var series = journal.series else { return }
        let schedule = series.schedule
        let last = series.repetitions.last.map { ($0.number, $0.start.at) }
        for number in numbers {
            // Skipped starts keep the original clock times: `every` apart after the last one recorded.
            let offset = last.map { $0.1 + schedule.every * (number - $0.0) } ?? schedule.nominalStart(of: number)
            series.repetitions.append(
                SeriesRecord.Repetition(
                    number: number, scheduledOffsetMilliseconds: SeriesRecord.milliseconds(offset),
                    plannedStart: series.date(at: offset), actualStart: nil, actualOffsetMilliseconds: nil,
                    endedAt: nil, timing: "skipped",
                    state: .skipped, outputDirectory: nil, plan: nil, frames: nil))
        }
        journal.series = series
        try? await save()
    }

    /// Marks the series complete, or stopped (resumable) with why.
    package func seriesDidFinish(_ result: SeriesResult) async {
        if let current { journal = await current.journal }
        current = nil
        if let reason = result.stopReason {
            journal.status = .stopped(reason.kind)
            if result.lastResult?.stopReason == nil {
                // Stopped while waiting: the repetition recorder did not log it.
                let detail = reason.error.map { String(describing: $0) }
                journal.log.append(.init(at: now(), event: .stopped(reason.kind, at: nil, detail: detail)))
            }
        } else {
            journal.series?.ended = true
            journal.status = .complete
        }
        try? await save()
    }

    // MARK: - Helpers

    private func repetition(from position: ShootPosition, restartingSet: Bool) -> SeriesRepetition {
        let recorder = JournalRecorder(journal: journal, store: store, now: now)
        current = recorder
        return SeriesRepetition(
            plan: journal.plan, outputDirectory: URL(fileURLWithPath: journal.outputDirectory, isDirectory: true),
            recorder: recorder, start: position, restartingSet: restartingSet)
    }

    private func save() async throws {
        let time = now()
        journal.updatedAt = time
        journal.revision += 1
        try await store.save(journal)
    }

    /// The stored name of a timing: `onTime`, `afterOverrun`, `late`.
    package static func name(_ timing: RepetitionSchedule.Timing) -> String {
        switch timing {
        case .onTime: "onTime"
        case .afterOverrun: "afterOverrun"
        case .late: "late"
        }
    }
}
