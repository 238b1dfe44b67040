import Exposure
import Shooting

extension SeriesRecord {
    /// The plan of repetition `number` (shifted, matched to the speeds the camera offers), `warnings` of the base
    /// plan kept with it. A repetition that cannot be planned is a blocker, said through `messages`.
    package func prepared(
        _ number: Int, offered: [ShutterSpeed], warnings: [String] = [], messages: any ShootMessages
    ) throws -> SeriesJournalRecorder.Prepared {
        do throws(ExposureError) {
            let planned = try base.plan(forRepetition: number, shift: shift, longest: longest)
            let matched = try SpeedMatcher.match(planned, offered: offered)
            let plan = BracketPlan(sets: matched.sets, warnings: warnings + planned.warnings + matched.warnings)
            return .init(plan: plan, substitutions: matched.substitutions)
        } catch {
            throw ShootPreparationError.blocked([
                .unplannable("repetition \(number): " + messages.message(for: error))
            ])
        }
    }
}

extension SeriesRecord {
    /// The repetitions a proposal looks at from `start`: all of a counted or timed series, the first 100 of one
    /// that runs until stopped.
    package func proposedNumbers(from start: RepetitionSchedule.Start) -> ClosedRange<Int> {
        let last = schedule.nominalCount ?? (start.number + 99)
        return start.number...max(start.number, last)
    }

    /// The plan of each repetition `proposedNumbers(from:)` names, on the speeds `offered`; the first that cannot
    /// be planned is a blocker.
    package func proposedPlans(
        from start: RepetitionSchedule.Start, offered: [ShutterSpeed], messages: any ShootMessages
    ) throws -> [SeriesJournalRecorder.Prepared] {
        try proposedNumbers(from: start).map { try prepared($0, offered: offered, messages: messages) }
    }
}
