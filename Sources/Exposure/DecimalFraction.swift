/// An exact non-negative or negative fraction read from what people type: `2`, `0.5`, `1/250`, `2.5/10`.
///
/// Parsed by hand, digit by digit, so `0.4` is exactly 4/10 (no floating-point detour) and the pure target
/// needs no Foundation.
struct DecimalFraction: Sendable, Hashable {
    /// The numerator; negative for negative values.
    var numerator: Int
    /// The denominator, always positive.
    var denominator: Int

    /// The value as a Double (for distance comparisons only).
    var value: Double { Double(numerator) / Double(denominator) }

    /// A fraction from its parts (the denominator positive).
    init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Parses `a`, `a.b`, `a/b` or `a.b/c.d`; returns `nil` for anything else, for parts longer than 10
    /// characters, and for values whose exact fraction would exceed `limit`.
    init?(parsing text: Substring) {
        var text = text
        var negative = false
        if text.first == "-" {
            negative = true
            text = text.dropFirst()
        } else if text.first == "+" {
            text = text.dropFirst()
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
            let top = Self.decimal(parts[0])
        else { return nil }
        var numerator = top.numerator
        var denominator = top.denominator
        if parts.count == 2 {
            // A zero denominator is not a number: reported as garbage, like any other unreadable text.
            guard let bottom = Self.decimal(parts[1]), bottom.numerator != 0 else { return nil }
            // Typed text must never trap: products that overflow, or exceed what any comparison with a
            // scale speed can multiply safely, are not speeds anyone meters.
            let top = numerator.multipliedReportingOverflow(by: bottom.denominator)
            let bottomProduct = denominator.multipliedReportingOverflow(by: bottom.numerator)
            guard !top.overflow, !bottomProduct.overflow else { return nil }
            numerator = top.partialValue
            denominator = bottomProduct.partialValue
        }
        guard numerator <= Self.limit, denominator <= Self.limit else { return nil }
        self.numerator = negative ? -numerator : numerator
        self.denominator = denominator
    }

    /// The largest numerator or denominator kept: 10^12, so `ShutterSpeed` cross-multiplication with any
    /// camera speed (16-bit parts) stays far inside `Int`.
    static let limit = 1_000_000_000_000

    /// Reads unsigned `digits[.digits]` as numerator/10^k.
    private static func decimal(_ text: Substring) -> (numerator: Int, denominator: Int)? {
        guard !text.isEmpty, text.count <= 10 else { return nil }
        var numerator = 0
        var denominator = 1
        var seenPoint = false
        var digitCount = 0
        for character in text.utf8 {
            if character == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
                continue
            }
            guard character >= UInt8(ascii: "0"), character <= UInt8(ascii: "9") else { return nil }
            numerator = numerator * 10 + Int(character - UInt8(ascii: "0"))
            digitCount += 1
            if seenPoint { denominator *= 10 }
        }
        guard digitCount > 0 else { return nil }
        return (numerator, denominator)
    }
}
