import Exposure

/// A simulated scene: a luminance map in scene-linear units, and what exposure times its range needs.
///
/// Units are relative exposure per second: a point of luminance `L` shot for `t` seconds gets exposure `L · t`,
/// which `ToneCurve` turns into a level (1 is bright, about level 207; 0.18 is middle grey). Each scene's
/// brightest and darkest regions are large enough for the range check's default thresholds to see them (the
/// brightest covers more than 0.02 % of the frame, the darkest more than 10 %), so its true range is the range
/// check's too.
package struct Scene: Sendable {
    /// The names `hdrshoot simulate --scene` takes.
    package enum Name: String, Sendable, CaseIterable {
        /// A dark room with a sunlit window, about 14 EV.
        case interiorWindow = "interior-window"
        /// A bright sky with the sun above a dark foreground, about 12.7 EV.
        case sunset
        /// A dark street with a few bright lamps, about 14.6 EV.
        case nightStreet = "night-street"
        /// A flat grey card: no range at all.
        case greyCard = "grey-card"
    }

    /// Which scene.
    package let name: Name
    /// One line for `--help`.
    package let summary: String
    /// The luminance of the brightest region.
    package let brightest: Double
    /// The luminance of the darkest region.
    package let darkest: Double
    /// The luminance at a point (`x` across, `y` down, both 0..<1).
    package let luminance: @Sendable (_ x: Double, _ y: Double) -> Double

    /// The scene's range in EV, from the darkest to the brightest region.
    package var rangeEV: Double { Math.log2(brightest / darkest) }

    /// The longest stop of `scale` that keeps the brightest region at or below `ToneCurve`'s level 235, and
    /// the shortest that lifts the darkest region to level 50 or more: a bracket from the first to the second
    /// holds the whole scene.
    package func trueRange(scale: ShutterScale = .third) -> (highlight: ShutterSpeed, shadow: ShutterSpeed) {
        let holdSeconds = ToneCurve.exposure(level: 235) / brightest
        let openSeconds = ToneCurve.exposure(level: 50) / darkest
        let speeds = scale.allSpeeds
        let highlight = speeds.last { $0.seconds <= holdSeconds } ?? speeds[0]
        let shadow = speeds.first { $0.seconds >= openSeconds } ?? speeds[speeds.count - 1]
        return (highlight, shadow)
    }

    /// The scene called `name`.
    package static func named(_ name: Name) -> Scene {
        switch name {
        case .interiorWindow: return interiorWindow
        case .sunset: return sunset
        case .nightStreet: return nightStreet
        case .greyCard: return greyCard
        }
    }

    /// Every scene, in `Name` order.
    package static var all: [Scene] { Name.allCases.map(named) }
}

extension Scene {
    /// A room lit only by its window: walls fall off away from it, the corner under the table is darkest
    /// (0.025, a quarter of the frame); the window shows sunlit sky (400) with a frame cross; 14 EV in all.
    static let interiorWindow = Scene(
        name: .interiorWindow, summary: "a dark room with a sunlit window (about 14 EV)", brightest: 400,
        darkest: 0.025
    ) { x, y in
        if x > 0.55, x < 0.8, y > 0.15, y < 0.5 {
            let bar = abs(x - 0.675) < 0.01 || abs(y - 0.325) < 0.01
            return bar ? 3 : 400 - 200 * (y - 0.15) // the sky, brighter at the top
        }
        if x < 0.5, y > 0.5 { return 0.025 } // under the table
        let distance = abs(x - 0.675) + abs(y - 0.33)
        return 2 / (1 + 12 * distance * distance) // walls and floor, lit from the window
    }

    /// The sun (4,000, a disc of about 0.3 % of the frame) low in a sky that dims from 800 to 200 towards the
    /// top, above a foreground in silhouette (0.6, the lower third); 12.7 EV in all.
    static let sunset = Scene(
        name: .sunset, summary: "a bright sky with the sun over a dark foreground (about 12.7 EV)", brightest: 4000,
        darkest: 0.6
    ) { x, y in
        if y > 0.66 { return 0.6 }
        let dx = (x - 0.6) * 1.5
        let dy = y - 0.55
        if dx * dx + dy * dy < 0.0025 { return 4000 }
        return 200 + 600 * y / 0.66
    }

    /// A night street: a black sky (0.004, the top third), dim facades, three lamps (100, about 2 % of the frame
    /// together: each a few 8x8 blocks wide at the default render size, since the check sees block means) and
    /// the pools of light under them; 14.6 EV in all.
    static let nightStreet = Scene(
        name: .nightStreet, summary: "a dark street with a few bright lamps (about 14.6 EV)", brightest: 100,
        darkest: 0.004
    ) { x, y in
        for lamp in [0.2, 0.5, 0.8] {
            let dx = (x - lamp) * 1.5
            let dy = y - 0.4
            if dx * dx + dy * dy < 0.004 { return 100 }
        }
        if y < 0.33 { return 0.004 }
        let pool = [0.2, 0.5, 0.8].map { abs(x - $0) }.min() ?? 1
        return y > 0.75 ? 0.05 + 0.5 / (1 + 100 * pool * pool) : 0.02
    }

    /// A flat grey card of luminance 1: every frame is flat, the range is 0 EV.
    static let greyCard = Scene(
        name: .greyCard, summary: "a flat grey card (0 EV)", brightest: 1, darkest: 1
    ) { _, _ in 1 }
}
