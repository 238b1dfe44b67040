import Exposure
import Foundation

/// The series part of a shoot journal (`ShootJournal.series`): the schedule, the base readings, and one
/// record per repetition. Absent for a single bracket, so older journals read unchanged.
///
/// The journal's top-level `plan`, `frames` and `outputDirectory` are those of the repetition shooting now
/// (or last shot), so the frame recorder, `status` and `resume` work on it as on a single bracket; a
/// finished repetition's frames are copied into its record here.
package struct SeriesRecord: Sendable, Hashable, Codable {
    /// Where the series ends, as stored.
    package enum End: Sendable, Hashable, Codable {
        /// After this many repetitions.
        case count(Int)
        /// No repetition starts after this time.
        case until(Date)
        /// Until stopped.
        case forever
    }

    /// The readings and planner settings each repetition is planned from (shifted by `shift` per repetition): the
    /// typed form of the bracket as asked, whose recorded form is `ShootRecipe` (see ShootKit's
    /// `ShootRecipe+Typed.swift` for why there are two).
    package struct Base: Sendable, Hashable, Codable {
        /// The shadow reading.
        package var shadow: ShutterSpeed
        /// The highlight reading.
        package var highlight: ShutterSpeed
        /// Frames per set.
        package var frames: Int
        /// EV between frames.
        package var spacing: EVAmount
        /// The scale.
        package var scale: ShutterScale
        /// `--dedupe`.
        package var dedupe: Bool
        /// `--order`.
        package var order: BracketOrder

        /// Creates the base of a series.
        package init(
            shadow: ShutterSpeed, highlight: ShutterSpeed, frames: Int, spacing: EVAmount, scale: ShutterScale,
            dedupe: Bool, order: BracketOrder
        ) {
            self.shadow = shadow
            self.highlight = highlight
            self.frames = frames
            self.spacing = spacing
            self.scale = scale
            self.dedupe = dedupe
            self.order = order
        }
    }

    /// Where one repetition stands.
    package enum RepetitionState: String, Sendable, Hashable, Codable {
        /// Shooting now (or when the process died).
        case shooting
        /// Every frame saved.
        case done
        /// Stopped before its last frame; `resume` continues it.
        case stopped
        /// Its start time passed while hdrshoot was away and `--skip-missed` skipped it.
        case skipped
    }

    /// One repetition's record.
    package struct Repetition: Sendable, Hashable, Codable {
        /// The repetition's number, from 1.
        package var number: Int
        /// Its start on the schedule, in milliseconds after the series' first start.
        package var scheduledOffsetMilliseconds: Int64
        /// Its start on the schedule.
        package var plannedStart: Date
        /// When it actually started (absent for a skipped one).
        package var actualStart: Date?
        /// When it actually started, in milliseconds after the series' first start (the drift to the millisecond).
        package var actualOffsetMilliseconds: Int64?
        /// When its run ended.
        package var endedAt: Date?
        /// `onTime`, `afterOverrun` or `late`.
        package var timing: String
        /// Where it stands.
        package var state: RepetitionState
        /// Its folder (absent for a skipped one).
        package var outputDirectory: String?
        /// Its plan as shot, once it started.
        package var plan: BracketPlan?
        /// Its frames, copied here when its run ends.
        package var frames: [[ShootJournal.FrameRecord]]?

        /// The schedule's start of this repetition.
        package var start: RepetitionSchedule.Start {
            RepetitionSchedule.Start(number: number, at: .milliseconds(scheduledOffsetMilliseconds))
        }
    }

    /// The interval between starts, in milliseconds.
    package var everyMilliseconds: Int64
    /// Where the series ends.
    package var end: End
    /// The series' first start in milliseconds since 1970 (the journal's dates keep whole seconds only, and the
    /// schedule must survive a resume to the millisecond).
    package var firstStartMilliseconds: Int64
    /// EV each repetition is shifted slower than the previous one (absent: no shift).
    package var shift: EVAmount?
    /// The longest speed a shifted plan may use.
    package var longest: ShutterSpeed?
    /// The readings each repetition is planned from.
    package var base: Base
    /// The series' folder (repetitions go to `rep-001`, `rep-002`, ... below it).
    package var rootDirectory: String
    /// Every repetition started or skipped, in order.
    package var repetitions: [Repetition]
    /// Whether the schedule is done (no repetition left).
    package var ended: Bool

    /// Creates the record of a new series.
    package init(
        every: Duration, end: End, firstStart: Date, shift: EVAmount?, longest: ShutterSpeed?, base: Base,
        rootDirectory: String
    ) {
        self.everyMilliseconds = Self.milliseconds(every)
        self.end = end
        self.firstStartMilliseconds = Int64((firstStart.timeIntervalSince1970 * 1000).rounded())
        self.shift = shift
        self.longest = longest
        self.base = base
        self.rootDirectory = rootDirectory
        self.repetitions = []
        self.ended = false
    }

    /// The series' first start: every offset counts from here.
    package var firstStart: Date {
        get { Date(timeIntervalSince1970: Double(firstStartMilliseconds) / 1000) }
        set { firstStartMilliseconds = Int64((newValue.timeIntervalSince1970 * 1000).rounded()) }
    }

    /// The interval.
    package var every: Duration { .milliseconds(everyMilliseconds) }

    /// The pure schedule of this series.
    package var schedule: RepetitionSchedule {
        let scheduleEnd: RepetitionSchedule.End =
            switch end {
            case .count(let count): .count(count)
            case .until(let date):
                .until(.milliseconds(Int64((date.timeIntervalSince(firstStart) * 1000).rounded(.down))))
            case .forever: .forever
            }
        return RepetitionSchedule(every: every, end: scheduleEnd)
    }

    /// The wall-clock time of the schedule offset `offset`.
    package func date(at offset: Duration) -> Date { firstStart.addingTimeInterval(Self.seconds(offset)) }

    /// The schedule offset of `date`.
    package func offset(of date: Date) -> Duration {
        .milliseconds(Int64((date.timeIntervalSince(firstStart) * 1000).rounded()))
    }

    /// Whole milliseconds of `duration`.
    package static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    /// Seconds of `duration` as a double.
    package static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The last repetition started (not skipped), if any.
    package var lastStarted: Repetition? { repetitions.last { $0.state != .skipped } }

    /// Where the series continues: the interrupted repetition (to continue now), or the next start on the
    /// schedule after the last repetition; `nil` when the schedule is done.
    package func continuation() -> (start: RepetitionSchedule.Start, continuing: Bool)? {
        guard !ended else { return nil }
        guard let last = repetitions.last else { return (schedule.first, false) }
        if last.state == .shooting || last.state == .stopped { return (last.start, true) }
        let endedAt = last.state == .skipped ? last.start.at : last.endedAt.map(offset(of:)) ?? last.start.at
        guard let next = schedule.next(after: last.number, scheduledAt: last.start.at, endedAt: endedAt) else {
            return nil
        }
        return (next, false)
    }
}
