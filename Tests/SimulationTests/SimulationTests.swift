import Foundation
import Testing

/// Seeded field days of the whole stack (docs/simulation.md). A failing seed prints itself, the command that
/// replays it and the world's timeline.
@Suite struct SimulationTests {
    /// Seeds the quick campaign runs in the suite (`SIM_SEEDS` and `SIM_FIRST_SEED` override them).
    static var quickSeeds: ClosedRange<UInt64> {
        let count = ProcessInfo.processInfo.environment["SIM_SEEDS"].flatMap(UInt64.init) ?? 80
        let first = ProcessInfo.processInfo.environment["SIM_FIRST_SEED"].flatMap(UInt64.init) ?? 1
        return first...(first + max(1, count) - 1)
    }

    /// The promises hdrshoot does not keep yet on every seed (docs/simulation.md lists the seeds and what breaks):
    /// the quick campaign reports their violations as known issues; every other promise must hold on every seed.
    static let openPromises: Set<String> = [
        "shoot-finishes", "every-frame-saved", "no-refire-without-loss", "no-stray-files"
    ]

    /// One seed's field day: its violations and the report to print when there are any.
    static func day(_ seed: UInt64) async throws -> (violations: [Violation], report: String) {
        let world = try SimulationWorld(seed: seed)
        let violations = await world.run().map(Violation.init)
        if ProcessInfo.processInfo.environment["SIM_VERBOSE"] != nil {
            print("seed \(seed):\n\(world.day.description)\n\(world.body.timeline.joined(separator: "\n"))")
        }
        let report = """
            seed \(seed) broke \(violations.count) promise(s):
            \(violations.map { "  - " + $0.text }.joined(separator: "\n"))
            replay: SIM_SEED=\(seed) swift test --skip-build --filter SimulationTests/replaysOneSeed
            field day:
            \(world.day.description)
            timeline:
            \(world.body.timeline.joined(separator: "\n"))
            """
        return (violations, report)
    }

    @Test func aQuickCampaignOfSeededFieldDaysKeepsEveryPromise() async throws {
        let started = ContinuousClock.now
        var broken: [UInt64] = []
        var open: [String: [UInt64]] = [:]
        for seed in Self.quickSeeds {
            let (violations, report) = try await Self.day(seed)
            for name in Set(violations.map(\.name)) where Self.openPromises.contains(name) {
                open[name, default: []].append(seed)
            }
            if violations.contains(where: { !Self.openPromises.contains($0.name) }) {
                broken.append(seed)
                if broken.count <= 3 { Issue.record(Comment(rawValue: report)) }
            }
        }
        #expect(broken.isEmpty, "seeds that broke a promise hdrshoot keeps: \(broken)")
        for name in open.keys.sorted() {
            withKnownIssue("open promise \(name), broken by seeds \(open[name]!)", isIntermittent: true) {
                Issue.record("\(name): \(open[name]!.count) of \(Self.quickSeeds.count) seeds")
            }
        }
        // A figure printed for the long run (scripts/simulate), never asserted.
        let seconds =
            Double((ContinuousClock.now - started).components.seconds) + 1e-18
            * Double((ContinuousClock.now - started).components.attoseconds)
        let rate = Double(Self.quickSeeds.count) / max(seconds, 0.001)
        print(
            "simulation: \(Self.quickSeeds.count) seeds from \(Self.quickSeeds.lowerBound) in \(Int(seconds)) s "
                + "(\((rate * 100).rounded() / 100) seeds/s), broken: \(broken), open promises: "
                + "\(open.keys.sorted().map { "\($0) \(open[$0]!.count) \(open[$0]!.prefix(40))" }.joined(separator: ", "))"
        )
    }

    /// `SIM_SEED=N swift test --skip-build --filter SimulationTests/replaysOneSeed` replays seed N (1 by default),
    /// prints its timeline and fails on any broken promise, open ones included.
    @Test func replaysOneSeed() async throws {
        let seed = ProcessInfo.processInfo.environment["SIM_SEED"].flatMap(UInt64.init) ?? 1
        let (violations, report) = try await Self.day(seed)
        #expect(violations.isEmpty, Comment(rawValue: report))
    }
}

/// One broken promise: its invariant's name (before the colon) and the message.
struct Violation: Sendable {
    let name: String
    let text: String

    init(_ text: String) {
        self.text = text
        name = String(text.prefix { $0 != ":" })
    }
}
