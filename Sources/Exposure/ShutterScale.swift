/// A camera's ladder of timed shutter speeds, fastest first, with neighbours a fixed fraction of a stop apart.
///
/// Index 0 is the fastest speed (1/8000); each next index is one step (1/3 or 1/2 EV) longer. The speeds are
/// the exact rationals Sony cameras use (0.4" is 4/10, the 0.3" stop is 1/3), and their labels are what the
/// camera displays. Past 30" the ladder continues with bulb stops (`bulbSpeeds`, to 30'), which the planner uses
/// up to its `longest` and the camera shoots by holding the release in BULB.
package enum ShutterScale: String, Sendable, Hashable, Codable, CaseIterable {
    /// The standard 1/3-stop scale: 55 timed speeds from 1/8000 to 30", then 18 bulb stops to 30'.
    case third
    /// The 1/2-stop scale: 37 timed speeds from 1/8000 to 30", then 12 bulb stops to 30'.
    case half

    /// How many scale steps make one EV (3 on the 1/3-stop scale, 2 on the 1/2-stop scale).
    package var stepsPerEV: Int {
        switch self {
        case .third: 3
        case .half: 2
        }
    }

    /// The timed speeds of this scale, fastest first (1/8000 to 30").
    package var speeds: [ShutterSpeed] {
        switch self {
        case .third: Self.thirdStopSpeeds
        case .half: Self.halfStopSpeeds
        }
    }

    /// The stops past 30", shortest first, to 30': the same steps continued the way photographers round
    /// them (each minute stop mirrors a seconds stop: 4', 5', 6', 8', ... like 4", 5", 6", 8", ...).
    package var bulbSpeeds: [ShutterSpeed] {
        switch self {
        case .third: Self.thirdStopBulbSpeeds
        case .half: Self.halfStopBulbSpeeds
        }
    }

    /// Every stop of the scale, timed then bulb: 1/8000 to 30'. Indices of timed speeds equal their
    /// indices in `speeds`, so plans below 30" are unchanged by the bulb stops.
    package var allSpeeds: [ShutterSpeed] {
        switch self {
        case .third: Self.thirdStopAllSpeeds
        case .half: Self.halfStopAllSpeeds
        }
    }

    /// The longest stop of the scale, bulb included (30').
    package var longestBulb: ShutterSpeed { Self.thirdStopBulbSpeeds[Self.thirdStopBulbSpeeds.count - 1] }

    /// The fastest speed on the scale (1/8000).
    package var fastest: ShutterSpeed { speeds[0] }

    /// The longest timed speed on the scale (30"); anything longer needs bulb.
    package var longest: ShutterSpeed { speeds[speeds.count - 1] }

    /// A short human name for messages: `1/3-stop` or `1/2-stop`.
    package var displayName: String {
        switch self {
        case .third: "1/3-stop"
        case .half: "1/2-stop"
        }
    }

    /// The index of `speed` in `allSpeeds` (by value, so 300/10 finds 30"), or `nil` when it is not a stop here.
    package func index(of speed: ShutterSpeed) -> Int? {
        // Linear search over at most 73 entries beats hashing here (no allocation, a few compares).
        let speeds = self.allSpeeds
        for index in speeds.indices where speeds[index] == speed { return index }
        return nil
    }

    /// The distance from `faster` to `slower` as an amount of EV (negative when `slower` is faster).
    ///
    /// Both speeds must be stops of this scale; returns `nil` otherwise.
    package func distance(from faster: ShutterSpeed, to slower: ShutterSpeed) -> EVAmount? {
        guard let start = index(of: faster), let end = index(of: slower) else { return nil }
        return EVAmount(sixths: (end - start) * (6 / stepsPerEV))
    }

    // MARK: - The tables

    /// 1/8000 ... 30" in 1/3 EV steps, as Sony encodes them (numerator/denominator).
    static let thirdStopSpeeds: [ShutterSpeed] = [
        (1, 8000), (1, 6400), (1, 5000), (1, 4000), (1, 3200), (1, 2500), (1, 2000), (1, 1600), (1, 1250),
        (1, 1000), (1, 800), (1, 640), (1, 500), (1, 400), (1, 320), (1, 250), (1, 200), (1, 160), (1, 125),
        (1, 100), (1, 80), (1, 60), (1, 50), (1, 40), (1, 30), (1, 25), (1, 20), (1, 15), (1, 13), (1, 10),
        (1, 8), (1, 6), (1, 5), (1, 4), (1, 3), (4, 10), (5, 10), (6, 10), (8, 10), (1, 1), (13, 10),
        (16, 10), (2, 1), (25, 10), (32, 10), (4, 1), (5, 1), (6, 1), (8, 1), (10, 1), (13, 1), (15, 1),
        (20, 1), (25, 1), (30, 1)
    ].map { ShutterSpeed(numerator: $0.0, denominator: $0.1) }

    /// 40" ... 30' in 1/3 EV steps (seconds and minutes as whole seconds over 1).
    static let thirdStopBulbSpeeds: [ShutterSpeed] = [
        40, 50, 60, 80, 100, 120, 150, 200, 240, 300, 360, 480, 600, 780, 900, 1200, 1500, 1800
    ].map { ShutterSpeed(numerator: $0, denominator: 1) }

    /// 45" ... 30' in 1/2 EV steps.
    static let halfStopBulbSpeeds: [ShutterSpeed] = [
        45, 60, 90, 120, 180, 240, 360, 480, 600, 900, 1200, 1800
    ].map { ShutterSpeed(numerator: $0, denominator: 1) }

    /// The whole 1/3-stop ladder, timed then bulb.
    static let thirdStopAllSpeeds = thirdStopSpeeds + thirdStopBulbSpeeds

    /// The whole 1/2-stop ladder, timed then bulb.
    static let halfStopAllSpeeds = halfStopSpeeds + halfStopBulbSpeeds

    /// 1/8000 ... 30" in 1/2 EV steps, as Sony encodes them (numerator/denominator).
    static let halfStopSpeeds: [ShutterSpeed] = [
        (1, 8000), (1, 6000), (1, 4000), (1, 3000), (1, 2000), (1, 1500), (1, 1000), (1, 750), (1, 500),
        (1, 350), (1, 250), (1, 180), (1, 125), (1, 90), (1, 60), (1, 45), (1, 30), (1, 20), (1, 15),
        (1, 10), (1, 8), (1, 6), (1, 4), (1, 3), (5, 10), (7, 10), (1, 1), (15, 10), (2, 1), (3, 1),
        (4, 1), (6, 1), (8, 1), (10, 1), (15, 1), (20, 1), (30, 1)
    ].map { ShutterSpeed(numerator: $0.0, denominator: $0.1) }
}
