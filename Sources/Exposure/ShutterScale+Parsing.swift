/// A shutter speed read from what a person typed, resolved to a stop of a scale.
package struct ParsedSpeed: Sendable, Hashable {
    /// The stop of the scale to use.
    package let speed: ShutterSpeed
    /// The text as typed (trimmed), for messages.
    package let typed: String
    /// Whether the typed value was not a stop and was moved to the nearest one (the caller should say so).
    package let wasSnapped: Bool

    /// Creates a parse result.
    package init(speed: ShutterSpeed, typed: String, wasSnapped: Bool) {
        self.speed = speed
        self.typed = typed
        self.wasSnapped = wasSnapped
    }
}

extension ShutterScale {
    /// The largest time ratio between a typed value and its nearest stop that still snaps: one scale step
    /// (2^(1/3) or 2^(1/2)). Written out because the pure target has no `pow`.
    var snapRatioLimit: Double {
        switch self {
        case .third: 1.2599210498948732
        case .half: 1.4142135623730951
        }
    }

    /// Reads a shutter speed the way people type it and resolves it to a stop of this scale.
    ///
    /// Accepts `1/250`, `0.5`, `0.5"`, `0.5s`, `2`, `2"`, `2s`, `1/2`, and with a unit also bulb times:
    /// `40"`, `80s`, `1'`, `1'20"`, `2m30s`, `4m`. A label the camera shows (`0.3`, `2.5`) means that stop even
    /// when the label rounds (the 0.3" stop is 1/3 s). A bare number is resolved on the timed speeds only, as
    /// before bulb: `250` is refused rather than read as 250 seconds, since the camera shows 1/250 as `250`.
    /// A value within one step of a stop snaps to the nearest stop (`wasSnapped`); anything else throws,
    /// naming the nearest stop.
    package func parseSpeed(_ text: String) throws(ExposureError) -> ParsedSpeed {
        let typed = Self.trimmed(text)
        let fraction: DecimalFraction
        let hasUnit: Bool
        if let minuteMark = typed.firstIndex(where: { Self.minuteMarks.contains($0) }) {
            fraction = try Self.minutesAndSeconds(typed, minuteMark: minuteMark)
            hasUnit = true
        } else {
            var body = Substring(typed)
            hasUnit = body.last.map { Self.secondMarks.contains($0) } ?? false
            if hasUnit { body = body.dropLast() }
            guard !body.isEmpty else { throw .notASpeed(text: typed) }
            for speed in speeds where Self.labelNumber(speed) == body {
                return ParsedSpeed(speed: speed, typed: typed, wasSnapped: false)
            }
            guard let parsed = DecimalFraction(parsing: body) else { throw .notASpeed(text: typed) }
            fraction = parsed
        }
        guard fraction.numerator > 0 else { throw .nonPositiveSpeed(text: typed) }

        let speeds = hasUnit ? allSpeeds : self.speeds
        let value = ShutterSpeed(numerator: fraction.numerator, denominator: fraction.denominator)
        if let index = speeds.firstIndex(of: value) {
            return ParsedSpeed(speed: speeds[index], typed: typed, wasSnapped: false)
        }
        // Nearest in log distance: minimising max(t/s, s/t) minimises |log2(t/s)| without needing libm.
        let seconds = value.seconds
        var nearest = speeds[0]
        var nearestRatio = Double.infinity
        for speed in speeds {
            let ratio = max(seconds / speed.seconds, speed.seconds / seconds)
            if ratio < nearestRatio {
                nearest = speed
                nearestRatio = ratio
            }
        }
        guard nearestRatio <= snapRatioLimit else {
            throw .speedOffScale(text: typed, scale: self, nearest: nearest)
        }
        return ParsedSpeed(speed: nearest, typed: typed, wasSnapped: true)
    }

    /// Marks ending a seconds value: `"`, `s`, and the typographic forms phones and word processors put in.
    static let secondMarks: Set<Character> = ["\"", "s", "″", "”"]

    /// Marks ending a minutes value: `'`, `m` (also `min`), and the typographic forms.
    static let minuteMarks: Set<Character> = ["'", "m", "′", "’"]

    /// `2'30"`, `2m30s`, `2'30`, `1'`, `4m`, `1.5min`: minutes, then optional seconds below 60 (whole minutes
    /// only when seconds follow), as one exact fraction of seconds.
    private static func minutesAndSeconds(
        _ typed: String, minuteMark: String.Index
    ) throws(ExposureError) -> DecimalFraction {
        let text = Substring(typed)
        var rest = text[text.index(after: minuteMark)...]
        if text[minuteMark] == "m" && rest.hasPrefix("in") { rest = rest.dropFirst(2) }
        guard var minutes = DecimalFraction(parsing: text[..<minuteMark]) else { throw .notASpeed(text: typed) }
        let hadSecondMark = rest.last.map { secondMarks.contains($0) } ?? false
        if hadSecondMark { rest = rest.dropLast() }
        if rest.isEmpty {
            // `2ms` is no duration a shutter knows: a seconds mark needs seconds before it.
            guard !hadSecondMark else { throw .notASpeed(text: typed) }
            let scaled = minutes.numerator.multipliedReportingOverflow(by: 60)
            guard !scaled.overflow else { throw .notASpeed(text: typed) }
            minutes.numerator = scaled.partialValue
            return minutes
        }
        guard minutes.denominator == 1, minutes.numerator >= 0, minutes.numerator < 10_000,
            let seconds = DecimalFraction(parsing: rest), seconds.numerator >= 0,
            seconds.numerator < 60 * seconds.denominator
        else { throw .notASpeed(text: typed) }
        // Whole minutes under 10 000 and seconds of at most 10 characters: the sum cannot overflow.
        return DecimalFraction(
            numerator: minutes.numerator * 60 * seconds.denominator + seconds.numerator,
            denominator: seconds.denominator)
    }

    /// A label without its seconds mark: `1/250`, `0.3`, `30`.
    static func labelNumber(_ speed: ShutterSpeed) -> Substring {
        let label = Substring(speed.label)
        return label.hasSuffix("\"") ? label.dropLast() : label
    }

    /// The text without leading and trailing spaces (no Foundation in this target).
    static func trimmed(_ text: String) -> String {
        let characters = Substring(text)
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
            let last = characters.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(characters[first...last])
    }
}
