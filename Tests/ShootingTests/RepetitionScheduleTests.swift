import Exposure
import Foundation
import Shooting
import Testing

/// The pure schedule of an interval series: offsets from the first start, no clock involved.
@Suite struct RepetitionScheduleTests {
    typealias Start = RepetitionSchedule.Start

    @Test func onTimeRepetitionsStartEveryIntervalAfterTheFirstStart() {
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(3))
        var start = schedule.first
        var starts = [start]
        // Each repetition takes 50 s, well inside its interval.
        while let next = schedule.next(after: start.number, scheduledAt: start.at, endedAt: start.at + .seconds(50)) {
            starts.append(next)
            start = next
        }
        #expect(
            starts == [
                Start(number: 1, at: .zero), Start(number: 2, at: .seconds(120)), Start(number: 3, at: .seconds(240))
            ])
    }

    @Test func aRepetitionThatOverrunsStartsTheNextAtOnceAndTheScheduleFollowsIt() throws {
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(4))
        let second = try #require(schedule.next(after: 1, scheduledAt: .zero, endedAt: .seconds(150)))
        #expect(second == Start(number: 2, at: .seconds(150), timing: .afterOverrun(by: .seconds(30))))
        // The next one is `every` after the late start, not after the original slot.
        let third = try #require(schedule.next(after: 2, scheduledAt: second.at, endedAt: .seconds(200)))
        #expect(third == Start(number: 3, at: .seconds(270)))
    }

    @Test func aRepetitionEndingExactlyOnTheNextStartIsOnTime() {
        let schedule = RepetitionSchedule(every: .seconds(60), end: .forever)
        #expect(
            schedule.next(after: 1, scheduledAt: .zero, endedAt: .seconds(60)) == Start(number: 2, at: .seconds(60)))
    }

    @Test(arguments: [1, 3, 20]) func aCountedSeriesHasExactlyThatManyRepetitions(count: Int) {
        let schedule = RepetitionSchedule(every: .seconds(10), end: .count(count))
        var numbers = [schedule.first.number]
        var start = schedule.first
        while let next = schedule.next(after: start.number, scheduledAt: start.at, endedAt: start.at) {
            numbers.append(next.number)
            start = next
        }
        #expect(numbers == Array(1...count))
        #expect(schedule.nominalCount == count)
    }

    @Test func anUntilSeriesStartsNothingAfterItsEndTime() {
        // 19:00 to 19:45 every 2 minutes: 23 starts, the last at 19:44.
        let schedule = RepetitionSchedule(every: .seconds(120), end: .until(.seconds(45 * 60)))
        #expect(schedule.nominalCount == 23)
        #expect(schedule.includes(23, at: .seconds(44 * 60)))
        #expect(schedule.next(after: 23, scheduledAt: .seconds(44 * 60), endedAt: .seconds(44 * 60 + 10)) == nil)
        // An overrun start past the end is not started either.
        #expect(schedule.next(after: 22, scheduledAt: .seconds(42 * 60), endedAt: .seconds(45 * 60 + 1)) == nil)
    }

    @Test func aForeverSeriesNeverEnds() {
        let schedule = RepetitionSchedule(every: .seconds(1), end: .forever)
        #expect(schedule.nominalCount == nil)
        #expect(schedule.next(after: 10_000, scheduledAt: .seconds(9_999), endedAt: .seconds(9_999)) != nil)
    }

    @Test func aStartHeldByAPauseHappensLateAtTheResume() throws {
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(3))
        let due = Start(number: 2, at: .seconds(120))
        #expect(schedule.held(due, until: .seconds(100)) == due)
        let late = try #require(schedule.held(due, until: .seconds(200)))
        #expect(late == Start(number: 2, at: .seconds(200), timing: .late(by: .seconds(80))))
        // The following start is `every` after the late one.
        #expect(
            schedule.next(after: 2, scheduledAt: late.at, endedAt: .seconds(230)) == Start(number: 3, at: .seconds(320))
        )
    }

    @Test func aStartHeldPastTheEndTimeIsNotShot() {
        let schedule = RepetitionSchedule(every: .seconds(60), end: .until(.seconds(120)))
        #expect(schedule.held(Start(number: 3, at: .seconds(120)), until: .seconds(121)) == nil)
    }

    @Test func skippingMissedStartsKeepsTheClockTimes() {
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(10))
        // Repetition 3 was due at 4 min; hdrshoot is back at 9 min: 3, 4 and 5 (at 4, 6 and 8 min) passed.
        let (skipped, next) = schedule.skippingMissed(from: Start(number: 3, at: .seconds(240)), now: .seconds(540))
        #expect(skipped == [3, 4, 5])
        #expect(next == Start(number: 6, at: .seconds(600)))
    }

    @Test func skippingMissedStartsCanEndTheSeries() {
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(4))
        let (skipped, next) = schedule.skippingMissed(from: Start(number: 3, at: .seconds(240)), now: .seconds(1_000))
        #expect(skipped == [3, 4])
        #expect(next == nil)
    }

    @Test func nothingIsSkippedWhenTheStartIsStillAhead() {
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(4))
        let start = Start(number: 2, at: .seconds(120))
        let (skipped, next) = schedule.skippingMissed(from: start, now: .seconds(60))
        #expect(skipped.isEmpty && next == start)
    }
}

/// Each repetition planned from readings shifted along the scale.
@Suite struct SeriesShiftTests {
    let base = SeriesRecord.Base(
        shadow: ShutterSpeed(numerator: 1, denominator: 4), highlight: ShutterSpeed(numerator: 1, denominator: 1000),
        frames: 5, spacing: EVAmount(stops: 1), scale: .third, dedupe: false, order: .fastFirst)

    @Test func theFirstRepetitionIsTheBasePlan() throws {
        let planner = try BracketPlanner()
        let expected = try planner.plan(shadow: base.shadow, highlight: base.highlight)
        #expect(try base.plan(forRepetition: 1, shift: EVAmount(stops: 1), longest: nil) == expected)
    }

    @Test func eachRepetitionMovesBothReadingsByTheShift() {
        // 1/3 EV per repetition: the fourth is one stop slower.
        let readings = base.readings(forRepetition: 4, shift: EVAmount(sixths: 2), longest: nil)
        #expect(readings.shadow == ShutterSpeed(numerator: 1, denominator: 2))
        #expect(readings.highlight == ShutterSpeed(numerator: 1, denominator: 500))
    }

    @Test func theShiftStopsAtTheLongestSpeed() throws {
        let longest = ShutterSpeed(numerator: 30, denominator: 1)
        // 2 EV per repetition: the tenth asks for 18 EV slower; the shadow stops at 30".
        let readings = base.readings(forRepetition: 10, shift: EVAmount(stops: 2), longest: longest)
        #expect(readings.shadow == longest)
        #expect(readings.highlight <= readings.shadow)
        let shifted = try base.plan(forRepetition: 10, shift: EVAmount(stops: 2), longest: longest)
        #expect(shifted.sets.joined().allSatisfy { $0 <= longest })
        // A lower cap (--longest 8") holds both readings at 8".
        let capped = base.readings(
            forRepetition: 10, shift: EVAmount(stops: 2), longest: ShutterSpeed(numerator: 8, denominator: 1))
        #expect(capped.shadow == ShutterSpeed(numerator: 8, denominator: 1))
    }

    @Test func aNegativeShiftMovesTowardsFasterSpeeds() {
        let readings = base.readings(forRepetition: 2, shift: EVAmount(stops: -1), longest: nil)
        #expect(readings.shadow == ShutterSpeed(numerator: 1, denominator: 8))
        #expect(readings.highlight == ShutterSpeed(numerator: 1, denominator: 2000))
    }
}
