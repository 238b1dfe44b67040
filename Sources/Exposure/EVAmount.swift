/// An exact amount of exposure in EV (stops), counted in sixths so both 1/3- and 1/2-stop values are exact.
package struct EVAmount: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The amount in sixths of a stop (1 EV = 6, 1/3 EV = 2, 1/2 EV = 3).
    package let sixths: Int

    /// Creates an amount of `sixths` sixths of a stop.
    package init(sixths: Int) {
        self.sixths = sixths
    }

    /// Creates an amount of whole stops.
    package init(stops: Int) {
        self.sixths = stops * 6
    }

    /// The amount in EV as a floating-point number (for JSON and arithmetic on times).
    package var ev: Double { Double(sixths) / 6 }

    /// How photographers write it: `1`, `0.3` (1/3), `0.7` (2/3), `1.5`, `2.3`, `-1`.
    ///
    /// Thirds are shown with one decimal the way cameras show them (1/3 as .3, 2/3 as .7); a value that is
    /// neither a third nor a half falls back to tenths.
    package var label: String {
        let sign = sixths < 0 ? "-" : ""
        let magnitude = abs(sixths)
        let whole = magnitude / 6
        let rest = magnitude % 6
        let decimal: Int
        switch rest {
        case 0: return "\(sign)\(whole)"
        case 2: decimal = 3
        case 3: decimal = 5
        case 4: decimal = 7
        default: decimal = (rest * 10 + 3) / 6
        }
        return "\(sign)\(whole).\(decimal)"
    }

    /// The label with its unit: `1.3 EV`.
    package var description: String { "\(label) EV" }

    /// Smaller amounts sort first.
    package static func < (lhs: EVAmount, rhs: EVAmount) -> Bool { lhs.sixths < rhs.sixths }
}
