/// When each repetition of an interval series starts: times are offsets from the first start, so the
/// schedule is pure arithmetic (the runner maps them onto its clock, the CLI onto wall-clock dates).
///
/// The rule: the next repetition starts `every` after the previous one STARTED. The previous start used is
/// the one the schedule gave (not the measured one), so the small lateness of each wake-up never adds up over
/// a long series. When a start cannot happen on time (the previous repetition overran, a pause held it, or
/// the process was away and `resume` shoots now), it happens at once and the following ones continue `every`
/// after that late start; `skippingMissed` instead keeps the original clock times and skips the starts
/// that passed.
package struct RepetitionSchedule: Sendable, Hashable {
    /// Where a series ends.
    package enum End: Sendable, Hashable {
        /// After `n` repetitions (skipped ones included: they keep their numbers).
        case count(Int)
        /// No repetition starts later than this offset from the first start (`--until 19:45`).
        case until(Duration)
        /// Until stopped.
        case forever
    }

    /// Why a repetition starts when it does.
    package enum Timing: Sendable, Hashable {
        /// The first repetition, or on the schedule.
        case onTime
        /// At once because the previous repetition ran `by` past this start.
        case afterOverrun(by: Duration)
        /// At once, `by` after its scheduled time, because a pause held it or the process was away.
        case late(by: Duration)
    }

    /// One start: which repetition (from 1), when (offset from the first start), and why then.
    package struct Start: Sendable, Hashable, CustomStringConvertible {
        /// The repetition's number, from 1.
        package var number: Int
        /// When it starts, as an offset from the series' first start.
        package var at: Duration
        /// On time, after an overrun, or late.
        package var timing: Timing

        /// Creates a start.
        package init(number: Int, at: Duration, timing: Timing = .onTime) {
            self.number = number
            self.at = at
            self.timing = timing
        }

        /// `repetition 3 at +4m0s`.
        package var description: String { "repetition \(number) at +\(at)" }
    }

    /// The interval between starts (positive).
    package let every: Duration
    /// Where the series ends.
    package let end: End

    /// A schedule of a repetition every `every` (which must be positive) until `end`.
    package init(every: Duration, end: End) {
        precondition(every > .zero, "a schedule needs a positive interval")
        self.every = every
        self.end = end
    }

    /// The first repetition's start.
    package var first: Start { Start(number: 1, at: .zero) }

    /// Whether repetition `number` starting at `offset` is part of the series.
    package func includes(_ number: Int, at offset: Duration) -> Bool {
        guard number >= 1 else { return false }
        switch end {
        case .count(let count): return number <= count
        case .until(let limit): return offset <= limit
        case .forever: return true
        }
    }

    /// The start of repetition `number` when every repetition starts on time.
    package func nominalStart(of number: Int) -> Duration { every * (number - 1) }

    /// How many repetitions the series has when every start is on time; `nil` for `forever`.
    package var nominalCount: Int? {
        switch end {
        case .count(let count): return max(count, 0)
        case .until(let limit):
            guard limit >= .zero else { return 0 }
            return Int(limit / every) + 1
        case .forever: return nil
        }
    }

    /// The start after repetition `number` (which the schedule started at `scheduledAt`) ended at
    /// `endedAt`: `every` after that start, or at once when the repetition ran past it; `nil` when the
    /// series is over.
    package func next(after number: Int, scheduledAt: Duration, endedAt: Duration) -> Start? {
        let onSchedule = scheduledAt + every
        let start =
            endedAt > onSchedule
            ? Start(number: number + 1, at: endedAt, timing: .afterOverrun(by: endedAt - onSchedule))
            : Start(number: number + 1, at: onSchedule)
        return includes(start.number, at: start.at) ? start : nil
    }

    /// `start` held until `now` (a pause, or a resume that shoots at once): unchanged when its time has not
    /// come, else at `now` and late; `nil` when the late start falls past `--until`.
    package func held(_ start: Start, until now: Duration) -> Start? {
        guard now > start.at else { return start }
        let timing: Timing =
            switch start.timing {
            case .afterOverrun(let by): .afterOverrun(by: by + (now - start.at))
            case .onTime, .late: .late(by: now - start.at)
            }
        let late = Start(number: start.number, at: now, timing: timing)
        return includes(late.number, at: late.at) ? late : nil
    }

    /// What passed by `now` when `start` is still to shoot and the original clock times are kept: the
    /// numbers whose start time passed (skipped) and the next start on the schedule at or after `now`
    /// (`nil` when the series is over).
    package func skippingMissed(from start: Start, now: Duration) -> (skipped: [Int], next: Start?) {
        var skipped: [Int] = []
        var candidate = Start(number: start.number, at: start.at)
        while candidate.at < now {
            guard includes(candidate.number, at: candidate.at) else { return (skipped, nil) }
            skipped.append(candidate.number)
            candidate = Start(number: candidate.number + 1, at: candidate.at + every)
        }
        return (skipped, includes(candidate.number, at: candidate.at) ? candidate : nil)
    }
}
