import Testing

@testable import Exposure

/// Planning on the speeds one camera offers: readings clamped to its range, never one exposure twice.
@Suite struct SpeedMatcherReplanningTests {
    /// The third-stop timed ladder of a body topping out at 1/4000.
    static let upTo4000 = Array(ShutterScale.third.speeds.dropFirst(3))

    @Test func aHighlightPastTheCamerasFastestIsPlannedFromItWithAClipWarning() throws {
        let matched = try SpeedMatcher.plan(
            try BracketPlanner(), shadow: speed("1/500"), highlight: speed("1/8000"), offered: Self.upTo4000,
            offersBulb: true)
        #expect(matched.sets.map { $0.map(\.label) } == [["1/4000", "1/2000", "1/1000", "1/500", "1/250"]])
        #expect(matched.substitutions.isEmpty)
        #expect(
            matched.warnings == [
                "the camera's fastest speed is 1/4000: the plan starts at 1/4000 instead of the highlight reading 1/8000, "
                    + "so the brightest highlights may clip (1 EV)"
            ])
    }

    @Test(arguments: [2, 3, 5, 9])
    func noPlanOnALimitedBodyShootsOneSpeedTwiceInASet(frames: Int) throws {
        let planner = try BracketPlanner(frames: frames, spacing: EVAmount(sixths: 2), dedupe: true)
        for shadow in ShutterScale.third.speeds.prefix(20) {
            let matched = try SpeedMatcher.plan(
                planner, shadow: shadow, highlight: speed("1/8000"), offered: Self.upTo4000, offersBulb: false)
            let shot = matched.sets.flatMap { $0 }
            #expect(Set(shot).count == shot.count, "\(shadow): \(matched.sets)")
            #expect(shot.allSatisfy { Self.upTo4000.contains($0) })
        }
    }

    @Test func bothReadingsPastTheFastEndAreOneExposureThere() throws {
        let matched = try SpeedMatcher.plan(
            try BracketPlanner(), shadow: speed("1/5000"), highlight: speed("1/8000"), offered: Self.upTo4000,
            offersBulb: false)
        #expect(matched.sets == [[speed("1/4000")]])
    }

    @Test func withoutBulbATimedShadowPastTheCamerasLongestIsClampedWithADarkWarning() throws {
        let upTo15 = Array(ShutterScale.third.speeds.dropLast(3))
        let matched = try SpeedMatcher.plan(
            try BracketPlanner(frames: 3), shadow: speed("30\""), highlight: speed("4\""), offered: upTo15,
            offersBulb: false)
        #expect(matched.sets.map { $0.map(\.label) } == [["4\"", "8\"", "15\""]])
        #expect(matched.warnings.first?.hasPrefix("the camera's longest speed is 15\": the plan ends at 15\"") == true)
        // With BULB the same shadow is shot, its frames past 15" held in BULB.
        let bulb = try SpeedMatcher.plan(
            try BracketPlanner(frames: 3), shadow: speed("30\""), highlight: speed("4\""), offered: upTo15,
            offersBulb: true)
        #expect(bulb.sets.map { $0.map(\.label) } == [["4\"", "8\"", "15\""], ["15\"", "30\""]])
    }

    @Test func aBulbShadowIsNeverClampedEvenWithoutBulb() throws {
        let fourMinutes = ShutterSpeed(numerator: 240, denominator: 1)
        let planner = try BracketPlanner(longest: fourMinutes)
        let matched = try SpeedMatcher.plan(
            planner, shadow: fourMinutes, highlight: speed("1/60"), offered: ShutterScale.third.speeds,
            offersBulb: false)
        #expect(matched.sets.last?.last == fourMinutes)
        #expect(matched.sets == (try planner.plan(shadow: fourMinutes, highlight: speed("1/60"))).sets)
    }

    @Test func aFullBodyPlansExactlyAsThePlanner() throws {
        let planner = try BracketPlanner(frames: 5)
        let matched = try SpeedMatcher.plan(
            planner, shadow: speed("1/4"), highlight: speed("1/1000"), offered: ShutterScale.third.speeds,
            offersBulb: true)
        let plan = try planner.plan(shadow: speed("1/4"), highlight: speed("1/1000"))
        #expect(matched.sets == plan.sets && matched.warnings == plan.warnings && matched.substitutions.isEmpty)
    }
}
