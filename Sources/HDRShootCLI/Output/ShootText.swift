import Exposure
import Foundation
import ShootKit
import Shooting

/// The sentences `run`, `resume` and `status` share: the confirmation summary, the end line, durations.
enum ShootText {
    /// `3 sets, 15 exposures. Longest exposure: 4". Estimated time: ~12 s.`
    static func summary(_ plan: BracketPlan, overhead: Double) -> String {
        let sets = plan.bracketSetCount
        let setText = sets == 0 ? "A single exposure" : PlanReport.counted(sets, "set")
        let exposures = sets == 0 ? "" : ", " + PlanReport.counted(plan.totalExposures, "exposure")
        let longest = plan.longestExposure?.label ?? "-"
        let estimate = PlanReport.duration(plan.estimatedSeconds(overheadPerFrame: overhead))
        return "\(setText)\(exposures). Longest exposure: \(longest). Estimated time: ~\(estimate)."
    }

    /// `1/6400 not available on this camera, using 1/5000`, once per distinct pair.
    static func substitutionLines(_ substitutions: [SpeedSubstitution]) -> [String] {
        substitutions.map { "\($0.planned.label) not available on this camera, using \($0.used.label)" }
    }

    /// `Complete: 15 of 15 exposures saved`, `Stopped at set 2, frame 3. 7 of 15 exposures saved. Run ...`, or
    /// when frames fired but wait in the camera, `... 12 of 15 exposures fired: 7 saved, 5 in the camera. Run
    /// `hdrshoot resume` to download those 5 first and shoot the remaining 3.`: fired and saved said apart.
    static func endLine(_ result: ShootResult) -> String {
        guard let position = result.resumePosition, !result.isComplete else {
            return "Complete: \(result.saved) of \(result.total) exposures saved"
        }
        let stopped = "Stopped at set \(position.set), frame \(position.frame)."
        let remaining = result.total - result.fired
        guard result.inCamera > 0 else {
            return "\(stopped) \(result.saved) of \(result.total) exposures saved. Run `hdrshoot resume` to shoot "
                + "the remaining \(remaining)."
        }
        let rest = remaining > 0 ? " and shoot the remaining \(remaining)" : ""
        return "\(stopped) \(result.fired) of \(result.total) exposures fired: \(result.saved) saved, "
            + "\(result.inCamera) in the camera. Run `hdrshoot resume` to download those \(result.inCamera) first\(rest)."
    }

    /// `2 s`, `0.5 s`, `5 min`: a duration for messages (whole seconds without a `.0`; ShootKit's `ShootWords`).
    static func duration(_ duration: Duration) -> String { ShootWords.duration(duration) }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double { ShootWords.seconds(duration) }

    /// `0:05`, `12:30`, `1:02:03`: a clock reading for the live line.
    static func clock(_ seconds: Double) -> String {
        let total = max(0, Int(seconds.rounded()))
        let (hours, minutes, rest) = (total / 3600, (total / 60) % 60, total % 60)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// One value as JSON on one line (sorted keys, slashes as they are), with a newline.
    static func jsonLine(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // hdrshoot's reports hold strings, numbers, booleans and arrays of them: encoding cannot fail.
        guard let data = try? encoder.encode(value) else { preconditionFailure("a report always encodes") }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// What a pause is for, as a person reads it.
    static func pauseText(_ reason: PauseReason, resumed: Bool) -> String {
        let detail = reason.detail.map { " (\($0))" } ?? ""
        switch (reason.kind, resumed) {
        case (.user, false): return "Paused; press space or p to continue, q to stop"
        case (.user, true): return "Continuing"
        // The network monitor's detail is the whole sentence ("Paused: the host left the camera's Wi-Fi ...").
        case (.network, false): return reason.detail ?? "Paused: the camera's network is gone"
        case (.network, true): return reason.detail ?? "The network is back"
        case (.connection, false): return "Paused: lost the connection to the camera; reconnecting"
        case (.connection, true): return "Reconnected; continuing"
        case (.other, false): return "Paused\(detail)"
        case (.other, true): return "Continuing\(detail)"
        }
    }

    /// The phase as a person reads it.
    static func phaseText(_ phase: FramePhase) -> String {
        switch phase {
        case .settingSpeed: "setting speed"
        case .capturing: "capturing"
        case .inCamera: "in the camera"
        case .downloading: "downloading"
        case .saved: "saved"
        }
    }
}
