extension SpeedMatcher {
    /// Plans two readings on what one camera offers: readings outside the camera's timed speeds are moved
    /// to its own fastest (and, without BULB, longest) stop of the planner's scale and planned again from
    /// there, instead of substituting frames into duplicates (a 1/8000 plan on a 1/4000 body starts at 1/4000
    /// rather than shooting 1/4000 twice). The clamps are warned about (highlights may clip, shadows may be
    /// dark); what still does not match goes through `match`, so no set shoots one speed twice.
    ///
    /// A shadow past 30" is never clamped: its bulb frames need BULB, which the caller reports when missing
    /// (mode S offers none).
    package static func plan(
        _ planner: BracketPlanner, shadow: ShutterSpeed, highlight: ShutterSpeed, offered: [ShutterSpeed],
        offersBulb: Bool
    ) throws(ExposureError) -> MatchedPlan {
        guard let fastestOffered = offered.min(), let longestOffered = offered.max() else { throw .noOfferedSpeeds }
        let stops = planner.scale.allSpeeds
        var warnings: [String] = []
        var highlight = highlight
        var shadow = shadow

        let fastestThirds = fastestOffered.nominalThirds
        if highlight.nominalThirds < fastestThirds,
            let clamped = stops.first(where: { $0.nominalThirds >= fastestThirds })
        {
            let stopsLost = EVAmount(sixths: 2 * (clamped.nominalThirds - highlight.nominalThirds))
            warnings.append(
                "the camera's fastest speed is \(fastestOffered.label): the plan starts at \(clamped.label) instead "
                    + "of the highlight reading \(highlight.label), so the brightest highlights may clip "
                    + "(\(stopsLost.label) EV)")
            highlight = clamped
        }
        let longestThirds = longestOffered.nominalThirds
        if !offersBulb, !shadow.isBulb, shadow.nominalThirds > longestThirds,
            let clamped = stops.last(where: { $0.nominalThirds <= longestThirds })
        {
            let stopsLost = EVAmount(sixths: 2 * (shadow.nominalThirds - clamped.nominalThirds))
            warnings.append(
                "the camera's longest speed is \(longestOffered.label): the plan ends at \(clamped.label) instead "
                    + "of the shadow reading \(shadow.label), so the darkest shadows may be too dark "
                    + "(\(stopsLost.label) EV)")
            shadow = clamped
            // Both readings past the long end: a single exposure there.
            if highlight > shadow { highlight = shadow }
        }
        // Both readings past the fast end: a single exposure there.
        if shadow < highlight { shadow = highlight }

        let plan = try planner.plan(shadow: shadow, highlight: highlight)
        let matched = try match(plan, offered: offered, offersBulb: offersBulb, dedupe: planner.dedupe)
        return MatchedPlan(
            sets: matched.sets, plannedSets: matched.plannedSets,
            warnings: warnings + plan.warnings + matched.warnings)
    }
}
