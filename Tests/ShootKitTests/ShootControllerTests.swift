import Exposure
import Shooting
import TestSupport
import Testing

@testable import ShootKit

/// The controller in-process, on the in-memory camera and the test clock: the confirm step, the commands, the
/// update stream and its snapshots.
@Suite(.timeLimit(.minutes(1))) struct ShootControllerTests {
    /// Plain sentences: what the error is, as Swift prints it.
    struct PlainMessages: ShootMessages {
        func message(for error: any Error) -> String { "\(error)" }
        func connectFailure(_ error: any Error) -> String { "no answer" }
    }

    static func plan(frames: Int) -> BracketPlan {
        let scale = [1000, 500, 250, 125, 60, 30, 15, 8]
        return BracketPlan(sets: [(0..<frames).map { ShutterSpeed(numerator: 1, denominator: scale[$0]) }])
    }

    static func summary(blockers: [ShootBlocker] = []) -> ShootUpdate.Summary {
        ShootUpdate.Summary(
            exposures: 3, blockers: blockers,
            camera: ShootUpdate.Camera(model: "ILCE-7RM4", address: "127.0.0.1", serialNumber: ""),
            output: "/tmp/shoot")
    }

    /// Collects a subscription's updates until it ends.
    static func collect(_ updates: ShootUpdates) -> Task<[ShootUpdate], Never> {
        Task {
            var seen: [ShootUpdate] = []
            for await update in updates { seen.append(update) }
            return seen
        }
    }

    @Test func aConfirmedShootPublishesEveryStepAndEndsFinished() async throws {
        let controller = ShootController(messages: PlainMessages())
        let watcher = Self.collect(controller.updates())
        #expect(await controller.connecting())
        #expect(await controller.propose(Self.summary()))
        #expect(await controller.send(.confirm))
        #expect(await controller.decision())
        let runner = makeRunner(InMemoryCamera(script: .init()), plan: Self.plan(frames: 3))
        let result = await controller.shoot(
            runner, from: .start, restartingSet: false, resuming: ResumeState(), frameSaved: { _ in })
        await controller.finish(result)
        let updates = await watcher.value

        #expect(result.isComplete)
        guard case .snapshot(let first) = updates.first else {
            Issue.record("the first update is not a snapshot: \(String(describing: updates.first))")
            return
        }
        #expect(first.state == .idle)
        let states = updates.compactMap { update -> ShootPhase? in
            if case .state(let change) = update { return change.state }
            return nil
        }
        #expect(states == [.connecting, .proposed, .shooting, .finished])
        let saved = updates.compactMap { update -> Int? in
            if case .progress(let progress) = update, progress.phase == "saved" { return progress.frame }
            return nil
        }
        #expect(saved == [1, 2, 3])
        guard case .state(let last) = updates.last else {
            Issue.record("the last update is not the finished state")
            return
        }
        #expect(last.state == .finished)
        let final = controller.snapshot
        #expect(final.finished?.complete == true && final.finished?.completed == 3)
        #expect(final.summary == Self.summary())
        // The snapshot is the fold of the updates: a front end that keeps only updates knows the same.
        let folded = updates.dropFirst().reduce(first) { $0.applying($1) }
        #expect(folded == final)
        // Every update survives its own JSON line.
        for update in updates { #expect(try ShootUpdate(jsonLine: update.jsonLine) == update) }
    }

    @Test func aSecondWatcherAttachedMidShootSeesTheSameState() async throws {
        var script = InMemoryCamera.Script()
        script.heldShots = [2]
        let camera = InMemoryCamera(script: script)
        let controller = ShootController(messages: PlainMessages())
        let firstWatcher = controller.updates()
        let runner = makeRunner(camera, plan: Self.plan(frames: 3))
        let shoot = Task {
            await controller.shoot(
                runner, from: .start, restartingSet: false, resuming: ResumeState(), frameSaved: { _ in })
        }
        var firstState = ShootSnapshot()
        var late: [ShootUpdate] = []
        for await update in firstWatcher {
            firstState = firstState.applying(update)
            if case .progress(let progress) = update, progress.frame == 2, progress.phase == "capturing" {
                // The shutter of frame 2 is held open: attach a second watcher now.
                var iterator = controller.updates().makeAsyncIterator()
                if let update = await iterator.next() { late.append(update) }
                camera.releaseCapture()
                break
            }
        }
        let result = await shoot.value
        #expect(result.isComplete)
        guard case .snapshot(let snapshot)? = late.first else {
            Issue.record("a late watcher's first update is not a snapshot")
            return
        }
        #expect(snapshot == firstState)
        #expect(snapshot.state == .shooting)
        #expect(snapshot.progress?.frame == 2 && snapshot.progress?.phase == "capturing")
        #expect(snapshot.started == ShootUpdate.Started(set: 1, frame: 1, completed: 0, total: 3))
    }

    @Test func pauseResumeAndStopAreCommandsWhileShooting() async throws {
        var script = InMemoryCamera.Script()
        script.heldShots = [2]
        let camera = InMemoryCamera(script: script)
        let controller = ShootController(messages: PlainMessages())
        let watcher = controller.updates()
        // Before anything runs, a pause is refused (not queued).
        #expect(await controller.send(.pause) == false)
        let runner = makeRunner(camera, plan: Self.plan(frames: 4))
        let shoot = Task {
            await controller.shoot(
                runner, from: .start, restartingSet: false, resuming: ResumeState(), frameSaved: { _ in })
        }
        var sawPause = false
        for await update in watcher {
            switch update {
            case .progress(let progress) where progress.frame == 2 && progress.phase == "capturing":
                #expect(await controller.send(.pause))
                camera.releaseCapture()
            case .paused(let hold):
                #expect(hold.reason == "user")
                sawPause = true
                #expect(controller.snapshot.holds == [ShootUpdate.Hold(reason: "user", detail: nil)])
            case .progress(let progress) where sawPause && progress.frame == 2 && progress.phase == "saved":
                // Held after frame 2, its image downloaded in the pause: stop ends the run at once, resumable
                // at frame 3. (A stop sent while that download runs leaves the image in the camera and resumes
                // at frame 2, which is why the stop waits for "saved".)
                #expect(await controller.send(.stop))
            default:
                break
            }
            if case .finished = update { break }
        }
        let result = await shoot.value
        #expect(sawPause)
        guard case .stopRequested = result.stopReason else {
            Issue.record("expected a requested stop, got \(String(describing: result.stopReason))")
            return
        }
        #expect(result.resumePosition == ShootPosition(set: 1, frame: 3))
        #expect(await camera.shotSettings.count == 2)
    }

    @Test func abandonCancelsTheFrameInFlight() async {
        var script = InMemoryCamera.Script()
        script.heldShots = [2]
        let camera = InMemoryCamera(script: script)
        let controller = ShootController(messages: PlainMessages())
        let watcher = controller.updates()
        let runner = makeRunner(camera, plan: Self.plan(frames: 4))
        let shoot = Task {
            await controller.shoot(
                runner, from: .start, restartingSet: false, resuming: ResumeState(), frameSaved: { _ in })
        }
        for await update in watcher {
            if case .progress(let progress) = update, progress.frame == 2, progress.phase == "capturing" {
                #expect(await controller.send(.abandon))
                break
            }
        }
        let result = await shoot.value
        guard case .cancelled = result.stopReason else {
            Issue.record("expected a cancelled run, got \(String(describing: result.stopReason))")
            return
        }
        #expect(result.resumePosition == .start)
    }

    @Test func aProposalWithBlockersCannotBeConfirmedOnlyDeclined() async {
        let controller = ShootController(messages: PlainMessages())
        #expect(await controller.propose(Self.summary(blockers: [.camera("the camera is not in M mode")])))
        #expect(await controller.phase == .proposed)
        #expect(await controller.send(.confirm) == false)
        #expect(await controller.send(.decline))
        #expect(await controller.decision() == false)
        // Decided once: a late confirm changes nothing.
        #expect(await controller.send(.confirm) == false)
        #expect(controller.snapshot.summary?.blockers == [.camera("the camera is not in M mode")])
    }

    @Test func aDecisionWaitsForTheCommandOfAnotherFrontEnd() async {
        let controller = ShootController(messages: PlainMessages())
        await controller.connecting()
        await controller.propose(Self.summary())
        let decision = Task { await controller.decision() }
        // Another front end (the phone) answers while the terminal waits.
        var watcher = controller.updates().makeAsyncIterator()
        guard case .snapshot(let snapshot)? = await watcher.next() else {
            Issue.record("no snapshot")
            return
        }
        #expect(snapshot.state == .proposed)
        #expect(await controller.send(.confirm))
        #expect(await decision.value)
    }

    @Test func aStopWhileProposedDeclines() async {
        let controller = ShootController(messages: PlainMessages())
        await controller.propose(Self.summary())
        #expect(await controller.send(.stop))
        #expect(await controller.decision() == false)
    }

    @Test func aQuestionWaitsForOneOfItsAnswers() async {
        let controller = ShootController(messages: PlainMessages())
        let question = Question(text: "The series' start at 07:00 was missed.", answers: ["late", "skip"])
        let asked = Task { await controller.ask(question) }
        var watcher = controller.updates().makeAsyncIterator()
        var snapshot = ShootSnapshot()
        while snapshot.state != .asking, let update = await watcher.next() { snapshot = snapshot.applying(update) }
        #expect(snapshot.question == question)
        #expect(await controller.send(.answer("maybe")) == false)
        #expect(await controller.send(.answer("skip")))
        #expect(await asked.value == "skip")
        #expect(await controller.phase == .idle)
    }

    @Test func endedBeforeTheFirstFrameFinishesEverySubscription() async {
        let controller = ShootController(messages: PlainMessages())
        let watcher = Self.collect(controller.updates())
        await controller.connecting()
        await controller.end()
        let updates = await watcher.value
        #expect(updates.count == 3)
        #expect(controller.snapshot.state == .finished)
        // Commands after the end are refused.
        #expect(await controller.send(.pause) == false)
        #expect(await controller.send(.confirm) == false)
    }

    @Test func commandsAfterTheConfirmAndBeforeTheFirstRunReachIt() async {
        let controller = ShootController(messages: PlainMessages())
        await controller.propose(Self.summary())
        #expect(await controller.send(.confirm))
        #expect(await controller.phase == .shooting)
        // The terminal's keys come before the runner exists: they are kept, in order, for the first run.
        #expect(await controller.send(.pause))
        #expect(await controller.send(.resume))
        #expect(await controller.send(.stop))
        let camera = InMemoryCamera(script: .init())
        let watcher = Self.collect(controller.updates())
        let result = await controller.shoot(
            makeRunner(camera, plan: Self.plan(frames: 3)), from: .start, restartingSet: false,
            resuming: ResumeState(), frameSaved: { _ in })
        await controller.finish(result)
        let holds = await watcher.value.compactMap { update -> String? in
            switch update {
            case .paused(let hold): "paused \(hold.reason)"
            case .resumed(let hold): "resumed \(hold.reason)"
            default: nil
            }
        }
        #expect(holds == ["paused user", "resumed user"])
        guard case .stopRequested = result.stopReason else {
            Issue.record("expected a requested stop, got \(String(describing: result.stopReason))")
            return
        }
        #expect(await camera.shotSettings.isEmpty)
    }

    @Test func anAnswerGivenBeforeTheWaitIsKeptAndAStopEndsTheQuestion() async {
        let controller = ShootController(messages: PlainMessages())
        let question = Question(text: "Shoot late or skip?", answers: ["late", "skip"])
        #expect(await controller.pose(question))
        // Posed, a second question is refused until this one is answered.
        #expect(await controller.pose(question) == false)
        #expect(await controller.send(.answer("late")))
        #expect(await controller.send(.answer("skip")) == false)
        #expect(await controller.answered() == "late")
        #expect(await controller.phase == .idle)
        // Stopped instead of answered: nil, and the front end ends the shoot.
        #expect(await controller.pose(question))
        #expect(await controller.send(.stop))
        #expect(await controller.answered() == nil)
    }
}
