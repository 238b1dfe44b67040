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
    /// Accepts `1/250`, `0.5`, `0.5"`, `0.5s`, `2`, `2"`, `2s`, `1/2`. A label the camera shows (`0.3`, `2.5`)
    /// means that stop even when the label rounds (the 0.3" stop is 1/3 s). A value within one step of a
    /// stop snaps to the nearest stop (`wasSnapped`); anything else throws, naming the nearest stop.
    package func parseSpeed(_ text: String) throws(ExposureError) -> ParsedSpeed {
        let typed = Self.trimmed(text)
        var body = Substring(typed)
        if body.hasSuffix("\"") || body.hasSuffix("s") || body.hasSuffix("″") {
            body = body.dropLast()
        }
        guard !body.isEmpty else { throw .notASpeed(text: typed) }

        let speeds = self.speeds
        for speed in speeds where Self.labelNumber(speed) == body {
            return ParsedSpeed(speed: speed, typed: typed, wasSnapped: false)
        }
        guard let fraction = DecimalFraction(parsing: body) else { throw .notASpeed(text: typed) }
        guard fraction.numerator > 0 else { throw .nonPositiveSpeed(text: typed) }

        let value = ShutterSpeed(numerator: fraction.numerator, denominator: fraction.denominator)
        if let index = index(of: value) {
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

    /// The fast speed a bare whole number too long to be seconds most likely meant (`250` → 1/250), or nil.
    /// People read fast speeds off a screen as `250`; `250"` or `250s` say seconds and get no suggestion.
    package func reciprocalSuggestion(for text: String) -> ShutterSpeed? {
        let typed = Self.trimmed(text)
        guard !typed.isEmpty, typed.allSatisfy(\.isNumber), let value = Int(typed), Double(value) > longest.seconds,
              let parsed = try? parseSpeed("1/\(value)") else { return nil }
        return parsed.speed
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
              let last = characters.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(characters[first...last])
    }
}
