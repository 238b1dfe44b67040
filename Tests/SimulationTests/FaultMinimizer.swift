/// Shrinks a failing seed's faults to the fewest that still break a promise (issue 37's minimizer).
///
/// The world is exact (docs/simulation.md), so a seed with some of its faults taken away is a day of its own that
/// replays exactly too. The minimizer takes faults away one at a time, greedily, and keeps each removal after which
/// the day still breaks one of the promises the full day broke: the process kills and the photographer's controls
/// (taken out of the day), and the body's drawn faults (busy answers, drops, vanished images: skipped by their
/// ordinal, `NetworkFaults.skipped`). It goes round until no single removal keeps the failure, so every fault left
/// is needed (removing any one of them lets the day keep every promise it broke).
struct FaultMinimizer {
    /// A day with some of its faults taken away.
    struct Schedule: Sendable, CustomStringConvertible {
        var seed: UInt64
        var day: FieldDay
        var breakage: SimulationWorld.DeliberateBreak?

        /// The day's world.
        func world() throws -> SimulationWorld {
            try SimulationWorld(seed: seed, day: day, breakage: breakage)
        }

        /// The command that replays this schedule (`SimulationTests.replaysOneSeed` reads the same variables).
        var description: String {
            var variables = ["SIM_SEED=\(seed)"]
            if let breakage { variables.append("SIM_BREAK=\(breakage.rawValue)") }
            let full = FieldDay(seed: seed)
            let kills = full.crashes.indices.filter { !day.crashes.contains(full.crashes[$0]) }
            if !kills.isEmpty { variables.append("SIM_SKIP_KILLS=\(kills.map(String.init).joined(separator: ","))") }
            let controls = full.controls.indices.filter { index in
                !day.controls.contains { $0.at == full.controls[index].at }
            }
            if !controls.isEmpty {
                variables.append("SIM_SKIP_CONTROLS=\(controls.map(String.init).joined(separator: ","))")
            }
            if !day.faults.skipped.isEmpty {
                variables.append(
                    "SIM_SKIP_FAULTS=\(day.faults.skipped.sorted().map(String.init).joined(separator: ","))")
            }
            return variables.joined(separator: " ") + " swift test --skip-build --filter SimulationTests/replaysOneSeed"
        }

        /// The seed's day with the faults the `SIM_SKIP_*` variables name taken away (all of it when none is set).
        static func fromEnvironment(seed: UInt64, _ environment: [String: String]) -> FieldDay {
            func indices(_ name: String) -> Set<Int> {
                Set((environment[name] ?? "").split(separator: ",").compactMap { Int($0) })
            }
            var day = FieldDay(seed: seed)
            let kills = indices("SIM_SKIP_KILLS")
            day.crashes = day.crashes.indices.filter { !kills.contains($0) }.map { day.crashes[$0] }
            let controls = indices("SIM_SKIP_CONTROLS")
            day.controls = day.controls.indices.filter { !controls.contains($0) }.map { day.controls[$0] }
            day.faults.skipped = indices("SIM_SKIP_FAULTS")
            return day
        }
    }

    /// What the minimizer found: the smallest schedule, the promises it breaks, the faults it still injects, and
    /// how many days it ran.
    struct Result: Sendable {
        var schedule: Schedule
        var violations: [String]
        var faultsLeft: Int
        var faultsAtFirst: Int
        var daysRun: Int
    }

    /// Minimizes `seed`'s faults (with `breakage`, a deliberately broken world); nil when the full day keeps every
    /// promise (nothing to shrink).
    static func minimize(
        seed: UInt64, breakage: SimulationWorld.DeliberateBreak? = SimulationWorld.deliberateBreak
    ) async throws -> Result? {
        var schedule = Schedule(seed: seed, day: FieldDay(seed: seed), breakage: breakage)
        var daysRun = 0
        func run(_ candidate: Schedule) async throws -> (violations: [String], faults: Int, drawn: Int) {
            daysRun += 1
            let world = try candidate.world()
            let violations = await world.run()
            return (violations, world.faultsInjected, world.body.faultsDrawn)
        }
        let first = try await run(schedule)
        guard !first.violations.isEmpty else { return nil }
        let broken = Set(first.violations.map { Violation($0).name })
        func stillFails(_ candidate: Schedule) async throws -> Bool {
            try await run(candidate).violations.contains { broken.contains(Violation($0).name) }
        }
        var changed = true
        while changed {
            changed = false
            for index in schedule.day.crashes.indices.reversed() {
                var candidate = schedule
                candidate.day.crashes.remove(at: index)
                if try await stillFails(candidate) {
                    schedule = candidate
                    changed = true
                }
            }
            for index in schedule.day.controls.indices.reversed() {
                var candidate = schedule
                candidate.day.controls.remove(at: index)
                if try await stillFails(candidate) {
                    schedule = candidate
                    changed = true
                }
            }
            let drawn = try await run(schedule).drawn
            for ordinal in 0..<drawn where !schedule.day.faults.skipped.contains(ordinal) {
                var candidate = schedule
                candidate.day.faults.skipped.insert(ordinal)
                if try await stillFails(candidate) {
                    schedule = candidate
                    changed = true
                }
            }
        }
        let last = try await run(schedule)
        return Result(
            schedule: schedule, violations: last.violations, faultsLeft: last.faults, faultsAtFirst: first.faults,
            daysRun: daysRun)
    }
}
