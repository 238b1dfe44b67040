import Exposure

extension SeriesRecord.Base {
    /// The readings of repetition `number` when each repetition is `shift` slower than the previous one:
    /// both readings move `(number - 1) × shift` along the scale (rounded to whole steps of it), and neither
    /// goes past `longest` (nor past the scale's ends). A negative shift (dawn) moves them faster.
    package func readings(
        forRepetition number: Int, shift: EVAmount?, longest: ShutterSpeed?
    ) -> (shadow: ShutterSpeed, highlight: ShutterSpeed) {
        guard let shift, shift.sixths != 0, number > 1 else { return (shadow, highlight) }
        let speeds = scale.speeds
        let cap = longest.flatMap { limit in speeds.lastIndex { $0 <= limit } } ?? speeds.count - 1
        // Whole scale steps, rounded half away from zero: 1/3 EV is one step of the third scale.
        let sixths = shift.sixths * (number - 1) * scale.stepsPerEV
        let steps = sixths >= 0 ? (sixths + 3) / 6 : -((-sixths + 3) / 6)
        func moved(_ speed: ShutterSpeed) -> ShutterSpeed {
            guard let index = scale.index(of: speed) else { return speed }
            // A reading already past the cap stays where it is rather than being pulled back.
            return speeds[min(max(index + steps, 0), max(cap, index))]
        }
        let movedShadow = moved(shadow)
        let movedHighlight = moved(highlight)
        return (movedShadow, min(movedHighlight, movedShadow))
    }

    /// The plan of repetition `number`: the base readings shifted (see `readings(forRepetition:shift:longest:)`)
    /// and planned with the series' planner settings.
    package func plan(
        forRepetition number: Int, shift: EVAmount?, longest: ShutterSpeed?
    ) throws(ExposureError) -> BracketPlan {
        let planner = try BracketPlanner(frames: frames, spacing: spacing, scale: scale, dedupe: dedupe, order: order)
        let readings = readings(forRepetition: number, shift: shift, longest: longest)
        return try planner.plan(shadow: readings.shadow, highlight: readings.highlight)
    }
}
