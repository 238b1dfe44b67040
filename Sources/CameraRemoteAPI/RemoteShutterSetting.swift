import Exposure
import HTTP

/// A shutter setting as the Camera Remote API writes it: a timed speed (`30"`, `0.4"`, `1/4000`) or `BULB`.
///
/// Labels are read by value and exactly: `0.4"` is 4/10 and `1/3` is 1/3, never a rounded double (reference
/// setShutterSpeed / getAvailableShutterSpeed, pp. 102-106; the bodies' own labels as pysony's dumps show
/// them). `stop(on:)` then finds the planner's stop of the same value, so a plan's `ShutterSpeed` and a
/// body's label meet without any tolerance.
package enum RemoteShutterSetting: Sendable, Hashable, CustomStringConvertible {
    /// An exposure the camera times.
    case timed(ShutterSpeed)
    /// `BULB`: the exposure lasts from startBulbShooting to stopBulbShooting.
    case bulb

    /// The longest label accepted; real ones are at most 6 characters (`1/8000`).
    static let maximumLabelLength = 16

    /// Parses a label from a body's answer; anything else throws `.unknownShutterLabel`.
    package init(label: String) throws(CameraRemoteAPIError) {
        guard label.utf8.count <= Self.maximumLabelLength else {
            throw .unknownShutterLabel(String(label.prefix(Self.maximumLabelLength)) + "...")
        }
        if label == "BULB" {
            self = .bulb
            return
        }
        if label.hasSuffix("\"") {
            guard let seconds = Self.tenths(label.dropLast()) else { throw .unknownShutterLabel(label) }
            self = .timed(seconds)
            return
        }
        let parts = label.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let top = HTTPFramer.decimal(parts[0]), top > 0, let bottom = Self.tenths(parts[1])
        else { throw .unknownShutterLabel(label) }
        // top / (n/d) = top·d / n: "1/2.5" is 10/25, "1/250" is 1/250.
        self = .timed(ShutterSpeed(numerator: top * bottom.denominator, denominator: bottom.numerator))
    }

    /// The label in the API's style: `1/250` for fractions of one second, else seconds with `"` and at most
    /// one decimal (`0.4"`, `2.5"`, `30"`); `BULB`.
    package var label: String {
        switch self {
        case .bulb:
            return "BULB"
        case let .timed(speed):
            if speed.numerator == 1 && speed.denominator > 1 { return "1/\(speed.denominator)" }
            if speed.numerator % speed.denominator == 0 { return "\(speed.numerator / speed.denominator)\"" }
            let tenths = (speed.numerator * 10 + speed.denominator / 2) / speed.denominator
            return tenths % 10 == 0 ? "\(tenths / 10)\"" : "\(tenths / 10).\(tenths % 10)\""
        }
    }

    package var description: String { label }

    /// The planner's stop for this setting on `scale`: the stop of equal value, else the stop whose own
    /// label is this one (a body writing `0.3"` means the 1/3 s stop); nil for BULB and off-scale speeds.
    package func stop(on scale: ShutterScale) -> ShutterSpeed? {
        guard case let .timed(speed) = self else { return nil }
        if let index = scale.index(of: speed) { return scale.allSpeeds[index] }
        return scale.speeds.first { $0.label == speed.label }
    }

    /// `30`, `0.4`, `2.5` as an exact fraction (tenths at most), nil for anything else.
    private static func tenths(_ text: Substring) -> ShutterSpeed? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard let whole = HTTPFramer.decimal(parts[0]), whole < 100_000 else { return nil }
        switch parts.count {
        case 1:
            return whole > 0 ? ShutterSpeed(numerator: whole, denominator: 1) : nil
        case 2:
            guard parts[1].count == 1, let digit = HTTPFramer.decimal(parts[1]) else { return nil }
            let value = whole * 10 + digit
            return value > 0 ? ShutterSpeed(numerator: value, denominator: 10) : nil
        default:
            return nil
        }
    }
}

/// A body's shutter labels read once, so a planned speed finds the exact label the camera wants back.
///
/// setShutterSpeed takes only the strings getAvailableShutterSpeed offered (p. 102), so the client sends
/// the body's own label, looked up by value, never one it formatted itself.
package struct RemoteShutterLabels: Sendable, Hashable {
    /// The offered timed speeds, by value, with the body's label for each.
    package let labelsBySpeed: [ShutterSpeed: String]
    /// Whether `BULB` was offered (mode M).
    package let offersBulb: Bool
    /// Labels that are neither a speed nor BULB (kept to report them, never sent).
    package let unknown: [String]

    /// Reads a candidate list (`getAvailableShutterSpeed`'s second element, or getEvent's candidates).
    package init(candidates: [String]) {
        var labels: [ShutterSpeed: String] = [:]
        var bulb = false
        var unknown: [String] = []
        for candidate in candidates {
            switch try? RemoteShutterSetting(label: candidate) {
            case let .timed(speed)?: labels[speed] = labels[speed] ?? candidate
            case .bulb?: bulb = true
            case nil: unknown.append(candidate)
            }
        }
        labelsBySpeed = labels
        offersBulb = bulb
        self.unknown = unknown
    }

    /// The offered timed speeds, fastest first.
    package var speeds: [ShutterSpeed] { labelsBySpeed.keys.sorted() }

    /// The body's label for `speed` (by value), nil when the body does not offer it now.
    package func label(for speed: ShutterSpeed) -> String? { labelsBySpeed[speed] }

    /// The offered speeds that are stops of `scale` (by value, or by label for `0.3"`), fastest first.
    package func stops(on scale: ShutterScale) -> [ShutterSpeed] {
        speeds.compactMap { RemoteShutterSetting.timed($0).stop(on: scale) }
    }
}
