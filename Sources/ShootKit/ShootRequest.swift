import Exposure
import Foundation
import Shooting

/// How a shoot starts, from any front end: the CLI builds one from its options (`run`, `run --auto`, `run --every`,
/// `resume`: one function, `ShootRequest(arguments:now:)` in the CLI), the phone remote from `POST /api/shoot`'s
/// JSON. Typed where it enters (readings are stops of a scale, counts are in the planner's range), so nothing
/// downstream re-parses text.
///
/// Its cases are the starts a front end can tell apart from what it was given: a bracket (`--auto` is a bracket
/// whose readings are `.metered`), a series (a bracket and its schedule), a resume. A resumed series is not a
/// case of its own: whether the shoot a resume names is a series is the journal's fact, which the front end does
/// not know before the layer reads it; the layer's answer is `ResumeChoice` (`.series`, `.bracket`, `.allSaved`).
///
/// What every shoot shares (the camera, the planner's order and `--longest`, the transfer choice, the range check
/// `--check`, `--check extend` included) is the front end's standing configuration, not part of a start.
package enum ShootRequest: Sendable, Equatable {
    /// Plan a new bracket and shoot it.
    case bracket(BracketRequest)
    /// Plan a bracket and shoot it again on `schedule` (interval HDR): each repetition's plan from it.
    case series(BracketRequest, schedule: SeriesRequest)
    /// Continue an unfinished shoot (a bracket or a series, as its journal says) from its journal.
    case resume(ResumeRequest)
}

/// A new bracket: its readings (given or metered), what it changes of the planner's defaults, where it goes.
package struct BracketRequest: Sendable, Equatable {
    /// Where a bracket's two readings come from.
    package enum Readings: Sendable, Equatable {
        /// Given as stops of the scale (`typed` keeps what was sent).
        case given(shadow: ParsedSpeed, highlight: ParsedSpeed)
        /// Found with probe frames first (`run --auto`).
        case metered
    }

    /// The readings.
    package var readings: Readings
    /// Frames per set (nil: the shoot's default).
    package var frames: Int?
    /// The spacing between frames (nil: the shoot's default).
    package var spacing: EVAmount?
    /// The output folder (nil: a new dated one).
    package var output: String?
    /// With dedupe: hard-link each shared frame into both sets' folders.
    package var linkShared: Bool
    /// Shoot without waiting in the proposed state.
    package var confirm: Bool

    /// Creates a request.
    package init(
        readings: Readings, frames: Int? = nil, spacing: EVAmount? = nil, output: String? = nil,
        linkShared: Bool = false, confirm: Bool = false
    ) {
        self.readings = readings
        self.frames = frames
        self.spacing = spacing
        self.output = output
        self.linkShared = linkShared
        self.confirm = confirm
    }

    /// The shadow reading when given (nil: metered).
    package var shadow: ParsedSpeed? {
        if case .given(let shadow, _) = readings { return shadow }
        return nil
    }

    /// The highlight reading when given (nil: metered).
    package var highlight: ParsedSpeed? {
        if case .given(_, let highlight) = readings { return highlight }
        return nil
    }
}

/// The schedule of a series: the same bracket repeated (interval HDR).
package struct SeriesRequest: Sendable, Equatable {
    /// The interval between repetition starts.
    package var every: Duration
    /// When the series ends: a count, a time of day, or never.
    package var end: SeriesRecord.End
    /// Each repetition this many stops slower (negative: faster, for dawn).
    package var shift: EVAmount?

    /// Creates a schedule.
    package init(every: Duration, end: SeriesRecord.End, shift: EVAmount? = nil) {
        self.every = every
        self.end = end
        self.shift = shift
    }
}

/// Continuing an unfinished shoot (a bracket or a series) from its journal.
package struct ResumeRequest: Sendable, Equatable {
    /// The journal's id (nil: the latest unfinished one).
    package var id: String?
    /// Shoot the interrupted set again from its first frame.
    package var restartSet: Bool
    /// A series: skip repetitions whose start time passed, keeping the clock times.
    package var skipMissed: Bool
    /// Shoot without waiting in the proposed state.
    package var confirm: Bool

    /// Creates a request.
    package init(id: String? = nil, restartSet: Bool = false, skipMissed: Bool = false, confirm: Bool = false) {
        self.id = id
        self.restartSet = restartSet
        self.skipMissed = skipMissed
        self.confirm = confirm
    }
}
