import Foundation
import Shooting

/// Where a resumed series starts: the interrupted repetition first, then the schedule; start times that passed
/// while hdrshoot was away are shot now (late) or skipped, as the photographer answers the controller's question.
package struct SeriesResumption: Sendable {
    /// What happened to the schedule while hdrshoot was away, for the summary's note.
    package enum Missed: Sendable, Equatable {
        /// Nothing: the next start is still ahead.
        case none
        /// The last repetition was interrupted: it continues now from `position`.
        case interrupted(repetition: Int, position: ShootPosition)
        /// Start times passed (`missed`): repetition `start` is shot now, `late` after its time, and the schedule
        /// continues after it.
        case shotLate(missed: [Int], late: Duration)
        /// Start times passed (`missed`) and are skipped (`--skip-missed`, or the answer `skip`): the schedule
        /// keeps its clock times.
        case skipped(missed: [Int])
    }

    /// The series journal, its last repetition settled (a repetition whose every frame is saved is done).
    package var journal: ShootJournal
    /// The repetition to start with.
    package var start: RepetitionSchedule.Start
    /// Repetitions skipped.
    package var skipping: [Int] = []
    /// The interrupted repetition's frame to continue from, and `--restart-set`.
    package var continuing: SeriesContinuation?
    /// What was missed.
    package var missed: Missed = .none
}

/// An interrupted repetition's frame to continue from.
package struct SeriesContinuation: Sendable, Equatable {
    /// The first frame not saved (the set's first with `--restart-set`).
    package var position: ShootPosition
    /// `--restart-set`: the interrupted set is shot again from its first frame.
    package var restartingSet: Bool

    /// A continuation from `position`.
    package init(position: ShootPosition, restartingSet: Bool) {
        self.position = position
        self.restartingSet = restartingSet
    }
}

/// What `resume` of a series comes to.
package enum SeriesResumeDecision: Sendable {
    /// Shoot from there.
    case resume(SeriesResumption)
    /// Nothing is left to shoot (the journal is to be marked ended, `SeriesResumption.markEnded`).
    case nothingLeft(SeriesEndReason, journal: ShootJournal)
    /// The question was not answered (stopped, or an answer it does not take): nothing is shot.
    case declined
}

/// Why a series has nothing left to shoot.
package enum SeriesEndReason: String, Sendable, Equatable, Codable {
    /// Every repetition is done.
    case allDone
    /// The `--until` time has passed.
    case untilPassed
    /// Every remaining start time has passed (skipping missed starts).
    case everyStartPassed

    /// The reason as a person reads it (after "Nothing left to shoot: ").
    package var sentence: String {
        switch self {
        case .allDone: "every repetition of the series is done"
        case .untilPassed: "the series' --until time has passed"
        case .everyStartPassed: "every remaining start time has passed"
        }
    }

    /// `Nothing left to shoot: every repetition of the series is done.`: what `resume` says, and all it says.
    package var nothingLeftSentence: String { "Nothing left to shoot: \(sentence)." }
}

extension SeriesResumption {
    /// The answer that shoots a repetition whose start passed now (late), the schedule continuing after it.
    package static let shootLate = "late"
    /// The answer that skips the passed starts and keeps the clock times (`--skip-missed`).
    package static let skipMissed = "skip"

    /// The question a missed start asks: `missed` passed while hdrshoot was away, `start` is the first of them.
    package static func missedStartQuestion(missed: [Int], start: RepetitionSchedule.Start) -> Question {
        let numbers = missed.map(String.init).joined(separator: ", ")
        return Question(
            text: "Start times passed while hdrshoot was away (repetition(s) \(numbers)). Shoot repetition "
                + "\(start.number) now and continue the schedule after it [n], or skip to the schedule [s]? ",
            answers: [shootLate, skipMissed])
    }

    /// The summary's notes on what the resume point continues, skips or shoots late (none when the next start is
    /// still ahead), as the terminal prints them after its first line and the page can show them.
    package var notes: [String] {
        guard let record = journal.series else { preconditionFailure("the notes of a series' resume point") }
        switch missed {
        case .none:
            return []
        case .interrupted(let number, let position):
            return ["Repetition \(number) was interrupted: it continues now from \(position)."]
        case .skipped(let missed):
            return [
                "Start times passed while hdrshoot was away: repetition(s) \(missed.map(String.init).joined(separator: ", ")) "
                    + "skipped (--skip-missed); next: repetition \(start.number) at "
                    + "\(ShootWords.clockTime(record.date(at: start.at)))."
            ]
        case .shotLate(let missed, let late):
            return [
                "Start times passed while hdrshoot was away (repetition(s) \(missed.map(String.init).joined(separator: ", "))): "
                    + "repetition \(start.number) is shot now, \(ShootWords.duration(late)) late, and the schedule "
                    + "continues every \(ShootWords.duration(record.schedule.every)) after it; pass --skip-missed to keep the "
                    + "clock times instead."
            ]
        }
    }

    /// `journal` (a series) marked ended and complete at `now`, so the next `resume` does not find it again.
    package static func markEnded(_ journal: ShootJournal, in store: JournalStore, at now: Date) async throws {
        var journal = journal
        journal.series?.ended = true
        journal.status = .complete
        journal.revision += 1
        journal.updatedAt = now
        try await store.save(journal)
    }
}

extension ShootController {
    /// Decides where the series of `journal` resumes at schedule offset `now`: the interrupted repetition first
    /// (`restartSet` shoots its set again from the first frame), then the schedule. Start times that passed are
    /// skipped with `skipMissed`; else, when `mayAsk`, the controller asks (state asking, answers `late` and
    /// `skip`) and waits for `answer(_:)`, `asked` running once the question is posed (a terminal prints it and
    /// reads the reply); without either, the first passed start is shot now, late.
    package func resumePoint(
        of journal: ShootJournal, now: Duration, restartSet: Bool, skipMissed: Bool, mayAsk: Bool,
        asked: @escaping @Sendable (Question) async -> Void = { _ in }
    ) async -> SeriesResumeDecision {
        guard var record = journal.series else { preconditionFailure("the resume point of a series journal") }
        var journal = journal
        if let last = record.repetitions.indices.last,
            record.repetitions[last].state == .shooting || record.repetitions[last].state == .stopped,
            journal.resumePosition == nil
        {
            // Every frame of the last repetition is saved (the process died before it was marked done).
            record.repetitions[last].state = .done
            record.repetitions[last].endedAt = journal.updatedAt
            record.repetitions[last].frames = journal.frames
            journal.series = record
        }
        guard let next = record.continuation() else { return .nothingLeft(.allDone, journal: journal) }
        let schedule = record.schedule
        if next.continuing {
            let position = journal.resumePosition ?? .start
            guard let late = schedule.held(next.start, until: now) else {
                return .nothingLeft(.untilPassed, journal: journal)
            }
            let from = restartSet ? ShootPosition(set: position.set, frame: 1) : position
            return .resume(
                SeriesResumption(
                    journal: journal, start: late,
                    continuing: SeriesContinuation(position: from, restartingSet: restartSet),
                    missed: .interrupted(repetition: late.number, position: position)))
        }
        guard next.start.at < now else { return .resume(SeriesResumption(journal: journal, start: next.start)) }
        let missed = schedule.skippingMissed(from: next.start, now: now)
        var skipping = skipMissed
        if !skipMissed && mayAsk {
            // Never shot late without asking: the question waits for a front end's answer.
            guard pose(SeriesResumption.missedStartQuestion(missed: missed.skipped, start: next.start)) else {
                return .declined
            }
            if case .asking(let question, _, _) = state { await asked(question) }
            guard let answer = await answered() else { return .declined }
            skipping = answer == SeriesResumption.skipMissed
        }
        if skipping {
            guard let upcoming = missed.next else { return .nothingLeft(.everyStartPassed, journal: journal) }
            return .resume(
                SeriesResumption(
                    journal: journal, start: upcoming, skipping: missed.skipped,
                    missed: .skipped(missed: missed.skipped)))
        }
        guard let late = schedule.held(next.start, until: now) else {
            return .nothingLeft(.untilPassed, journal: journal)
        }
        return .resume(
            SeriesResumption(
                journal: journal, start: late, missed: .shotLate(missed: missed.skipped, late: now - next.start.at)))
    }
}
