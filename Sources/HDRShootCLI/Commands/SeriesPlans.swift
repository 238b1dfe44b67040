import Exposure
import Foundation
import ShootKit
import Shooting

/// A series' plans per repetition and the confirmation text: schedule, totals, fit, battery and card.
enum SeriesPlans {
    /// The battery and card lines: what the body reports, checked against the series' exposures (nil: no end),
    /// with a warning when the card cannot hold them or the battery is low; what it does not report, said so.
    static func mediaLines(_ media: MediaStatus, exposures: Int?) -> [String] {
        let need = exposures.map { "\($0) exposures" } ?? "the series"
        guard media.batteryPercent != nil || media.remainingShots != nil else {
            return [
                "Battery and card: not reported by the camera over this connection; check both cover \(need) before you leave the camera."
            ]
        }
        var parts: [String] = []
        var warnings: [String] = []
        if let battery = media.batteryPercent {
            parts.append("battery \(battery) %")
            if battery <= 20 {
                warnings.append("warning: the battery is at \(battery) %; a long series may need a fresh one")
            }
        } else {
            parts.append("battery not reported")
        }
        if let left = media.remainingShots {
            parts.append("card: \(left) shots left")
            if let exposures, left < exposures {
                warnings.append(
                    "warning: the card has room for \(left) of the series' \(exposures) exposures; the series pauses "
                        + "when it is full and goes on once there is room")
            }
        } else {
            parts.append("card space not reported")
        }
        return ["Battery and card: " + parts.joined(separator: ", ") + " (\(need))."] + warnings
    }

    /// The confirmation lines of a series from `start` (the first repetition for a new series), from
    /// the plans the controller matched.
    static func summaryLines(
        record: SeriesRecord, plans: [SeriesJournalRecorder.Prepared], check: CameraCheck, overhead: Double,
        from start: RepetitionSchedule.Start? = nil
    ) -> [String] {
        let schedule = record.schedule
        let start = start ?? schedule.first
        let numbers = record.proposedNumbers(from: start)
        let every = ShootText.duration(schedule.every)
        let firstPlan = plans[0].plan
        var lines: [String] = []
        // Start times as if every start is on time from `start` on.
        let firstTime = record.date(at: start.at)
        let lastTime = record.date(at: start.at + schedule.every * (numbers.count - 1))
        let exposures = plans.reduce(0) { $0 + $1.plan.totalExposures }
        if schedule.nominalCount == nil {
            lines.append(
                "Series: a repetition every \(every) from \(clockTime(firstTime)) until stopped (q or Ctrl-C); "
                    + "\(firstPlan.totalExposures) exposures each.")
        } else {
            lines.append(
                "Series: \(PlanReport.counted(numbers.count, "repetition")) every \(every), first start "
                    + "\(clockTime(firstTime)), last \(clockTime(lastTime)); \(exposures) exposures in all.")
        }
        lines.append("Repetition \(start.number): " + ShootText.summary(firstPlan, overhead: overhead))
        if let shift = record.shift, shift.sixths != 0, let last = plans.last, numbers.count > 1 {
            let readings = record.base.readings(
                forRepetition: numbers.upperBound, shift: shift, longest: record.longest)
            let cap = record.longest?.label ?? record.base.scale.longest.label
            lines.append(
                "Shift: each repetition \(shift.label) EV \(shift.sixths > 0 ? "slower" : "faster") (at most \(cap)); "
                    + "repetition \(numbers.upperBound): shadow \(readings.shadow.label), highlight \(readings.highlight.label). "
                    + ShootText.summary(last.plan, overhead: overhead))
        }
        lines += fitLines(
            plans.map(\.plan), numbers: numbers, every: schedule.every, overhead: overhead,
            longExposureNR: check.longExposureNR)
        lines += mediaLines(check.media, exposures: schedule.nominalCount == nil ? nil : exposures)
        lines.append(
            "Between repetitions the camera stays connected (the idle link is kept alive), so each start is on time.")
        lines += ShootText.substitutionLines(plans[0].substitutions)
        lines += firstPlan.warnings.map { "warning: \($0)" }
        lines.append("Camera: \(check.identity.model) at \(check.identity.address)")
        lines.append("Images: \(record.rootDirectory)/rep-NNN/ (one folder per repetition)")
        return lines
    }

    /// Whether each repetition fits its interval, with and without Long Exposure NR (which hdrshoot cannot read).
    static func fitLines(
        _ plans: [BracketPlan], numbers: ClosedRange<Int>, every: Duration, overhead: Double,
        longExposureNR: Bool? = nil
    ) -> [String] {
        let interval = ShootText.seconds(every)
        // NR the body reports on counts in every estimate; reported off, it is left out; unknown, it is a second line.
        let estimates = plans.map {
            $0.estimatedSeconds(overheadPerFrame: overhead, longExposureNR: longExposureNR == true ? true : false)
        }
        // Long Exposure NR takes a dark frame as long as each exposure of 1 s or more.
        let withNR = zip(plans, estimates).map { plan, estimate in
            estimate + plan.sets.joined().filter { $0.seconds >= 1 }.reduce(0) { $0 + $1.seconds }
        }
        var lines: [String] = []
        let longest = estimates.max() ?? 0
        if let index = estimates.firstIndex(where: { $0 > interval }) {
            lines.append(
                "warning: repetition \(numbers.lowerBound + index) takes ~\(PlanReport.duration(estimates[index])), "
                    + "longer than the \(ShootText.duration(every)) interval: the next one starts at once after it, later than planned"
            )
        } else {
            lines.append(
                "Each repetition fits its interval: the longest takes ~\(PlanReport.duration(longest)) of \(ShootText.duration(every))."
            )
        }
        let longestNR = withNR.max() ?? 0
        if longExposureNR == nil, longestNR > longest {
            let fits = longestNR <= interval ? "still fits" : "does NOT fit: turn it off for interval HDR"
            lines.append(
                "If Long Exposure NR is on (the camera does not report it), the longest takes ~\(PlanReport.duration(longestNR)) "
                    + "and \(fits).")
        }
        return lines
    }

    /// `19:04:05` in local time (ShootKit's `ShootWords`).
    static func clockTime(_ date: Date) -> String { ShootWords.clockTime(date) }
}
