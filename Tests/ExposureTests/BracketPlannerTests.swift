import Testing

@testable import Exposure

/// A speed from its label on the 1/3-stop scale (test shorthand).
func speed(_ label: String, scale: ShutterScale = .third) -> ShutterSpeed {
    guard let found = scale.speeds.first(where: { $0.label == label }) else {
        preconditionFailure("no stop labelled \(label) on the \(scale) scale")
    }
    return found
}

/// Sets written as labels, so tables read like the plans a photographer sees.
func labels(_ plan: BracketPlan) -> [[String]] { plan.sets.map { $0.map(\.label) } }

/// One row of the planner table: readings, options and the exact sets expected.
struct PlannerCase: Sendable, CustomTestStringConvertible {
    let name: String
    let shadow: String
    let highlight: String
    var frames = 5
    var spacing = EVAmount(stops: 1)
    var scale = ShutterScale.third
    var dedupe = false
    var order = BracketOrder.fastFirst
    let sets: [[String]]
    var warnings = 0

    var testDescription: String { name }
}

@Suite struct BracketPlannerTests {
    static let cases: [PlannerCase] = [
        PlannerCase(
            name: "issue example 1: 1/4 to 1/1000, 5 frames, 1 EV", shadow: "1/4", highlight: "1/1000",
            sets: [
                ["1/1000", "1/500", "1/250", "1/125", "1/60"], ["1/60", "1/30", "1/15", "1/8", "1/4"],
                ["1/4", "0.5\"", "1\"", "2\"", "4\""]
            ]),
        PlannerCase(
            name: "issue example 2: 1/125 to 1/500, 3 frames", shadow: "1/125", highlight: "1/500", frames: 3,
            sets: [["1/500", "1/250", "1/125"]]),
        PlannerCase(name: "zero range is one exposure", shadow: "1/250", highlight: "1/250", sets: [["1/250"]]),
        PlannerCase(
            name: "1.5 EV steps by 5 thirds", shadow: "1/4", highlight: "1/1000", frames: 3,
            spacing: EVAmount(sixths: 9),
            sets: [["1/1000", "1/320", "1/100"], ["1/100", "1/30", "1/10"], ["1/10", "0.3\"", "1\""]], warnings: 1),
        PlannerCase(
            name: "9 frames", shadow: "2\"", highlight: "1/4000", frames: 9,
            sets: [
                ["1/4000", "1/2000", "1/1000", "1/500", "1/250", "1/125", "1/60", "1/30", "1/15"],
                ["1/15", "1/8", "1/4", "0.5\"", "1\"", "2\"", "4\"", "8\"", "15\""]
            ]),
        PlannerCase(
            name: "30\" shadow does not run away", shadow: "30\"", highlight: "1/8000", frames: 3,
            sets: [
                ["1/8000", "1/4000", "1/2000"], ["1/2000", "1/1000", "1/500"], ["1/500", "1/250", "1/125"],
                ["1/125", "1/60", "1/30"], ["1/30", "1/15", "1/8"], ["1/8", "1/4", "0.5\""],
                ["0.5\"", "1\"", "2\""], ["2\"", "4\"", "8\""], ["8\"", "15\"", "30\""]
            ],
            warnings: 1),
        PlannerCase(
            name: "frames past 30\" shorten the last set without repeating 30\"", shadow: "30\"", highlight: "1/1000",
            spacing: EVAmount(stops: 2),
            sets: [["1/1000", "1/250", "1/60", "1/15", "1/4"], ["1/4", "1\"", "4\"", "15\"", "30\""]], warnings: 1),
        PlannerCase(
            name: "a set falling past 30\" is cut", shadow: "30\"", highlight: "8\"",
            sets: [["8\"", "15\"", "30\""]], warnings: 1),
        PlannerCase(
            name: "a single set past the shadow is cut at 30\"", shadow: "20\"", highlight: "0.5\"",
            spacing: EVAmount(stops: 2), sets: [["0.5\"", "2\"", "8\"", "30\""]], warnings: 1),
        PlannerCase(
            name: "half scale", shadow: "1/4", highlight: "1/1000", scale: .half,
            sets: [
                ["1/1000", "1/500", "1/250", "1/125", "1/60"], ["1/60", "1/30", "1/15", "1/8", "1/4"],
                ["1/4", "0.5\"", "1\"", "2\"", "4\""]
            ]),
        PlannerCase(
            name: "half scale, 1.5 EV", shadow: "1/60", highlight: "1/1000", frames: 3, spacing: EVAmount(sixths: 9),
            scale: .half, sets: [["1/1000", "1/350", "1/125"], ["1/125", "1/45", "1/15"]]),
        PlannerCase(
            name: "half scale, 1/3 EV rounds up to half steps", shadow: "1/500", highlight: "1/1000", frames: 3,
            spacing: EVAmount(sixths: 2), scale: .half, sets: [["1/1000", "1/750", "1/500"]], warnings: 1),
        PlannerCase(
            name: "dedupe shoots shared frames once", shadow: "1/4", highlight: "1/1000", dedupe: true,
            sets: [
                ["1/1000", "1/500", "1/250", "1/125", "1/60"], ["1/30", "1/15", "1/8", "1/4"],
                ["0.5\"", "1\"", "2\"", "4\""]
            ]),
        PlannerCase(
            name: "slow first reverses the whole sequence", shadow: "1/125", highlight: "1/500", frames: 3,
            order: .slowFirst, sets: [["1/125", "1/250", "1/500"]]),
        PlannerCase(
            name: "slow first with dedupe", shadow: "1/60", highlight: "1/1000", frames: 3, dedupe: true,
            order: .slowFirst, sets: [["1/15", "1/30"], ["1/60", "1/125"], ["1/250", "1/500", "1/1000"]])
    ]

    @Test(arguments: cases)
    func plansTheExpectedSets(_ row: PlannerCase) throws {
        let planner = try BracketPlanner(
            frames: row.frames, spacing: row.spacing, scale: row.scale, dedupe: row.dedupe, order: row.order)
        let plan = try planner.plan(
            shadow: speed(row.shadow, scale: row.scale), highlight: speed(row.highlight, scale: row.scale))
        #expect(labels(plan) == row.sets)
        #expect(plan.warnings.count == row.warnings, "\(plan.warnings)")
    }

    @Test func firstExampleSummaryMatchesTheIssue() throws {
        let plan = try BracketPlanner(frames: 5).plan(shadow: speed("1/4"), highlight: speed("1/1000"))
        #expect(plan.bracketSetCount == 3)
        #expect(plan.totalExposures == 15)
        #expect(plan.distinctExposures == 13)
        #expect(plan.longestExposure == speed("4\""))
        let estimate = plan.estimatedSeconds(overheadPerFrame: 0.25)
        #expect(estimate > 12.0 && estimate < 12.05) // 8.27 s of exposure + 15 × 0.25 s
    }

    @Test func zeroRangeIsNoBracketSetAndOneExposure() throws {
        let plan = try BracketPlanner().plan(shadow: speed("1/250"), highlight: speed("1/250"))
        #expect(plan.bracketSetCount == 0)
        #expect(plan.totalExposures == 1)
    }

    @Test func shortenedSetWarningNamesTheSetAndTheLimit() throws {
        let plan = try BracketPlanner(frames: 5).plan(shadow: speed("30\""), highlight: speed("8\""))
        #expect(
            plan.warnings == [
                "set 1 has 3 frames instead of 5: 30\" is the longest timed speed (bulb frames are planned only for a "
                    + "shadow reading past it)"
            ])
        let reversed = try BracketPlanner(frames: 3, order: .slowFirst)
            .plan(shadow: speed("30\""), highlight: speed("1/8000"))
        #expect(reversed.sets.first == [speed("30\""), speed("15\""), speed("8\"")])
        #expect(reversed.warnings.first?.hasPrefix("no set goes past the shadow reading") == true)
    }

    @Test func spacingRoundedUpToTheScaleIsReported() throws {
        let plan = try BracketPlanner(frames: 3, spacing: EVAmount(sixths: 9))
            .plan(shadow: speed("1/100"), highlight: speed("1/1000"))
        #expect(plan.warnings == ["frames are 1.7 EV apart: 1.5 EV rounded up to whole 1/3-stop steps"])
    }

    @Test func shadowFasterThanHighlightSaysWhichIsWhich() {
        #expect(throws: ExposureError.shadowFasterThanHighlight(shadow: speed("1/1000"), highlight: speed("1/4"))) {
            try BracketPlanner().plan(shadow: speed("1/1000"), highlight: speed("1/4"))
        }
    }

    @Test func readingsOffTheScaleAreRejected() {
        let odd = ShutterSpeed(numerator: 1, denominator: 7)
        #expect(throws: ExposureError.speedNotOnScale(odd, scale: .third)) {
            try BracketPlanner().plan(shadow: odd, highlight: speed("1/1000"))
        }
        // 1/6400 is a stop of the 1/3 scale only.
        #expect(throws: ExposureError.speedNotOnScale(speed("1/6400"), scale: .half)) {
            try BracketPlanner(scale: .half).plan(shadow: speed("1/4"), highlight: speed("1/6400"))
        }
    }

    @Test(arguments: [0, 1, 16, -3])
    func frameCountsOutside2To15AreRejected(frames: Int) {
        #expect(throws: ExposureError.frameCountOutOfRange(frames, allowed: 2...15)) {
            try BracketPlanner(frames: frames)
        }
    }

    @Test func spacingsOutsideTheAllowedListAreRejected() {
        #expect(throws: ExposureError.self) { try BracketPlanner(spacing: EVAmount(sixths: 3)) }
        #expect(throws: ExposureError.self) { try BracketPlanner(spacing: EVAmount(stops: 4)) }
    }

    /// Every pair of readings, frame counts and spacings: plans are finite, connected, cover the shadow
    /// and never repeat a frame inside a set.
    @Test(arguments: ShutterScale.allCases)
    func everyPlanIsFiniteConnectedAndCoversTheShadow(scale: ShutterScale) throws {
        let speeds = scale.speeds
        for frames in [2, 3, 5, 9, 15] {
            for spacing in EVAmount.allowedSpacings {
                let planner = try BracketPlanner(frames: frames, spacing: spacing, scale: scale)
                for bright in speeds.indices {
                    for dark in bright..<speeds.count {
                        let plan = try planner.plan(shadow: speeds[dark], highlight: speeds[bright])
                        try checkInvariants(plan, highlight: speeds[bright], shadow: speeds[dark], frames: frames)
                    }
                }
            }
        }
    }

    private func checkInvariants(
        _ plan: BracketPlan, highlight: ShutterSpeed, shadow: ShutterSpeed, frames: Int
    ) throws {
        let context = "\(highlight)...\(shadow) × \(frames)"
        // At most one set per scale step (2 frames, 1/3 EV); the reference chained 50 sets on one scale.
        try #require(plan.sets.count < ShutterScale.third.speeds.count, "runaway: \(context)")
        try #require(plan.sets.first?.first == highlight, "starts at the highlight: \(context)")
        let last = try #require(plan.sets.last?.last, "\(context)")
        try #require(last >= shadow, "covers the shadow: \(context)")
        for (index, set) in plan.sets.enumerated() {
            try #require(set.count <= frames, "\(context)")
            try #require(zip(set, set.dropFirst()).allSatisfy { $0 < $1 }, "strictly longer frames: \(context)")
            if index > 0 { try #require(set.first == plan.sets[index - 1].last, "connected sets: \(context)") }
        }
    }
}
