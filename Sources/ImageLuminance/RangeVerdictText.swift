import Exposure

/// The one-line wording of a range verdict.
///
/// Holding: `range ok: highlights hold at 1/1000 (0.01 % clipped), shadows open at 4" (3 % blocked)`.
/// Lacking: `highlights: 0.6 % still clipped at 1/1000; add 1/4000 (2 EV) or rerun with --highlight 1/4000`,
/// and the same for the shadows (`--shadow`), the two joined with `; ` when both lack. Without the readings the
/// rerun hint is left out; at the end of the scale the line says to change aperture or ISO instead.
enum RangeVerdictText {
    /// The verdict's line.
    static func line(
        highlights: RangeFinding, shadows: RangeFinding, scale: ShutterScale, readings: MeterReadings?
    ) -> String {
        if highlights.holds && shadows.holds {
            return "range ok: highlights hold at \(highlights.speed.label) (\(percent(highlights.fraction)) clipped), "
                + "shadows open at \(shadows.speed.label) (\(percent(shadows.fraction)) blocked)"
        }
        var parts: [String] = []
        if !highlights.holds { parts.append(lacking(highlights, scale: scale, reading: readings?.highlight)) }
        if !shadows.holds { parts.append(lacking(shadows, scale: scale, reading: readings?.shadow)) }
        return parts.joined(separator: "; ")
    }

    private static func lacking(_ finding: RangeFinding, scale: ShutterScale, reading: ShutterSpeed?) -> String {
        guard let missing = finding.missing else { return "" }
        let state = finding.end == .highlights ? "clipped" : "blocked"
        var text = "\(finding.end.rawValue): \(percent(finding.fraction)) still \(state) at \(finding.speed.label)"
        guard let addition = finding.addition else {
            let fix =
                finding.end == .highlights ? "a smaller aperture or a lower ISO" : "a wider aperture or a higher ISO"
            return text + "; the scale ends there: shoot \(missing.label) EV more with \(fix)"
        }
        let speeds = scale.allSpeeds
        let from = RangeCheck.nearestPosition(of: finding.speed, in: speeds)
        let to = RangeCheck.nearestPosition(of: addition, in: speeds)
        let reached = EVAmount(sixths: abs(to - from) * 6 / scale.stepsPerEV)
        text += "; add \(addition.label) (\(reached.label) EV)"
        if reached < missing { text += ", the end of the scale; the rest needs aperture or ISO" }
        if let reading {
            let position = RangeCheck.nearestPosition(of: reading, in: speeds)
            // The reading moves as far as the end of the bracket does.
            let moved = speeds[min(speeds.count - 1, max(0, position + to - from))]
            text += " or rerun with --\(finding.end == .highlights ? "highlight" : "shadow") \(moved.label)"
        }
        return text
    }

    /// A fraction as a percentage a person reads at a glance: `0.02 %`, `0.6 %`, `24 %`.
    static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        let decimals = value < 0.1 ? 2 : value < 10 ? 1 : 0
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let whole = scaled / scale
        guard decimals > 0 else { return "\(whole) %" }
        var fractionDigits = String(scaled % scale)
        while fractionDigits.count < decimals { fractionDigits = "0" + fractionDigits }
        // Trailing zeros go: 0.60 reads 0.6, 2.0 reads 2.
        while fractionDigits.hasSuffix("0") { fractionDigits.removeLast() }
        return fractionDigits.isEmpty ? "\(whole) %" : "\(whole).\(fractionDigits) %"
    }
}
