import Exposure
import Foundation
import Posix
import Shooting

/// A series ready to shoot: the camera connected and checked, the photographer agreed, the series journal in the
/// store. What `run --every`, its `resume` and (later) the phone remote hand the controller.
package struct SeriesShoot: Sendable {
    /// The connected camera.
    package var camera: any RemoteCamera
    /// The series journal (its `series` record), already in the store.
    package var journal: ShootJournal
    /// Where the journal is saved.
    package var store: JournalStore
    /// The timed speeds the camera offers (each repetition's plan is matched to them).
    package var offered: [ShutterSpeed]
    /// Warnings of the base plan, kept with each repetition's plan.
    package var planWarnings: [String]
    /// The repetition to start with.
    package var start: RepetitionSchedule.Start
    /// Repetitions skipped before it (their start times passed).
    package var skipping: [Int]
    /// The interrupted repetition's frame to continue from (resume).
    package var continuing: SeriesContinuation?
    /// Each repetition's runner settings (its folder is replaced by the repetition's).
    package var configuration: BracketRunner.Configuration
    /// How long ago the series' first start was, on `clock` (zero for a new series).
    package var elapsed: Duration
    /// The clock the schedule waits on (a test's virtual clock; the real one by default).
    package var clock: any Clock<Duration>
    /// The time of day (the journal's times, the waiting update's start time).
    package var wallClock: WallClock

    /// A series of `journal` on `camera` from `start`.
    package init(
        camera: any RemoteCamera, journal: ShootJournal, store: JournalStore, offered: [ShutterSpeed],
        planWarnings: [String] = [], start: RepetitionSchedule.Start, skipping: [Int] = [],
        continuing: SeriesContinuation? = nil, configuration: BracketRunner.Configuration, elapsed: Duration = .zero,
        clock: any Clock<Duration> = ContinuousClock(), wallClock: WallClock = .system
    ) {
        precondition(journal.series != nil, "a series journal has a series record")
        self.camera = camera
        self.journal = journal
        self.store = store
        self.offered = offered
        self.planWarnings = planWarnings
        self.start = start
        self.skipping = skipping
        self.continuing = continuing
        self.configuration = configuration
        self.elapsed = elapsed
        self.clock = clock
        self.wallClock = wallClock
    }
}

/// A repetition's folder that could not be made (the series stops there, resumable).
package struct RepetitionFolderError: Error, Sendable, Equatable {
    /// The folder.
    package var path: String
    /// Why, from the system.
    package var cause: Errno

    /// The error of `path`.
    package init(path: String, cause: Errno) {
        self.path = path
        self.cause = cause
    }
}

extension SeriesShoot {
    /// Puts a new series in the store once the photographer agreed: its schedule counts from `now` (the moment
    /// of the yes), its journal starts with the first repetition's plan (`first`) and is locked for this process.
    /// A `--until` time that passed while the question waited blocks it: nothing was shot.
    package static func record(
        _ record: SeriesRecord, first: SeriesJournalRecorder.Prepared, camera: CameraIdentity, store: JournalStore,
        now: Date
    ) async throws -> (ShootJournal, JournalLock) {
        var record = record
        record.firstStart = now
        if case .until(let date) = record.end, date <= record.firstStart {
            throw ShootPreparationError.blocked([
                .camera("the --until time passed while waiting for the answer; nothing was shot")
            ])
        }
        var journal = ShootJournal(
            plan: first.plan, camera: camera, substitutions: first.substitutions,
            outputDirectory: record.rootDirectory + "/" + SeriesRepetition.folderName(1))
        journal.series = record
        let lock = try await store.lock(id: journal.id)
        try await store.create(journal)
        return (journal, lock)
    }
}
