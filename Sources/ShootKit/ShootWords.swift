import Foundation

/// The one way a shoot's sentences write durations and clock times, so the layer's notes (`SeriesResumption.notes`)
/// and the terminal's lines (`ShootText`, `PlanReport`, `SeriesPlans`) read the same.
package enum ShootWords {
    /// `0.3 s`, `12 s`, `2 min 5 s`: tenths below 10 s, whole seconds above.
    package static func duration(seconds: Double) -> String {
        // Hand-formatted: String(format:) loads locale data and costs ~35 ms of process start-up on Linux.
        if seconds < 9.95 {
            let tenths = Int((seconds * 10).rounded())
            return "\(tenths / 10).\(tenths % 10) s"
        }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole) s" }
        return whole % 60 == 0 ? "\(whole / 60) min" : "\(whole / 60) min \(whole % 60) s"
    }

    /// `2 s`, `0.5 s`, `5 min`: a duration for messages (whole seconds without a `.0`).
    package static func duration(_ duration: Duration) -> String {
        let value = seconds(duration)
        if value < 9.95, (value * 10).rounded() == value.rounded() * 10 { return "\(Int(value.rounded())) s" }
        return Self.duration(seconds: value)
    }

    /// A duration in seconds.
    package static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// `19:04:05` in local time.
    package static func clockTime(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let text = String(value ?? 0)
            return text.count < 2 ? "0" + text : text
        }
        return "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}
