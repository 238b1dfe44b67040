import Exposure
import Foundation
import Shooting
import TestSupport
import Testing

@testable import ShootKit
@testable import Shooting

/// Where a resumed series starts, decided by the controller: a start time that passed while hdrshoot was away is
/// asked about (state asking), and each answer leads where `resume` said it would.
@Suite struct SeriesResumptionTests {
    struct PlainMessages: ShootMessages {
        func message(for error: any Error) -> String { "\(error)" }
        func connectFailure(_ error: any Error) -> String { "no answer" }
    }

    static let firstStart = Date(timeIntervalSince1970: 1_800_000_000)

    /// A series of 5 repetitions every 60 s, none shot yet (the process died before the first start).
    static func journal(end: SeriesRecord.End = .count(5)) -> ShootJournal {
        let base = SeriesRecord.Base(
            shadow: ShutterSpeed(numerator: 1, denominator: 40),
            highlight: ShutterSpeed(numerator: 1, denominator: 640),
            frames: 5, spacing: EVAmount(sixths: 6), scale: .third, dedupe: false, order: .fastFirst)
        let record = SeriesRecord(
            every: .seconds(60), end: end, firstStart: firstStart, shift: nil, longest: nil, base: base,
            rootDirectory: "/nonexistent/series")
        var journal = ShootJournal(
            plan: BracketPlan(sets: [[ShutterSpeed(numerator: 1, denominator: 40)]]),
            camera: CameraIdentity(model: "ILCE-7RM4", address: "127.0.0.1"),
            outputDirectory: "/nonexistent/series/rep-001", createdAt: firstStart)
        journal.series = record
        return journal
    }

    /// Asks the missed-start question of a series 200 s after its first start; `reply` answers it as a watcher
    /// that saw the asking state would. Returns the decision and every update the watcher saw.
    static func resumeAway(
        reply: ShootCommand?, skipMissed: Bool = false, mayAsk: Bool = true
    ) async -> (SeriesResumeDecision, [ShootUpdate], Bool?) {
        let controller = ShootController(messages: PlainMessages())
        let updates = controller.updates()
        let watcher = Task {
            var seen: [ShootUpdate] = []
            var accepted: Bool?
            for await update in updates {
                seen.append(update)
                if case .state(let change) = update, change.state == .asking, let reply {
                    accepted = await controller.send(reply)
                }
            }
            return (seen, accepted)
        }
        let decision = await controller.resumePoint(
            of: journal(), now: .seconds(200), restartSet: false, skipMissed: skipMissed, mayAsk: mayAsk)
        await controller.end()
        let (seen, accepted) = await watcher.value
        return (decision, seen, accepted)
    }

    @Test func aMissedStartAnsweredLateShootsTheFirstMissedRepetitionNowAndLate() async throws {
        let (decision, seen, accepted) = await Self.resumeAway(reply: .answer(SeriesResumption.shootLate))
        #expect(accepted == true)
        let asked = seen.compactMap { update -> Question? in
            if case .state(let change) = update, change.state == .asking { return change.question }
            return nil
        }
        #expect(asked.count == 1)
        #expect(asked.first?.answers == ["late", "skip"])
        #expect(asked.first?.text.contains("repetition(s) 1, 2, 3, 4") == true, "\(asked)")
        guard case .resume(let point) = decision else {
            Issue.record("not resumed: \(decision)")
            return
        }
        #expect(point.start.number == 1)
        #expect(point.start.timing == .late(by: .seconds(200)))
        #expect(point.skipping.isEmpty)
        #expect(point.missed == .shotLate(missed: [1, 2, 3, 4], late: .seconds(200)))
        // Once answered, the shoot left the asking state.
        let states = seen.compactMap { update -> ShootPhase? in
            if case .state(let change) = update { return change.state }
            return nil
        }
        #expect(states == [.asking, .idle, .finished])
    }

    @Test func aMissedStartAnsweredSkipKeepsTheClockTimes() async throws {
        let (decision, _, accepted) = await Self.resumeAway(reply: .answer(SeriesResumption.skipMissed))
        #expect(accepted == true)
        guard case .resume(let point) = decision else {
            Issue.record("not resumed: \(decision)")
            return
        }
        #expect(point.start == RepetitionSchedule.Start(number: 5, at: .seconds(240)))
        #expect(point.skipping == [1, 2, 3, 4])
        #expect(point.missed == .skipped(missed: [1, 2, 3, 4]))
    }

    @Test func aMissedStartStoppedInsteadOfAnsweredShootsNothing() async throws {
        let (decision, _, accepted) = await Self.resumeAway(reply: .stop)
        #expect(accepted == true)
        guard case .declined = decision else {
            Issue.record("not declined: \(decision)")
            return
        }
    }

    @Test func anAnswerTheQuestionDoesNotTakeIsRefusedAndTheQuestionStands() async throws {
        let controller = ShootController(messages: PlainMessages())
        // Subscribed before the question can be asked: a watcher that subscribes after it sees the asking state in
        // its first update, the snapshot, and never in a state change (the test hung on that once).
        let updates = controller.updates()
        let decision = Task {
            await controller.resumePoint(
                of: Self.journal(), now: .seconds(200), restartSet: false, skipMissed: false, mayAsk: true)
        }
        for await update in updates {
            guard case .state(let change) = update, change.state == .asking else { continue }
            #expect(await controller.send(.answer("maybe")) == false)
            #expect(controller.snapshot.state == .asking)
            #expect(await controller.send(.answer(SeriesResumption.shootLate)))
            break
        }
        guard case .resume(let point) = await decision.value else {
            Issue.record("not resumed")
            return
        }
        #expect(point.start.number == 1)
    }

    @Test func withSkipMissedOrNoTerminalNothingIsAsked() async throws {
        let (skipped, seenSkipping, _) = await Self.resumeAway(reply: nil, skipMissed: true)
        guard case .resume(let point) = skipped else {
            Issue.record("not resumed")
            return
        }
        #expect(point.start.number == 5)
        #expect(!seenSkipping.contains { if case .state(let change) = $0 { change.state == .asking } else { false } })
        let (late, seenLate, _) = await Self.resumeAway(reply: nil, mayAsk: false)
        guard case .resume(let latePoint) = late else {
            Issue.record("not resumed")
            return
        }
        #expect(latePoint.start.number == 1 && latePoint.missed == .shotLate(missed: [1, 2, 3, 4], late: .seconds(200)))
        #expect(!seenLate.contains { if case .state(let change) = $0 { change.state == .asking } else { false } })
    }

    @Test func aSeriesWhoseUntilTimePassedHasNothingLeft() async throws {
        let controller = ShootController(messages: PlainMessages())
        let decision = await controller.resumePoint(
            of: Self.journal(end: .until(Self.firstStart.addingTimeInterval(100))), now: .seconds(200),
            restartSet: false, skipMissed: true, mayAsk: false)
        guard case .nothingLeft(let why, _) = decision else {
            Issue.record("not ended: \(decision)")
            return
        }
        #expect(why == .everyStartPassed)
        #expect(why.sentence == "every remaining start time has passed")
    }

    @Test func aSeriesWithNothingLeftIsMarkedEndedInItsStoreAndAStoppedQuestionEndsTheShoot() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let ended = Self.journal(end: .until(Self.firstStart.addingTimeInterval(100)))
        try await store.create(ended)
        let controller = ShootController(messages: PlainMessages())
        let endedAt = Self.firstStart.addingTimeInterval(200)
        let resumed = try await controller.resumeSeries(
            ended, clocks: SeriesClocks(wallClock: .fixed(endedAt)), request: ResumeRequest(skipMissed: true),
            followsCamera: false, store: store, mayAsk: false)
        guard case .nothingLeft(.everyStartPassed) = resumed else {
            Issue.record("not ended: \(resumed)")
            return
        }
        let saved = try await store.load(id: ended.id)
        #expect(saved.series?.ended == true && saved.status == .complete && saved.updatedAt == endedAt)

        // A missed start whose question is stopped instead of answered: nothing to shoot, the shoot is over.
        let asked = ShootController(messages: PlainMessages())
        let updates = asked.updates()
        let stopper = Task {
            for await update in updates {
                if case .state(let change) = update, change.state == .asking { return await asked.send(.stop) }
            }
            return false
        }
        await #expect(throws: ShootPreparationError.declined) {
            try await asked.resumeSeries(
                Self.journal(), clocks: SeriesClocks(wallClock: .fixed(endedAt)), request: ResumeRequest(),
                followsCamera: false, store: store, mayAsk: true)
        }
        #expect(await stopper.value)
        #expect(asked.snapshot.state == .finished)
    }

    // MARK: - The layer's sentences (the terminal prints them; the page can show the same words)

    /// `date` as a local `HH:MM:SS`, worked out here with Foundation's formatter rather than the layer's own.
    static func localClock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }

    @Test func aMissedStartShotLateSaysWhichPassedHowLateAndHowTheScheduleGoesOn() async throws {
        let (decision, _, _) = await Self.resumeAway(reply: .answer(SeriesResumption.shootLate))
        guard case .resume(let point) = decision else {
            Issue.record("not resumed: \(decision)")
            return
        }
        #expect(
            point.notes == [
                "Start times passed while hdrshoot was away (repetition(s) 1, 2, 3, 4): repetition 1 is shot now, "
                    + "3 min 20 s late, and the schedule continues every 1 min after it; pass --skip-missed to keep "
                    + "the clock times instead."
            ])
    }

    @Test func skippedStartsSayWhichWereSkippedAndTheNextStartsClockTime() async throws {
        let (decision, _, _) = await Self.resumeAway(reply: nil, skipMissed: true)
        guard case .resume(let point) = decision else {
            Issue.record("not resumed: \(decision)")
            return
        }
        // Repetition 5 starts 240 s after the first start, at that local time.
        let clock = Self.localClock(Self.firstStart.addingTimeInterval(240))
        #expect(
            point.notes == [
                "Start times passed while hdrshoot was away: repetition(s) 1, 2, 3, 4 skipped (--skip-missed); "
                    + "next: repetition 5 at \(clock)."
            ])
    }

    @Test func anInterruptedRepetitionSaysItContinuesFromItsFirstFrameNotSaved() async throws {
        // Repetition 1 stopped with its one frame not saved: it continues now, whatever the schedule says.
        var journal = Self.journal()
        journal.series?.repetitions.append(
            SeriesRecord.Repetition(
                number: 1, scheduledOffsetMilliseconds: 0, plannedStart: Self.firstStart,
                actualStart: Self.firstStart, actualOffsetMilliseconds: 0, endedAt: nil, timing: "onTime",
                state: .stopped, outputDirectory: journal.outputDirectory, plan: journal.plan, frames: nil))
        let controller = ShootController(messages: PlainMessages())
        let decision = await controller.resumePoint(
            of: journal, now: .seconds(30), restartSet: false, skipMissed: false, mayAsk: false)
        guard case .resume(let point) = decision else {
            Issue.record("not resumed: \(decision)")
            return
        }
        #expect(point.missed == .interrupted(repetition: 1, position: ShootPosition(set: 1, frame: 1)))
        #expect(point.notes == ["Repetition 1 was interrupted: it continues now from set 1, frame 1."])
    }

    @Test func aNextStartStillAheadNeedsNoNote() async throws {
        let controller = ShootController(messages: PlainMessages())
        let decision = await controller.resumePoint(
            of: Self.journal(), now: .seconds(-5), restartSet: false, skipMissed: false, mayAsk: true)
        guard case .resume(let point) = decision else {
            Issue.record("not resumed: \(decision)")
            return
        }
        #expect(point.missed == .none)
        #expect(point.notes.isEmpty)
    }

    @Test func eachReasonForNothingLeftIsOneWholeSentence() {
        #expect(
            SeriesEndReason.allDone.nothingLeftSentence
                == "Nothing left to shoot: every repetition of the series is done.")
        #expect(
            SeriesEndReason.untilPassed.nothingLeftSentence
                == "Nothing left to shoot: the series' --until time has passed.")
        #expect(
            SeriesEndReason.everyStartPassed.nothingLeftSentence
                == "Nothing left to shoot: every remaining start time has passed.")
    }
}
