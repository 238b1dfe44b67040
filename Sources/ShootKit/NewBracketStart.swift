import Exposure
import Foundation
import Shooting

/// `run`'s start: a fresh plan matched to the camera's own speeds (planned again on its range, so a speed it lacks
/// never shoots one exposure twice), then, once agreed, a new output folder and journal.
package struct NewBracketStart: ShootStart {
    /// The plan on the camera's speeds, with what matching substituted.
    package struct Matched {
        /// The plan as the camera will shoot it, the planner's notes among its warnings.
        package var plan: BracketPlan
        /// The matcher's result (its sets and substitutions).
        package var matched: MatchedPlan
    }

    /// The planner as the request configured it.
    package var planner: BracketPlanner
    /// The shadow reading (given, or found by `--auto`).
    package var shadow: ShutterSpeed
    /// The highlight reading.
    package var highlight: ShutterSpeed
    /// `--longest`.
    package var longest: ShutterSpeed
    /// Seconds per frame for the estimates.
    package var overhead: Double
    /// The planner's notes on the plan as asked, kept as the plan's warnings.
    package var notes: [String]
    /// `--auto`'s readings and probes.
    package var metering: AutoMetering.Outcome?
    /// The output folder (absolute).
    package var outputDirectory: String
    /// `--link-shared`.
    package var linkShared: Bool
    /// Where the journal goes.
    package var store: JournalStore
    /// How the front end makes the output folder.
    package var makeFolder: OutputFolderMaker

    /// A start of the bracket `planner` plans from `shadow` and `highlight`.
    package init(
        planner: BracketPlanner, shadow: ShutterSpeed, highlight: ShutterSpeed, longest: ShutterSpeed,
        overhead: Double, notes: [String], metering: AutoMetering.Outcome?, outputDirectory: String,
        linkShared: Bool, store: JournalStore, makeFolder: @escaping OutputFolderMaker
    ) {
        self.planner = planner
        self.shadow = shadow
        self.highlight = highlight
        self.longest = longest
        self.overhead = overhead
        self.notes = notes
        self.metering = metering
        self.outputDirectory = outputDirectory
        self.linkShared = linkShared
        self.store = store
        self.makeFolder = makeFolder
    }

    /// The speeds the plan as asked spans, its fastest to its slowest frame (beyond the readings when it
    /// brackets past them); nil when it cannot be planned (matching says why).
    package var shutterNeeds: ClosedRange<ShutterSpeed>? {
        guard let plan = try? planner.plan(shadow: shadow, highlight: highlight),
            let fastest = plan.sets.joined().min(), let slowest = plan.sets.joined().max()
        else { return nil }
        return fastest...slowest
    }

    /// The readings and planner settings as the journal and the manifest record them.
    package var recipe: ShootRecipe {
        ShootRecipe(
            SeriesRecord.Base(
                shadow: shadow, highlight: highlight, frames: planner.frames, spacing: planner.spacing,
                scale: planner.scale, dedupe: planner.dedupe, order: planner.order),
            linkShared: linkShared)
    }

    /// Plans again on the camera's range; the bulb frames of a body in S mode and what it does not offer are
    /// blockers.
    package func match(_ check: inout CameraCheck, messages: any ShootMessages) throws -> Matched {
        let matched: MatchedPlan
        do {
            matched = try SpeedMatcher.plan(
                planner, shadow: shadow, highlight: highlight, offered: check.offered,
                offersBulb: check.settings.contains(.bulb))
        } catch {
            throw ShootPreparationError.blocked([.unplannable(messages.message(for: error))])
        }
        let plan = BracketPlan(sets: matched.sets, warnings: notes + matched.warnings)
        if let bulb = ShootBlocker.bulbFrames(of: plan, settings: check.settings) {
            check.blockers.append(bulb)
        }
        check.blockers = check.blockers(shooting: plan)
        return Matched(plan: plan, matched: matched)
    }

    /// The summary the controller proposes (with `--json`, the first line), `--auto`'s readings in it.
    package func proposal(of matched: Matched, check: CameraCheck) -> ShootUpdate.Summary? {
        let plan = matched.plan
        var summary = ShootUpdate.Summary(
            exposures: plan.totalExposures, blockers: check.blockers, camera: check.cameraUpdate,
            output: outputDirectory)
        summary.sets = plan.sets.count
        summary.longestExposureSeconds = plan.longestExposure?.seconds ?? 0
        summary.estimatedSeconds = Self.rounded(plan.estimatedSeconds(overheadPerFrame: overhead))
        summary.speeds = plan.sets.map { $0.map(\.label) }
        summary.substitutions = matched.matched.substitutions.map {
            ShootUpdate.Substitution(planned: $0.planned.label, used: $0.used.label)
        }
        summary.warnings = plan.warnings
        if let metering {
            // `--auto`: the readings found, and how.
            summary.auto = ShootUpdate.AutoReadings(
                highlight: metering.result.highlight.label, shadow: metering.result.shadow.label,
                probes: metering.result.probes.count, converged: metering.result.converged,
                metered: metering.metered?.label)
        }
        return summary
    }

    /// `value` to two decimal places (the summary's estimate).
    private static func rounded(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }

    /// Makes the output folder and the new journal, and locks it; a state folder that cannot take the journal
    /// takes the folder made for it away again (nothing was shot).
    package func record(
        _ matched: Matched, camera: any CommandCamera, check: CameraCheck
    ) async throws -> (PreparedBracket, JournalLock?) {
        let madeOutput = try makeFolder(outputDirectory)
        let journal = ShootJournal(
            plan: matched.plan, camera: check.identity, substitutions: matched.matched.substitutions,
            outputDirectory: outputDirectory, recipe: recipe)
        let lock: JournalLock
        do throws(JournalError) {
            lock = try await store.lock(id: journal.id)
            try await store.create(journal)
        } catch {
            if madeOutput { OutputFolder.removeIfUnused(outputDirectory) }
            throw ShootPreparationError.cannotRecord(stateDirectory: store.directory.path, cause: error)
        }
        var planned: [ShootPosition: ShutterSpeed] = [:]
        for (set, frames) in matched.matched.sets.enumerated() {
            for frame in frames.indices {
                if let substitution = matched.matched.substitution(set: set, frame: frame) {
                    planned[ShootPosition(set: set + 1, frame: frame + 1)] = substitution.planned
                }
            }
        }
        var shoot = PreparedBracket(
            camera: camera, journal: journal, store: store, start: .start, restartingSet: false, planned: planned,
            actual: [:], overhead: overhead)
        shoot.removesUnusedOutput = madeOutput
        shoot.probes = metering?.records(relativeTo: outputDirectory) ?? []
        shoot.offered = OfferedSpeeds(check.offered, offersBulb: check.settings.contains(.bulb))
        shoot.longest = longest
        return (shoot, lock)
    }
}
