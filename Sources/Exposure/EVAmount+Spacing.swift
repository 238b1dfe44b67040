extension EVAmount {
    /// The bracket spacings the planner accepts on either scale: 1/3-stop multiples from 1/3 to 3 EV, plus
    /// 1.5 and 2.5 EV.
    package static let allowedSpacings: [EVAmount] = [2, 4, 6, 8, 9, 10, 12, 14, 15, 16, 18].map {
        EVAmount(sixths: $0)
    }

    /// Reads a bracket spacing as people type it: `1`, `0.3`, `0.33`, `1/3`, `0.7`, `2/3`, `1.5`, `2ev`.
    ///
    /// A value within 0.05 EV of an allowed spacing means that spacing (so `0.3` and `0.33` are 1/3 EV);
    /// anything else throws `invalidSpacing` listing the allowed values.
    package static func spacing(parsing text: String) throws(ExposureError) -> EVAmount {
        let typed = ShutterScale.trimmed(text)
        var body = Substring(typed)
        if body.lowercased().hasSuffix("ev") { body = body.dropLast(2) }
        guard let fraction = DecimalFraction(parsing: body), fraction.numerator > 0 else {
            throw .invalidSpacing(text: typed, allowed: allowedSpacings)
        }
        let value = fraction.value
        for spacing in allowedSpacings where abs(spacing.ev - value) < 0.05 {
            return spacing
        }
        throw .invalidSpacing(text: typed, allowed: allowedSpacings)
    }
}
