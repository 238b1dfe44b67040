import Shooting

/// What the controller can hold, pause and stop: a single bracket's runner or a series' runner.
package protocol ShootControllable: Sendable {
    /// Holds shooting for `reason` (it parks before the next frame).
    func pause(reason: PauseReason) async
    /// Lifts the hold `reason` placed.
    func resume(reason: PauseReason) async
    /// Stops after the frame in flight (at once while nothing fires).
    func stop() async
}

extension BracketRunner: ShootControllable {}
extension SeriesRunner: ShootControllable {}

/// The one owner of a running shoot, whatever front end drives it: the terminal (`hdrshoot run`) and the phone
/// remote send it the same commands and watch the same updates.
///
/// The shoot moves through `ShootPhase`: idle, connecting, proposed (the plan matched to the body waits for
/// `confirm()` or `decline()`), asking (a question waits for `answer(_:)`), shooting, waiting (between a series'
/// repetitions), finished. Every state change and every runner event is published as a `ShootUpdate` on one
/// multicast stream (`updates(limit:)`), whose first element for a new subscriber is the full snapshot.
///
/// The state is an enum re-checked after every `await`: a command that comes in a state that does not take it
/// is refused (`false`), never queued.
package actor ShootController: ShootControllable {
    /// Where the shoot is, with what each state holds.
    enum State {
        case idle
        case connecting
        case proposed(ShootUpdate.Summary, decision: Bool?, waiter: CheckedContinuation<Bool, Never>?)
        /// `answer`: nil until answered; `.some(nil)` when the shoot was stopped instead.
        case asking(Question, answer: String??, waiter: CheckedContinuation<String?, Never>?)
        /// `run` is nil before the first run and between two runs of the same shoot (a range extension is being
        /// recorded): commands then wait in `pending` for the next run.
        case shooting(Run?, Pending)
        case waiting(Run?, Pending)
        case finished(ShootUpdate.Finished)
    }

    /// Commands given while the shoot is on but no run is in hand, in order: the next run starts with them (a
    /// pause and its release both reach it, so both are reported).
    struct Pending {
        enum Action {
            case pause(PauseReason)
            case resume(PauseReason)
            case stop
            case abandon
        }
        var actions: [Action] = []
    }

    /// A run in hand: what pause and stop reach, and how to abandon the frame in flight.
    struct Run {
        var target: any ShootControllable
        var abandon: AsyncStream<Void>.Continuation
    }

    /// Written only by the controller's own files (this one, `+Run`, `+Series`).
    var state: State = .idle
    /// Where the shoot was when a question was posed: where it goes back once answered.
    private var beforeQuestion: State = .idle
    private let broadcaster = UpdateBroadcaster()
    /// Give errors their sentences.
    let messages: any ShootMessages

    /// A controller of an idle shoot; `messages` give every error in an update its sentence.
    package init(messages: any ShootMessages) {
        self.messages = messages
    }

    // MARK: - Watching

    /// A new subscription to the updates: the snapshot of the state now, then every update. `limit`: how far a
    /// subscriber may fall behind before its backlog collapses into one snapshot (nil: keep everything).
    package nonisolated func updates(limit: Int? = nil) -> ShootUpdates {
        broadcaster.subscribe(limit: limit)
    }

    /// The state now, as one value.
    package nonisolated var snapshot: ShootSnapshot { broadcaster.snapshot }

    /// Publishes a sentence for the photographer.
    package nonisolated func note(_ text: String) {
        broadcaster.publish(.note(ShootUpdate.Note(message: text)))
    }

    /// Publishes an update the shoot's steps make beside the runner (a range verdict).
    package nonisolated func publish(_ update: ShootUpdate) {
        broadcaster.publish(update)
    }

    /// The phase of the current state.
    package var phase: ShootPhase {
        switch state {
        case .idle: .idle
        case .connecting: .connecting
        case .proposed: .proposed
        case .asking: .asking
        case .shooting: .shooting
        case .waiting: .waiting
        case .finished: .finished
        }
    }

    /// Moves to `next`; a change of phase is published (with the question, when asking).
    func enter(_ next: State) {
        let before = phase
        state = next
        guard phase != before else { return }
        var question: Question?
        if case .asking(let asked, _, _) = state { question = asked }
        broadcaster.publish(.state(ShootUpdate.StateChange(state: phase, question: question)))
    }

    // MARK: - Before the first frame

    /// The camera is being reached. Refused once the shoot has left idle.
    @discardableResult
    package func connecting() -> Bool {
        guard case .idle = state else { return false }
        enter(.connecting)
        return true
    }

    /// Proposes what will be shot and waits for nothing: `decision()` waits for the answer. Refused unless
    /// connecting (or idle: a front end that connects elsewhere).
    @discardableResult
    package func propose(_ summary: ShootUpdate.Summary) -> Bool {
        switch state {
        case .idle, .connecting:
            broadcaster.publish(.summary(summary))
            enter(.proposed(summary, decision: nil, waiter: nil))
            return true
        default:
            return false
        }
    }

    /// Waits until the proposal is confirmed (true) or declined (false); false when nothing is proposed.
    package func decision() async -> Bool {
        if case .shooting = state { return true }
        guard case .proposed(let summary, let decision, let waiter) = state else { return false }
        if let decision { return decision }
        precondition(waiter == nil, "one front end waits for the decision")
        return await withCheckedContinuation { continuation in
            state = .proposed(summary, decision: nil, waiter: continuation)
        }
    }

    /// Agrees to the proposal. Refused when nothing is proposed, it was already decided, or it has blockers.
    private func confirm() -> Bool {
        decide(true)
    }

    /// Declines the proposal: nothing is shot. Refused when nothing is proposed or it was already decided.
    private func decline() -> Bool {
        decide(false)
    }

    private func decide(_ yes: Bool) -> Bool {
        guard case .proposed(let summary, nil, let waiter) = state else { return false }
        if yes && !summary.blockers.isEmpty { return false }
        state = .proposed(summary, decision: yes, waiter: nil)
        // Confirmed, the shoot is on: a key pressed before the first frame is kept for the first run.
        if yes { enter(.shooting(nil, Pending())) }
        waiter?.resume(returning: yes)
        return true
    }

    /// Asks `question` and waits for an answer (one of its answers), or nil when the shoot is stopped instead.
    package func ask(_ question: Question) async -> String? {
        guard pose(question) else { return nil }
        return await answered()
    }

    /// Asks `question` and waits for nothing: `answered()` waits for the answer. Refused while something else
    /// waits for a front end (a proposal, another question) and once finished.
    @discardableResult
    package func pose(_ question: Question) -> Bool {
        switch state {
        case .proposed, .asking, .finished: return false
        default: break
        }
        beforeQuestion = state
        enter(.asking(question, answer: nil, waiter: nil))
        return true
    }

    /// Waits for the answer to the question posed (nil when the shoot was stopped instead, or nothing is asked);
    /// then the shoot is back where it was before the question.
    package func answered() async -> String? {
        guard case .asking(let question, let given, let waiter) = state else { return nil }
        let answer: String?
        if let given {
            answer = given
        } else {
            precondition(waiter == nil, "one front end waits for the answer")
            answer = await withCheckedContinuation { continuation in
                state = .asking(question, answer: nil, waiter: continuation)
            }
        }
        // Re-checked after the wait: only a question still standing hands the state back.
        if case .asking = state { enter(beforeQuestion) }
        return answer
    }

    /// Answers the question asked. Refused when nothing is asked, it was answered, or `answer` is not one of
    /// its answers.
    private func answer(_ answer: String) -> Bool {
        guard case .asking(let question, nil, let waiter) = state, question.answers.contains(answer) else {
            return false
        }
        state = .asking(question, answer: .some(answer), waiter: nil)
        waiter?.resume(returning: answer)
        return true
    }

    // MARK: - Shooting

    /// Runs `runner` from `start` to its end, publishing every event as an update; `frameSaved` runs (in order,
    /// before the next event is published) after each saved frame, `record` sees every raw event (the session
    /// log). An `abandon()` cancels the runner, abandoning the frame in flight.
    package func shoot(
        _ runner: BracketRunner, from start: ShootPosition, restartingSet: Bool, resuming: ResumeState,
        frameSaved: @escaping @Sendable (FrameProgress) async -> Void,
        record: @escaping @Sendable (ShootEvent) -> Void = { _ in }
    ) async -> ShootResult {
        let abandon = await takeRun(runner)
        let (broadcaster, messages) = (broadcaster, messages)
        async let consumed: Void = Self.consume(
            runner.events, into: broadcaster, messages: messages, frameSaved: frameSaved, record: record)
        let result = await Self.running(abandonedBy: abandon) {
            await runner.run(from: start, restartingInterruptedSet: restartingSet, resuming: resuming)
        }
        await consumed
        dropRun()
        return result
    }

    /// Publishes the runner's events in order until its stream ends.
    private static func consume(
        _ events: AsyncStream<ShootEvent>, into broadcaster: UpdateBroadcaster,
        messages: any ShootMessages,
        frameSaved: @Sendable (FrameProgress) async -> Void, record: @Sendable (ShootEvent) -> Void
    ) async {
        for await event in events {
            record(event)
            if let update = ShootUpdate(event, messages: messages) { broadcaster.publish(update) }
            if case .progress(let progress) = event, progress.phase == .saved { await frameSaved(progress) }
        }
    }

    /// The shoot is over: publishes how it ended as the last update and ends every subscription.
    package func finish(_ result: ShootResult) {
        let finished = ShootUpdate.Finished(result, messages: messages)
        if case .finished = state { return }
        if case .proposed(let summary, nil, let waiter) = state {
            state = .proposed(summary, decision: false, waiter: nil)
            waiter?.resume(returning: false)
        }
        broadcaster.publish(.finished(finished))
        enter(.finished(finished))
        broadcaster.finish()
    }

    /// Ends the shoot without a run (declined, refused, failed before the first frame): the last update is the
    /// state change to finished.
    package func end() {
        if case .finished = state { return }
        if case .proposed(let summary, nil, let waiter) = state {
            state = .proposed(summary, decision: false, waiter: nil)
            waiter?.resume(returning: false)
        }
        if case .asking(let question, nil, let waiter) = state {
            state = .asking(question, answer: .some(nil), waiter: nil)
            waiter?.resume(returning: nil)
        }
        let finished = ShootUpdate.Finished(
            complete: false, completed: 0, total: 0, capturedThisRun: 0, resumePosition: nil, stopReason: nil,
            message: nil)
        enter(.finished(finished))
        broadcaster.finish()
    }

    // MARK: - Commands while shooting

    private var run: Run? {
        switch state {
        case .shooting(let run, _), .waiting(let run, _): run
        default: nil
        }
    }

    /// Does `action` to the run in hand or, while the shoot is on between runs, notes it in `pending` for the next
    /// run; false in any other state.
    private func act(_ action: (Run) async -> Void, pending note: (inout Pending) -> Void) async -> Bool {
        switch state {
        case .shooting(let run?, _), .waiting(let run?, _):
            await action(run)
            return true
        case .shooting(nil, var pending):
            note(&pending)
            state = .shooting(nil, pending)
            return true
        case .waiting(nil, var pending):
            note(&pending)
            state = .waiting(nil, pending)
            return true
        default:
            return false
        }
    }

    /// Holds shooting for `reason`. Refused unless the shoot is on.
    private func hold(_ reason: PauseReason) async -> Bool {
        await act({ await $0.target.pause(reason: reason) }, pending: { $0.actions.append(.pause(reason)) })
    }

    /// Lifts the hold of `reason`. Refused unless the shoot is on.
    private func release(_ reason: PauseReason) async -> Bool {
        await act({ await $0.target.resume(reason: reason) }, pending: { $0.actions.append(.resume(reason)) })
    }

    /// Stops after the frame in flight; before the first frame, declines the proposal or ends the question.
    private func stopRun() async -> Bool {
        switch state {
        case .proposed: return decline()
        case .asking(let question, nil, let waiter):
            state = .asking(question, answer: .some(nil), waiter: nil)
            waiter?.resume(returning: nil)
            return true
        default:
            return await act({ await $0.target.stop() }, pending: { $0.actions.append(.stop) })
        }
    }

    /// Abandons the frame in flight (it is shot again on resume). Refused unless the shoot is on.
    private func abandon() async -> Bool {
        await act({ $0.abandon.yield() }, pending: { $0.actions.append(.abandon) })
    }

    // MARK: - ShootControllable (the terminal's keys and signals)

    /// A hold of `reason` on the run in hand (or the next one).
    package func pause(reason: PauseReason) async {
        _ = await hold(reason)
    }

    /// Lifts the hold of `reason` on the run in hand (or the next one).
    package func resume(reason: PauseReason) async {
        _ = await release(reason)
    }

    /// Stops after the frame in flight (before the first frame: declines, or ends the question).
    package func stop() async {
        _ = await stopRun()
    }

    // MARK: - Commands

    /// Carries out `command`; false when the shoot's state does not take it now (it is not queued).
    @discardableResult
    package func send(_ command: ShootCommand) async -> Bool {
        switch command.command {
        case .confirm: return confirm()
        case .decline: return decline()
        case .answer: return answer(command.answer ?? "")
        case .pause: return await hold(PauseReason(.user))
        case .resume: return await release(PauseReason(.user))
        case .stop: return await stopRun()
        case .abandon: return await abandon()
        }
    }
}
