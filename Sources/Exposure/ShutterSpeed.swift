/// An exposure time as an exact fraction of a second, the way Sony cameras encode it.
///
/// Two speeds are equal when their values are equal: 300/10 and 30/1 are both 30".
/// The numerator and denominator are kept as given, because the camera wants its own
/// encoding back (0.4" is 4/10, not 2/5).
package struct ShutterSpeed: Sendable, Codable, CustomStringConvertible {
    /// Seconds numerator (Sony: high 16 bits of 0xD20D).
    package let numerator: Int
    /// Seconds denominator (Sony: low 16 bits of 0xD20D).
    package let denominator: Int

    /// Creates a speed of `numerator/denominator` seconds; both must be positive.
    package init(numerator: Int, denominator: Int) {
        precondition(numerator > 0 && denominator > 0, "a shutter speed is a positive fraction")
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The exposure time in seconds.
    package var seconds: Double { Double(numerator) / Double(denominator) }

    /// The label a camera displays: `1/250` below 0.3 s, else seconds with `"` (`0.3"`, `2.5"`, `30"`, `50"`);
    /// from one minute on, minutes with `'` and any rest in seconds (`1'`, `1'20"`, `2'30"`, `4'`).
    ///
    /// Minutes are how photographers write bulb times (and what a bulb timer shows); 30" and below never reach
    /// that branch, so every timed speed keeps the camera's own label.
    package var label: String {
        if numerator == 1 && denominator > 3 { return "1/\(denominator)" }
        if numerator % denominator == 0 {
            let whole = numerator / denominator
            guard whole >= 60 else { return "\(whole)\"" }
            let rest = whole % 60
            return rest == 0 ? "\(whole / 60)'" : "\(whole / 60)'\(rest)\""
        }
        // Tenths are how cameras show sub-second and fractional long exposures (1/3 s shows as 0.3").
        // Integer arithmetic, rounded half up: the pure target links no libm.
        let tenths = (numerator * 10 + denominator / 2) / denominator
        let whole = tenths / 10
        let fraction = tenths % 10
        return fraction == 0 ? "\(whole)\"" : "\(whole).\(fraction)\""
    }

    /// The camera label.
    package var description: String { label }

    /// The longest timed speed of Sony bodies (30"); anything longer is shot in BULB with the release held.
    package static let longestTimed = ShutterSpeed(numerator: 30, denominator: 1)

    /// Whether this exposure is longer than the longest timed speed, so it can only be shot in BULB.
    package var isBulb: Bool { self > Self.longestTimed }
}

extension ShutterSpeed: Hashable, Comparable {
    /// Equal values are equal speeds, whatever the encoding (300/10 == 30/1).
    package static func == (lhs: ShutterSpeed, rhs: ShutterSpeed) -> Bool {
        lhs.numerator * rhs.denominator == rhs.numerator * lhs.denominator
    }

    /// Hashes the reduced fraction, consistent with `==`.
    package func hash(into hasher: inout Hasher) {
        let divisor = Self.gcd(numerator, denominator)
        hasher.combine(numerator / divisor)
        hasher.combine(denominator / divisor)
    }

    /// Shorter exposures sort first.
    package static func < (lhs: ShutterSpeed, rhs: ShutterSpeed) -> Bool {
        lhs.numerator * rhs.denominator < rhs.numerator * lhs.denominator
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
