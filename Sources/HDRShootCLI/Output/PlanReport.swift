import Exposure
import Foundation
import ShootKit

/// A plan with everything `hdrshoot plan` prints about it: the table, the summary line, the JSON.
struct PlanReport: Sendable {
    /// The planned sets.
    let plan: BracketPlan
    /// From the highlight to the shadow reading.
    let range: EVAmount
    /// Seconds of overhead per frame in the estimate.
    let overhead: Double
    /// Notes about the input (snapped readings), shown before the planner's own warnings.
    let notes: [String]

    /// Input notes followed by the planner's warnings.
    var warnings: [String] { notes + plan.warnings }

    /// The estimated shoot time in seconds.
    var estimatedSeconds: Double { plan.estimatedSeconds(overheadPerFrame: overhead) }

    // MARK: - Text

    /// The table, the summary line, and one `warning:` line per warning.
    func text() -> String {
        var lines = table()
        lines.append(summaryLine())
        lines += warnings.map { "warning: \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `Set  Speeds` and one row per set, each frame column as wide as its longest label; bulb frames read
    /// `4' (bulb)`.
    func table() -> [String] {
        let rows = plan.sets.map { $0.map(Self.tableLabel) }
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        let single = plan.bracketSetCount == 0
        var lines = ["Set  Speeds"]
        for (index, row) in rows.enumerated() {
            let number = single ? "-" : String(index + 1)
            var line = String(repeating: " ", count: max(0, 3 - number.count)) + number + "  "
            for (column, label) in row.enumerated() {
                let padding = column == row.count - 1 ? 0 : widths[column] - label.count + 2
                line += label + String(repeating: " ", count: padding)
            }
            lines.append(line)
        }
        return lines
    }

    /// `3 sets, 15 exposures (13 distinct), range 8 EV, longest 4", estimated 12 s`, plus a warning count.
    func summaryLine() -> String {
        let sets = plan.bracketSetCount
        var parts = [
            sets == 0 ? "0 sets (a single exposure)" : Self.counted(sets, "set"),
            Self.counted(plan.totalExposures, "exposure") + " (\(plan.distinctExposures) distinct)",
            "range \(range.label) EV",
            "longest \(plan.longestExposure?.label ?? "-")",
            "estimated \(Self.duration(estimatedSeconds))"
        ]
        if !warnings.isEmpty { parts.append(Self.counted(warnings.count, "warning")) }
        return parts.joined(separator: ", ")
    }

    /// A frame's label in the table: the speed, and `(bulb)` after one past 30".
    static func tableLabel(_ speed: ShutterSpeed) -> String {
        speed.isBulb ? "\(speed.label) (bulb)" : speed.label
    }

    /// `1 set`, `3 sets`.
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `0.3 s`, `12 s`, `2 min 5 s`: tenths below 10 s, whole seconds above (ShootKit's `ShootWords`, which the
    /// layer's notes use too).
    static func duration(_ seconds: Double) -> String { ShootWords.duration(seconds: seconds) }

    // MARK: - JSON

    /// The `--json` object: exactly the documented keys (README, "hdrshoot plan"); property names are the keys.
    struct JSONPlan: Encodable {
        let rangeEv: Double
        let numSets: Int
        let totalExposures: Int
        let distinctExposures: Int
        let longestExposureSeconds: Double
        let estimatedSeconds: Double
        let warnings: [String]
        let sets: [[JSONFrame]]
    }

    /// One frame in `--json` output: the label, seconds, the exact rational as Sony encodes it, and
    /// `"bulb": true` on frames past 30" only (the key is absent otherwise, so timed frames keep their keys).
    struct JSONFrame: Encodable {
        let label: String
        let seconds: Double
        let numerator: Int
        let denominator: Int
        let bulb: Bool?

        /// The frame of `speed`.
        init(_ speed: ShutterSpeed) {
            label = speed.label
            seconds = speed.seconds
            numerator = speed.numerator
            denominator = speed.denominator
            bulb = speed.isBulb ? true : nil
        }
    }

    /// The plan as one pretty-printed JSON object with sorted keys, ending in a newline.
    func json() throws -> String {
        let object = JSONPlan(
            rangeEv: Self.rounded(range.ev, places: 2),
            numSets: plan.bracketSetCount,
            totalExposures: plan.totalExposures,
            distinctExposures: plan.distinctExposures,
            longestExposureSeconds: plan.longestExposure?.seconds ?? 0,
            estimatedSeconds: Self.rounded(estimatedSeconds, places: 2),
            warnings: warnings,
            sets: plan.sets.map { $0.map(JSONFrame.init) }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(object), as: UTF8.self) + "\n"
    }

    /// `value` rounded to `places` decimals (JSON readers get 2.33, not 2.3333333333333335).
    static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
