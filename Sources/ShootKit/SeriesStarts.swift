import Exposure
import Shooting

/// A series ready to hand to its shoot once the journal step is done: the camera, the journal in the store, and
/// where the schedule starts.
package struct SeriesLaunch: Sendable {
    /// The connected camera.
    package var camera: any CommandCamera
    /// The series journal, already in the store.
    package var journal: ShootJournal
    /// Where the journal is saved.
    package var store: JournalStore
    /// The timed speeds the camera offers (each repetition's plan is matched to them).
    package var offered: [ShutterSpeed]
    /// Warnings of the base plan, kept with each repetition's plan.
    package var planWarnings: [String]
    /// Seconds per frame for the first time-left estimate.
    package var overhead: Double
    /// The repetition to start with.
    package var start: RepetitionSchedule.Start
    /// Repetitions skipped before it (`--skip-missed`).
    package var skipping: [Int] = []
    /// The interrupted repetition's frame to continue from, and `--restart-set`.
    package var continuing: SeriesContinuation? = nil
}

/// `run --every`'s start: the first repetition's plan (and the schedule's, for the proposal) matched to the camera;
/// once agreed, the output root and the series journal, whose schedule counts from the moment of the yes.
package struct NewSeriesStart: ShootStart {
    /// The series record and the plans matched to the body.
    package struct Matched {
        /// The series as proposed (its first start is reset to the yes when recorded).
        package var record: SeriesRecord
        /// The first repetition's plan, the base plan's warnings kept with it.
        package var first: SeriesJournalRecorder.Prepared
        /// The plans of the repetitions the proposal looks at (`SeriesRecord.proposedNumbers`).
        package var plans: [SeriesJournalRecorder.Prepared]
    }

    /// `--every`, the end, `--shift`.
    package var settings: SeriesRequest
    /// The base bracket.
    package var base: SeriesRecord.Base
    /// `--longest`, when given.
    package var longest: ShutterSpeed?
    /// The output root (one folder per repetition below it).
    package var root: String
    /// Seconds per frame for the estimates.
    package var overhead: Double
    /// Warnings of the base plan.
    package var warnings: [String]
    /// The time of day the schedule starts from.
    package var wallClock: WallClock
    /// Where the journal goes.
    package var store: JournalStore
    /// How the front end makes the output root.
    package var makeFolder: OutputFolderMaker

    /// A start of the series `settings` repeating `base` into `root`.
    package init(
        settings: SeriesRequest, base: SeriesRecord.Base, longest: ShutterSpeed?, root: String, overhead: Double,
        warnings: [String], wallClock: WallClock, store: JournalStore, makeFolder: @escaping OutputFolderMaker
    ) {
        self.settings = settings
        self.base = base
        self.longest = longest
        self.root = root
        self.overhead = overhead
        self.warnings = warnings
        self.wallClock = wallClock
        self.store = store
        self.makeFolder = makeFolder
    }

    /// The start `ShootRequest.series(bracket, schedule:)` asks for: `bracket`'s given readings repeated on
    /// `schedule`, every repetition planned as `planner` plans (it holds the bracket's frames and spacing, the scale,
    /// dedupe and order); `longest` (`--longest` when given) caps a shifted plan, the scale's longest speed
    /// otherwise. A series' readings are given: front ends refuse a metered one (`--auto` with `--every`).
    package init(
        _ bracket: BracketRequest, schedule: SeriesRequest, planner: BracketPlanner, longest: ShutterSpeed?,
        root: String, overhead: Double, warnings: [String], wallClock: WallClock, store: JournalStore,
        makeFolder: @escaping OutputFolderMaker
    ) {
        guard let shadow = bracket.shadow, let highlight = bracket.highlight else {
            preconditionFailure("a series repeats a bracket of given readings")
        }
        let base = SeriesRecord.Base(
            shadow: shadow.speed, highlight: highlight.speed, frames: planner.frames, spacing: planner.spacing,
            scale: planner.scale, dedupe: planner.dedupe, order: planner.order)
        self.init(
            settings: schedule, base: base, longest: longest, root: root, overhead: overhead, warnings: warnings,
            wallClock: wallClock, store: store, makeFolder: makeFolder)
    }

    /// The series record and its repetitions' plans on the camera's speeds.
    package func match(_ check: inout CameraCheck, messages: any ShootMessages) throws -> Matched {
        let record = SeriesRecord(
            every: settings.every, end: settings.end, firstStart: wallClock.now(), shift: settings.shift,
            longest: longest, base: base, rootDirectory: root)
        let first = try record.prepared(1, offered: check.offered, warnings: warnings, messages: messages)
        let plans = try record.proposedPlans(from: record.schedule.first, offered: check.offered, messages: messages)
        return Matched(record: record, first: first, plans: plans)
    }

    /// Makes the output root and the series journal, and locks it.
    package func record(
        _ matched: Matched, camera: any CommandCamera, check: CameraCheck
    ) async throws -> (SeriesLaunch, JournalLock?) {
        _ = try makeFolder(root)
        let (journal, lock) = try await SeriesShoot.record(
            matched.record, first: matched.first, camera: check.identity, store: store, now: wallClock.now())
        let launch = SeriesLaunch(
            camera: camera, journal: journal, store: store, offered: check.offered, planWarnings: warnings,
            overhead: overhead, start: matched.record.schedule.first)
        return (launch, lock)
    }
}

/// A series' `resume`: the schedule from the resume point (`ShootController.resumePoint`) checked against the
/// camera; the journal (locked before it was read) follows the camera used.
package struct ResumedSeriesStart: ShootStart {
    /// Where the series resumes, with its journal (read under its lock).
    package var resumption: SeriesResumption
    /// Whether `--camera` was given: the journal then follows the camera actually used.
    package var followsCamera: Bool
    /// Where the journal is saved.
    package var store: JournalStore

    /// A resume of the series at `resumption`.
    package init(resumption: SeriesResumption, followsCamera: Bool, store: JournalStore) {
        self.resumption = resumption
        self.followsCamera = followsCamera
        self.store = store
    }

    /// The plans of the repetitions from the resume point on the camera's speeds.
    package func match(
        _ check: inout CameraCheck, messages: any ShootMessages
    ) throws -> [SeriesJournalRecorder.Prepared] {
        guard let record = resumption.journal.series else { preconditionFailure("a series journal") }
        return try record.proposedPlans(from: resumption.start, offered: check.offered, messages: messages)
    }

    /// The journal (already locked) with the camera used.
    package func record(
        _ matched: [SeriesJournalRecorder.Prepared], camera: any CommandCamera, check: CameraCheck
    ) async throws -> (SeriesLaunch, JournalLock?) {
        var journal = resumption.journal
        if followsCamera { journal.camera.address = check.identity.address }
        let launch = SeriesLaunch(
            camera: camera, journal: journal, store: store, offered: check.offered, planWarnings: [],
            overhead: BracketPlan.defaultOverheadPerFrame, start: resumption.start, skipping: resumption.skipping,
            continuing: resumption.continuing)
        return (launch, nil)
    }
}

/// What a series' `resume` comes to once the controller has decided where it resumes.
package enum SeriesResumeStart: Sendable {
    /// Shoot from the resume point.
    case start(ResumedSeriesStart)
    /// Nothing is left to shoot, and why; the journal was marked ended, so the next `resume` does not find it.
    case nothingLeft(SeriesEndReason)
}

extension ShootController {
    /// The start of the series of `journal` (locked by the caller) where its schedule stands now on `clocks`, as
    /// `request` asks: `resumePoint` decides (the missed-start question posed when `mayAsk`, `asked` running once it
    /// is), a question not answered ends the shoot (`ShootPreparationError.declined`), a series with nothing left is
    /// marked ended at the wall clock's time. `followsCamera`: the journal follows the camera actually used.
    package func resumeSeries(
        _ journal: ShootJournal, clocks: SeriesClocks, request: ResumeRequest, followsCamera: Bool,
        store: JournalStore, mayAsk: Bool, asked: @escaping @Sendable (Question) async -> Void = { _ in }
    ) async throws -> SeriesResumeStart {
        guard let record = journal.series else { preconditionFailure("resume of a series journal") }
        let now = clocks.offset(in: record)
        let decision = await resumePoint(
            of: journal, now: now, restartSet: request.restartSet, skipMissed: request.skipMissed, mayAsk: mayAsk,
            asked: asked)
        switch decision {
        case .declined:
            end()
            throw ShootPreparationError.declined
        case .nothingLeft(let why, let journal):
            try await SeriesResumption.markEnded(journal, in: store, at: clocks.wallClock.now())
            return .nothingLeft(why)
        case .resume(let point):
            return .start(ResumedSeriesStart(resumption: point, followsCamera: followsCamera, store: store))
        }
    }
}
