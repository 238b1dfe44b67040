import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

/// The series runner in virtual time: every wait between repetitions is on the `TestClock`.
@Suite(.timeLimit(.minutes(1))) struct SeriesRunnerTests {
    @Test func repetitionsStartOnScheduleAndEachShootsTheWholePlan() async throws {
        let camera = InMemoryCamera()
        let clock = TestClock()
        let recorder = StartLog(plan: plan(sets: 2, frames: 3))
        let series = makeSeries(
            camera, schedule: RepetitionSchedule(every: .seconds(120), end: .count(3)), recorder: recorder, clock: clock
        )
        async let events = collectSeries(series.events)
        async let result = series.run(from: RepetitionSchedule(every: .seconds(120), end: .count(3)).first)
        for _ in 0..<2 {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(120))
        }
        let finished = await result
        #expect(finished.isComplete && finished.completedRepetitions == [1, 2, 3])
        #expect(
            await recorder.starts == [
                .init(1, .zero, .onTime), .init(2, .seconds(120), .onTime), .init(3, .seconds(240), .onTime)
            ])
        #expect(await camera.shotSettings.count == 18)
        // Each repetition shoots into its own folder.
        let folders = await camera.calls.compactMap { call -> String? in
            if case .nextImage(let destination) = call {
                return destination.directory.deletingLastPathComponent().lastPathComponent
            }
            return nil
        }
        #expect(folders == ["rep-001", "rep-002", "rep-003"].flatMap { Array(repeating: $0, count: 6) })
        let seen = await events
        let waits = seen.compactMap { event -> Duration? in
            if case .waiting(_, let remaining) = event { return remaining }
            return nil
        }
        #expect(waits == [.seconds(120), .seconds(120)])
        guard case .finished = seen.last else {
            Issue.record("the last event is not .finished")
            return
        }
    }

    @Test func aFullCardPausesTheSeriesUntilThereIsRoomThenItGoesOn() async throws {
        var script = InMemoryCamera.Script()
        // Room for the first repetition's 3 frames only.
        script.media = MediaStatus(batteryPercent: 80, remainingShots: 3)
        let camera = InMemoryCamera(script: script)
        let clock = TestClock()
        let recorder = StartLog(plan: plan(sets: 1, frames: 3))
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(2))
        let series = makeSeries(camera, schedule: schedule, recorder: recorder, clock: clock)
        async let events = collectSeries(series.events)
        async let result = series.run(from: schedule.first)
        // The wait for repetition 2's start, then the card checks every 10 s while it is full.
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(120))
        await clock.waitForSleepers(1)
        #expect(await camera.shotSettings.count == 3)
        clock.advance(by: .seconds(10))
        await clock.waitForSleepers(1)
        #expect(await camera.shotSettings.count == 3)
        // A new card.
        await camera.update { $0.media.remainingShots = 300 }
        clock.advance(by: .seconds(10))
        let finished = await result
        #expect(finished.isComplete && finished.completedRepetitions == [1, 2])
        #expect(await camera.shotSettings.count == 6)
        let seen = await events
        let pauses = seen.compactMap { event -> String? in
            if case .paused(let reason) = event { return reason.detail }
            return nil
        }
        #expect(
            pauses == [
                "the memory card is full (0 shots left, 3 needed); put in a card with space or free some, and the series goes on by itself"
            ])
        #expect(seen.contains { if case .resumed = $0 { true } else { false } })
    }

    @Test func aBodyThatDoesNotReportItsCardIsNeverHeld() async throws {
        let camera = InMemoryCamera()
        let clock = TestClock()
        let recorder = StartLog(plan: plan(sets: 1, frames: 2))
        let schedule = RepetitionSchedule(every: .seconds(60), end: .count(2))
        let series = makeSeries(camera, schedule: schedule, recorder: recorder, clock: clock)
        async let result = series.run(from: schedule.first)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))
        #expect(await result.isComplete)
        #expect(await camera.mediaChecks == 2)
    }

    @Test func anOverrunningRepetitionStartsTheNextAtOnceAndSaysSo() async throws {
        let camera = InMemoryCamera()
        let clock = TestClock()
        // Each repetition's run takes 150 virtual seconds (its journal write before the first frame sleeps).
        let recorder = StartLog(
            plan: plan(sets: 1, frames: 2), frameRecorder: SlowStart(clock: clock, delay: .seconds(150)))
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(2))
        let series = makeSeries(camera, schedule: schedule, recorder: recorder, clock: clock)
        async let result = series.run(from: schedule.first)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(150))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(150))
        #expect(await result.isComplete)
        #expect(
            await recorder.starts == [
                .init(1, .zero, .onTime), .init(2, .seconds(150), .afterOverrun(by: .seconds(30)))
            ])
    }

    @Test func aPauseAcrossAStartTimeHoldsItAndTheScheduleContinuesAfterTheLateStart() async throws {
        let camera = InMemoryCamera()
        let clock = TestClock()
        let recorder = StartLog(plan: plan(sets: 1, frames: 2))
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(3))
        let series = makeSeries(camera, schedule: schedule, recorder: recorder, clock: clock)
        async let result = series.run(from: schedule.first)
        await clock.waitForSleepers(1)
        await series.pause(reason: PauseReason(.user))
        await waitUntil { if case .held = await series.state { true } else { false } }
        clock.advance(by: .seconds(200))
        await series.resume(reason: PauseReason(.user))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(120))
        #expect(await result.isComplete)
        #expect(
            await recorder.starts == [
                .init(1, .zero, .onTime), .init(2, .seconds(200), .late(by: .seconds(80))),
                .init(3, .seconds(320), .onTime)
            ])
    }

    @Test func aPauseReleasedBeforeTheStartTimeKeepsTheStartOnTime() async throws {
        let clock = TestClock()
        let recorder = StartLog(plan: plan(sets: 1, frames: 1))
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(2))
        let series = makeSeries(InMemoryCamera(), schedule: schedule, recorder: recorder, clock: clock)
        async let result = series.run(from: schedule.first)
        await clock.waitForSleepers(1)
        await series.pause(reason: PauseReason(.network))
        await waitUntil { if case .held = await series.state { true } else { false } }
        clock.advance(by: .seconds(60))
        await series.resume(reason: PauseReason(.network))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))
        #expect(await result.isComplete)
        #expect(await recorder.starts.last == .init(2, .seconds(120), .onTime))
    }

    @Test func stopWhileWaitingEndsTheSeriesResumableAtTheNextStart() async throws {
        let clock = TestClock()
        let recorder = StartLog(plan: plan(sets: 1, frames: 1))
        let schedule = RepetitionSchedule(every: .seconds(120), end: .forever)
        let series = makeSeries(InMemoryCamera(), schedule: schedule, recorder: recorder, clock: clock)
        async let result = series.run(from: schedule.first)
        await clock.waitForSleepers(1)
        await series.stop()
        let finished = await result
        #expect(!finished.isComplete && finished.completedRepetitions == [1])
        #expect(finished.resumeAt == RepetitionSchedule.Start(number: 2, at: .seconds(120)))
        if case .stopRequested = finished.stopReason {
        } else {
            Issue.record("not stopped by request: \(String(describing: finished.stopReason))")
        }
    }

    @Test func anUntilSeriesEndsAtItsEndTime() async throws {
        let clock = TestClock()
        let recorder = StartLog(plan: plan(sets: 1, frames: 1))
        let schedule = RepetitionSchedule(every: .seconds(120), end: .until(.seconds(300)))
        let series = makeSeries(InMemoryCamera(), schedule: schedule, recorder: recorder, clock: clock)
        async let result = series.run(from: schedule.first)
        for _ in 0..<2 {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(120))
        }
        #expect(await result.isComplete)
        #expect(await recorder.starts.map(\.at) == [.zero, .seconds(120), .seconds(240)])
    }

    @Test func resumingWithMissedStartsSkippedWaitsForTheNextStartOnTheSchedule() async throws {
        let clock = TestClock()
        let recorder = StartLog(plan: plan(sets: 1, frames: 1))
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(6))
        // Repetitions 1 and 2 were shot; hdrshoot is back 9 minutes after the first start.
        let (skipped, next) = schedule.skippingMissed(from: .init(number: 3, at: .seconds(240)), now: .seconds(540))
        let first = try #require(next)
        let series = makeSeries(
            InMemoryCamera(), schedule: schedule, recorder: recorder, clock: clock, elapsed: .seconds(540))
        async let result = series.run(from: first, skipping: skipped)
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines.map(\.offset) == [.seconds(60)])
        clock.advance(by: .seconds(60))
        #expect(await result.isComplete)
        #expect(await recorder.skipped == [3, 4, 5])
        #expect(await recorder.starts == [.init(6, .seconds(600), .onTime)])
    }

    @Test func resumingAndShootingMissedStartsNowStartsAtOnceLate() async throws {
        let clock = TestClock()
        let recorder = StartLog(plan: plan(sets: 1, frames: 1))
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(4))
        let late = try #require(schedule.held(.init(number: 3, at: .seconds(240)), until: .seconds(540)))
        let series = makeSeries(
            InMemoryCamera(), schedule: schedule, recorder: recorder, clock: clock, elapsed: .seconds(540))
        async let result = series.run(from: late)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(120))
        #expect(await result.isComplete)
        #expect(
            await recorder.starts == [
                .init(3, .seconds(540), .late(by: .seconds(300))), .init(4, .seconds(660), .onTime)
            ])
    }

    /// Start-time drift over 20 repetitions in virtual time, each taking 50 s of its 2 min (the figures are printed).
    @Test func twentyRepetitionsInVirtualTimeStartOnTheirScheduledTimes() async throws {
        let clock = TestClock()
        let recorder = StartLog(
            plan: plan(sets: 1, frames: 3), frameRecorder: SlowStart(clock: clock, delay: .seconds(50)))
        let schedule = RepetitionSchedule(every: .seconds(120), end: .count(20))
        let series = makeSeries(InMemoryCamera(), schedule: schedule, recorder: recorder, clock: clock)
        async let result = series.run(from: schedule.first)
        for number in 1...20 {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(50)) // the repetition's work
            guard number < 20 else { break }
            await clock.waitForSleepers(1)
            let next = try #require(clock.pendingDeadlines.first)
            clock.advance(to: next) // the wait for the next start
        }
        #expect(await result.completedRepetitions == Array(1...20))
        let starts = await recorder.starts
        #expect(starts.map(\.at) == (1...20).map { schedule.nominalStart(of: $0) })
        let drifts = starts.map { $0.actual - schedule.nominalStart(of: $0.number) }
        print(
            "series drift, virtual time, 20 repetitions every 2m taking 50 s each: max \(drifts.max() ?? .zero), distinct \(Set(drifts))"
        )
    }
}

/// The same runner on the real clock: the lateness of real wake-ups is printed, not asserted (it depends on
/// the machine).
@Suite(.timeLimit(.minutes(1))) struct SeriesRunnerRealClockTests {
    @Test func fiveRepetitionsOnTheRealClockStartNoEarlierThanScheduled() async throws {
        let recorder = StartLog(plan: plan(sets: 1, frames: 3))
        let schedule = RepetitionSchedule(every: .milliseconds(200), end: .count(5))
        let series = makeSeries(InMemoryCamera(), schedule: schedule, recorder: recorder, clock: ContinuousClock())
        let result = await series.run(from: schedule.first)
        #expect(result.completedRepetitions == [1, 2, 3, 4, 5])
        let starts = await recorder.starts
        let drifts = starts.map { $0.actual - $0.at }
        #expect(drifts.allSatisfy { $0 >= .zero })
        let micros = drifts.map { Int(SeriesRecord.seconds($0) * 1_000_000) }
        print("series drift, real clock in-process, 5 repetitions every 0.2s (µs):", micros)
    }
}

// MARK: - Helpers

/// Every event of a series until it ends.
func collectSeries(_ events: AsyncStream<SeriesEvent>) async -> [SeriesEvent] {
    var all: [SeriesEvent] = []
    for await event in events { all.append(event) }
    return all
}

/// Yields until `condition` holds (the test's time limit ends a wait that never does).
func waitUntil(_ condition: () async -> Bool) async {
    while await !condition() { await Task.yield() }
}

/// A series recorder that supplies one plan and remembers the starts and skips.
actor StartLog: SeriesRecorder {
    struct Entry: Equatable {
        var number: Int
        var at: Duration
        var timing: RepetitionSchedule.Timing
        var actual: Duration = .zero

        init(_ number: Int, _ at: Duration, _ timing: RepetitionSchedule.Timing) {
            self.number = number
            self.at = at
            self.timing = timing
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.number == rhs.number && lhs.at == rhs.at && lhs.timing == rhs.timing
        }
    }

    let plan: BracketPlan
    let frameRecorder: any ShootRecorder
    private(set) var starts: [Entry] = []
    private(set) var skipped: [Int] = []
    private(set) var finished: [(Int, Bool)] = []

    init(plan: BracketPlan, frameRecorder: any ShootRecorder = NoRecorder()) {
        self.plan = plan
        self.frameRecorder = frameRecorder
    }

    func repetitionWillStart(_ start: RepetitionSchedule.Start, actual: Duration) async throws -> SeriesRepetition {
        var entry = Entry(start.number, start.at, start.timing)
        entry.actual = actual
        starts.append(entry)
        let folder = URL(fileURLWithPath: "/nonexistent/series").appendingPathComponent(
            SeriesRepetition.folderName(start.number))
        return SeriesRepetition(plan: plan, outputDirectory: folder, recorder: frameRecorder)
    }

    func repetitionDidFinish(_ number: Int, result: ShootResult, endedAt: Duration) async {
        finished.append((number, result.isComplete))
    }
    func repetitionsSkipped(_ numbers: [Int]) async { skipped += numbers }
    func seriesDidFinish(_ result: SeriesResult) async {}
}

/// A frame recorder whose start of a run takes `delay` on the test clock (a repetition that takes long).
struct SlowStart: ShootRecorder {
    let clock: TestClock
    let delay: Duration
    func runWillStart(at position: ShootPosition, restartingSet: Bool) async throws {
        try await clock.sleep(for: delay)
    }
    func frameWillFire(at position: ShootPosition, setting: CameraShutterSpeed) async throws {}
    func frameDidFire(at position: ShootPosition) async throws {}
    func frameDidSave(at position: ShootPosition, frame: CapturedFrame) async throws {}
    func frameDidFail(at position: ShootPosition, error: any Error, mayHaveFired: Bool) async throws {}
    func runDidPause(_ reason: PauseReason) async throws {}
    func runDidResume(_ reason: PauseReason) async throws {}
    func runDidFinish(_ result: ShootResult) async throws {}
}
