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
