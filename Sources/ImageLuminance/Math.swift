/// The few transcendental functions the pure target needs, written out so it links no libm (as `Exposure`
/// avoids it too): base-2 logarithm and exponential, a power built from them, and cosine for the DCT tables.
///
/// Accuracy is about 1e-12 relative over the ranges used here (luminances, exposure ratios, DCT angles); none
/// of them is on a hot path (tables are built once, verdicts computed once per frame).
enum Math {
    /// The base-2 logarithm of a positive, finite `x` (-infinity for 0).
    static func log2(_ x: Double) -> Double {
        precondition(x >= 0 && x.isFinite, "log2 of \(x)")
        if x == 0 { return -.infinity }
        // x = m * 2^e with m in [1, 2); log2(m) = 2 atanh(s) / ln 2 with s = (m - 1) / (m + 1) in [0, 1/3).
        let exponent = Double(x.exponent)
        let m = x.significand
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var term = s
        var sum = 0.0
        var k = 1.0
        while k < 40 {
            sum += term / k
            term *= s2
            k += 2
        }
        return exponent + 2 * sum / ln2
    }

    /// 2 raised to `x` (0 below -1000, infinity above 1000).
    static func exp2(_ x: Double) -> Double {
        if x < -1000 { return 0 }
        if x > 1000 { return .infinity }
        let whole = x.rounded(.down)
        let fraction = (x - whole) * ln2 // e^fraction, fraction in [0, ln 2)
        var term = 1.0
        var sum = 1.0
        for n in 1...20 {
            term *= fraction / Double(n)
            sum += term
        }
        return sum * Double(sign: .plus, exponent: Int(whole), significand: 1)
    }

    /// `base` raised to `exponent`, for a positive base (0 for a zero base).
    static func pow(_ base: Double, _ exponent: Double) -> Double {
        base <= 0 ? 0 : exp2(exponent * log2(base))
    }

    /// The cosine of `x` radians, for |x| up to a few times pi.
    static func cos(_ x: Double) -> Double {
        // Reduce to [-pi, pi], then the Taylor series (30 terms reach far below 1e-15 there).
        var y = x
        while y > Double.pi { y -= 2 * Double.pi }
        while y < -Double.pi { y += 2 * Double.pi }
        let y2 = y * y
        var term = 1.0
        var sum = 1.0
        for n in stride(from: 2, through: 60, by: 2) {
            term *= -y2 / Double((n - 1) * n)
            sum += term
        }
        return sum
    }

    /// ln 2.
    static let ln2 = 0.693_147_180_559_945_3
}
