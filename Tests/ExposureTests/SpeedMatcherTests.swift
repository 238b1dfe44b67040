import Testing

@testable import Exposure

/// Matching planned frames to the speeds a camera offers.
@Suite struct SpeedMatcherTests {
    @Test func offeredSpeedsAreUsedAsPlanned() throws {
        let plan = BracketPlan(sets: [[speed("1/1000"), speed("1/500")]])
        let matched = try SpeedMatcher.match(plan, offered: ShutterScale.third.speeds)
        #expect(matched.sets == plan.sets)
        #expect(matched.substitutions.isEmpty && matched.warnings.isEmpty)
    }

    @Test func aTieGoesToTheLongerExposure() throws {
        let plan = BracketPlan(sets: [[speed("1/6400")]])
        let matched = try SpeedMatcher.match(plan, offered: [speed("1/8000"), speed("1/5000"), speed("1/4000")])
        #expect(matched.sets == [[speed("1/5000")]])
        #expect(matched.substitutions == [SpeedSubstitution(planned: speed("1/6400"), used: speed("1/5000"))])
        #expect(
            matched.substitution(set: 0, frame: 0) == SpeedSubstitution(planned: speed("1/6400"), used: speed("1/5000"))
        )
    }

    @Test func distanceIsCountedInNominalStops() throws {
        // 1/250 is one third from 1/200 and three from 1/500.
        let plan = BracketPlan(sets: [[speed("1/250")]])
        #expect(try SpeedMatcher.match(plan, offered: [speed("1/500"), speed("1/200")]).sets == [[speed("1/200")]])
        // 1/6400 sits one nominal third from both neighbours although its time ratios differ (1.25 and 1.28).
        #expect(speed("1/6400").nominalThirds - speed("1/8000").nominalThirds == 1)
        #expect(speed("1/5000").nominalThirds - speed("1/6400").nominalThirds == 1)
    }

    @Test func speedsInSonyEncodingMatchByValue() throws {
        let plan = BracketPlan(sets: [[speed("30\"")]])
        let sent = ShutterSpeed(numerator: 300, denominator: 10)
        let matched = try SpeedMatcher.match(plan, offered: [sent])
        #expect(matched.substitutions.isEmpty)
        #expect(matched.sets[0][0].numerator == 300) // the camera's own encoding comes back
    }

    @Test func framesCollapsingOntoOneSpeedAreShotOnceAndWarnedAbout() throws {
        let plan = BracketPlan(sets: [[speed("1/250"), speed("1/200"), speed("1/160")], [speed("1/8")]])
        let matched = try SpeedMatcher.match(plan, offered: [speed("1/250"), speed("1/125"), speed("1/8")])
        #expect(matched.sets == [[speed("1/250"), speed("1/125")], [speed("1/8")]])
        #expect(matched.warnings == ["set 1: 1/250 and 1/200 both become 1/250 on this camera; it is shot once"])
        // Indices are into the matched sets: 1/160 is the second frame shot.
        #expect(matched.substitutions == [SpeedSubstitution(planned: speed("1/160"), used: speed("1/125"))])
        #expect(
            matched.substitution(set: 0, frame: 1) == SpeedSubstitution(planned: speed("1/160"), used: speed("1/125")))
        #expect(matched.plannedSets == [[speed("1/250"), speed("1/160")], [speed("1/8")]])
        #expect(matched.substitution(set: 0, frame: 0) == nil)
    }

    @Test func withDedupeASetsFirstFrameBecomingThePreviousLastIsShotOnce() throws {
        let plan = BracketPlan(sets: [[speed("1/250"), speed("1/125")], [speed("1/100")], [speed("1/60")]])
        let offered = [speed("1/250"), speed("1/125"), speed("1/60")]
        let matched = try SpeedMatcher.match(plan, offered: offered, dedupe: true)
        #expect(matched.sets == [[speed("1/250"), speed("1/125")], [speed("1/60")]])
        #expect(
            matched.warnings == ["set 2: 1/100 becomes 1/125, the last frame of set 1 on this camera; it is shot once"])
        #expect(matched.substitutions.isEmpty)
        // Without dedupe the shared frame is planned twice on purpose and stays.
        #expect(try SpeedMatcher.match(plan, offered: offered).sets.count == 3)
    }

    @Test func bulbFramesStayAsPlanned() throws {
        let minute = ShutterSpeed(numerator: 60, denominator: 1)
        let plan = BracketPlan(sets: [[speed("15\""), speed("30\""), minute]])
        let matched = try SpeedMatcher.match(plan, offered: ShutterScale.third.speeds)
        #expect(matched.sets == plan.sets && matched.substitutions.isEmpty && matched.warnings.isEmpty)
        // With BULB offered, a timed frame past the camera's longest speed is shot in BULB too.
        let short = try SpeedMatcher.match(plan, offered: [speed("15\"")], offersBulb: true)
        #expect(short.sets == plan.sets)
    }

    @Test func halfScaleSpeedsMatchOntoAThirdStopCamera() throws {
        let plan = BracketPlan(sets: ShutterScale.half.speeds.map { [$0] })
        let matched = try SpeedMatcher.match(plan, offered: ShutterScale.third.speeds)
        // 1/6000 is nominally where 1/6400 is (3·log2 rounds both to the same third).
        #expect(matched.sets[1] == [speed("1/6400")])
        #expect(matched.sets.flatMap { $0 }.allSatisfy { ShutterScale.third.index(of: $0) != nil })
    }

    @Test func aCameraOfferingNothingIsAnError() {
        #expect(throws: ExposureError.noOfferedSpeeds) {
            try SpeedMatcher.match(BracketPlan(sets: [[speed("1/250")]]), offered: [])
        }
    }
}
