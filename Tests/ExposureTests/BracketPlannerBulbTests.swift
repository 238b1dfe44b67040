import Testing

@testable import Exposure

/// A bulb stop by its label (test shorthand for the stops past 30").
private func stop(_ label: String, scale: ShutterScale = .third) -> ShutterSpeed {
    guard let found = scale.allSpeeds.first(where: { $0.label == label }) else {
        preconditionFailure("no stop labelled \(label) on the \(scale) scale")
    }
    return found
}

/// Plans that reach past 30" (bulb frames) and the `longest` cap.
@Suite struct BracketPlannerBulbTests {
    @Test func aShadowOfFourMinutesIsPlannedWithTheSameRuleIntoBulbFrames() throws {
        let planner = try BracketPlanner(frames: 5, longest: stop("4'"))
        let plan = try planner.plan(shadow: stop("4'"), highlight: speed("1/60"))
        #expect(
            labels(plan) == [
                ["1/60", "1/30", "1/15", "1/8", "1/4"], ["1/4", "0.5\"", "1\"", "2\"", "4\""],
                ["4\"", "8\"", "15\"", "30\"", "1'"], ["1'", "2'", "4'"]
            ])
        #expect(
            plan.warnings == [
                "set 4 has 3 frames instead of 5: 4' is the longest exposure allowed (--longest)"
            ])
        #expect(plan.sets.flatMap { $0 }.filter(\.isBulb).map(\.label) == ["1'", "1'", "2'", "4'"])
    }

    @Test func aLongerCapLetsTheLastSetRunItsFullLength() throws {
        let plan = try BracketPlanner(frames: 3, spacing: EVAmount(stops: 2), longest: stop("30'"))
            .plan(shadow: stop("2'"), highlight: speed("1\""))
        #expect(labels(plan) == [["1\"", "4\"", "15\""], ["15\"", "1'", "4'"]])
        #expect(plan.warnings.isEmpty)
    }

    /// The reference vectors stay as they were: a shadow the camera times gets no bulb frame, whatever the cap.
    @Test(arguments: ["30\"", "4'", "30'"])
    func aShadowWithin30SecondsPlansExactlyAsWithoutBulb(longest: String) throws {
        let capped = try BracketPlanner(frames: 5, spacing: EVAmount(stops: 2), longest: stop(longest))
        let timed = try BracketPlanner(frames: 5, spacing: EVAmount(stops: 2))
        let plan = try capped.plan(shadow: speed("30\""), highlight: speed("1/60"))
        #expect(plan == (try timed.plan(shadow: speed("30\""), highlight: speed("1/60"))))
        #expect(labels(plan) == [["1/60", "1/15", "1/4", "1\"", "4\""], ["4\"", "15\"", "30\""]])
    }

    @Test func aShadowPastTheCapIsAnError() throws {
        let planner = try BracketPlanner(longest: stop("4'"))
        #expect(throws: ExposureError.shadowBeyondLongest(shadow: stop("8'"), longest: stop("4'"))) {
            try planner.plan(shadow: stop("8'"), highlight: speed("1/60"))
        }
        // Without a cap the planner stays within the timed speeds.
        #expect(throws: ExposureError.shadowBeyondLongest(shadow: stop("40\""), longest: speed("30\""))) {
            try BracketPlanner().plan(shadow: stop("40\""), highlight: speed("1/60"))
        }
    }

    @Test func aCapBelow30SecondsShortensTimedPlansAndNamesTheOption() throws {
        let plan = try BracketPlanner(frames: 5, longest: speed("2\"")).plan(
            shadow: speed("1\""), highlight: speed("1/60"))
        #expect(labels(plan) == [["1/60", "1/30", "1/15", "1/8", "1/4"], ["1/4", "0.5\"", "1\"", "2\""]])
        #expect(plan.warnings == ["set 2 has 4 frames instead of 5: 2\" is the longest exposure allowed (--longest)"])
    }

    @Test func aCapOffTheScaleIsRejected() {
        let odd = ShutterSpeed(numerator: 7, denominator: 1)
        #expect(throws: ExposureError.speedNotOnScale(odd, scale: .third)) { try BracketPlanner(longest: odd) }
    }

    @Test func halfScaleBulbPlansUseItsOwnStops() throws {
        let plan = try BracketPlanner(frames: 3, scale: .half, longest: stop("8'", scale: .half))
            .plan(shadow: stop("3'", scale: .half), highlight: stop("15\"", scale: .half))
        #expect(labels(plan) == [["15\"", "30\"", "1'"], ["1'", "2'", "4'"]])
    }

    /// Every reading pair up to the cap: finite, connected, covering the shadow, never past the cap.
    @Test(arguments: ShutterScale.allCases)
    func everyBulbPlanStaysWithinTheCapAndCoversTheShadow(scale: ShutterScale) throws {
        let all = scale.allSpeeds
        let cap = scale.allSpeeds[all.count - 4]
        for frames in [2, 3, 5, 9] {
            for spacing in [EVAmount(sixths: 2), EVAmount(stops: 1), EVAmount(sixths: 9), EVAmount(stops: 3)] {
                let planner = try BracketPlanner(frames: frames, spacing: spacing, scale: scale, longest: cap)
                for dark in all.indices where all[dark] <= cap && all[dark].isBulb {
                    for bright in stride(from: 0, through: dark, by: 4) {
                        let plan = try planner.plan(shadow: all[dark], highlight: all[bright])
                        let frames = plan.sets.flatMap { $0 }
                        try #require(frames.allSatisfy { $0 <= cap }, "\(all[bright])...\(all[dark])")
                        try #require((frames.last ?? all[0]) >= all[dark], "\(all[bright])...\(all[dark])")
                        try #require(plan.sets.count < all.count)
                    }
                }
            }
        }
    }
}
