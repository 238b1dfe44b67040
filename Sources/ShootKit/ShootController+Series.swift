import Exposure
import Foundation
import Posix
import Shooting

extension ShootController {
    /// Shoots the series `shoot` to its end: the repetitions on the schedule, the state `waiting` between them
    /// (with the next start in the `waiting` update) and `shooting` during each, every repetition's frames
    /// published as for a bracket, both manifests kept current (`SeriesManifestWriter`). Pause, stop and abandon
    /// reach the series runner. `guardRun` wraps each repetition's run (the network monitor's hold), `warn` says a
    /// failed manifest write, and `observe` sees every series event in order, before the manifests are written
    /// for it (a test moves its clock on the wait; front ends render the updates instead). Returns how the series ended and its journal as it stands, the series
    /// manifest written; `concludeSeries` comes next.
    package func shootSeries(
        _ shoot: SeriesShoot, guardRun: @escaping SeriesRunner.RunGuard = { await $1() },
        warn: @escaping @Sendable (String) -> Void = { _ in },
        observe: @escaping @Sendable (SeriesEvent) async -> Void = { _ in }
    ) async -> (SeriesResult, ShootJournal) {
        guard let record = shoot.journal.series else { preconditionFailure("a series journal") }
        let (messages, offered, warnings) = (messages, shoot.offered, shoot.planWarnings)
        let recorder = SeriesJournalRecorder(
            journal: shoot.journal, store: shoot.store,
            continuing: shoot.continuing.map { ($0.position, $0.restartingSet) }, now: shoot.wallClock.now
        ) { number, folder in
            do throws(Errno) {
                _ = try FileSystem.makeDirectories(folder.path, permissions: 0o755)
            } catch {
                throw RepetitionFolderError(path: folder.path, cause: error)
            }
            return try record.prepared(number, offered: offered, warnings: warnings, messages: messages)
        }
        let manifests = SeriesManifestWriter(messages: messages, warn: warn)
        let runner = SeriesRunner(
            camera: shoot.camera, schedule: record.schedule, configuration: shoot.configuration, recorder: recorder,
            elapsed: shoot.elapsed, clock: shoot.clock, runGuard: guardRun)
        let abandon = await takeRun(runner)
        async let consumed: Void = consumeSeries(
            runner.events, record: record, recorder: recorder, manifests: manifests, wallClock: shoot.wallClock,
            observe: observe)
        let (start, skipping) = (shoot.start, shoot.skipping)
        let result = await Self.running(abandonedBy: abandon) { await runner.run(from: start, skipping: skipping) }
        await consumed
        dropRun()
        let final = await recorder.latest
        await manifests.write(final)
        return (result, final)
    }

    /// Publishes the series' events in order until its stream ends, moving between `waiting` and `shooting`.
    private func consumeSeries(
        _ events: AsyncStream<SeriesEvent>, record: SeriesRecord, recorder: SeriesJournalRecorder,
        manifests: SeriesManifestWriter, wallClock: WallClock, observe: @Sendable (SeriesEvent) async -> Void
    ) async {
        for await event in events {
            switch event {
            case let .waiting(start, remaining):
                let at = wallClock.now().addingTimeInterval(ShootUpdate.seconds(remaining))
                publish(
                    .waiting(
                        ShootUpdate.Waiting(
                            repetition: start.number, startsAt: SeriesManifest.iso(at),
                            inSeconds: (ShootUpdate.seconds(remaining) * 10).rounded() / 10)))
                // The wait is in the snapshot before the state says waiting.
                betweenRepetitions(waiting: true)
            case .skipped(let numbers):
                note(
                    "Skipped repetition(s) \(numbers.map(String.init).joined(separator: ", ")): their start times passed"
                )
            case let .repetitionStarted(start, plan):
                betweenRepetitions(waiting: false)
                var update = ShootUpdate.RepetitionStarted(
                    repetition: start.number, exposures: plan.totalExposures,
                    timing: SeriesJournalRecorder.name(start.timing))
                if case .late(let by) = start.timing { update.lateSeconds = ShootUpdate.seconds(by) }
                if case .afterOverrun(let by) = start.timing { update.overrunSeconds = ShootUpdate.seconds(by) }
                publish(.repetitionStarted(update))
                publish(.plan(ShootUpdate.Plan(plan)))
            case .shoot(_, let shootEvent):
                if let update = ShootUpdate(shootEvent, messages: messages) { publish(update) }
            case let .repetitionFinished(number, result):
                publish(
                    .repetitionFinished(
                        ShootUpdate.RepetitionFinished(
                            repetition: number, complete: result.isComplete, saved: result.saved, fired: result.fired,
                            inCamera: result.inCamera)))
            case .paused(let reason):
                publish(.paused(ShootUpdate.Hold(reason)))
            case .resumed(let reason):
                publish(.resumed(ShootUpdate.Hold(reason)))
            case .finished:
                break
            }
            await observe(event)
            // The manifests follow the journal: the repetition's folder exists once it started.
            switch event {
            case .repetitionStarted(let start, _):
                await manifests.begin(repetition: start.number, root: record.rootDirectory)
                await manifests.write(await recorder.latest)
            case .shoot(_, .progress(let progress)) where progress.phase == .saved:
                await manifests.saved(progress, journal: await recorder.latest)
            case .repetitionFinished(let number, _):
                // The journal as the repetition ended: after an overrun the next one may have started already.
                if let finished = await recorder.journal(whenFinished: number) {
                    await manifests.write(finished)
                } else {
                    await manifests.write(await recorder.latest)
                }
                await manifests.end()
            default:
                break
            }
        }
    }

    /// Ends a shot series: the last update says how (the stopped repetition's `finished`, else `seriesFinished`),
    /// and every subscription ends.
    package func concludeSeries(_ result: SeriesResult, journal: ShootJournal) {
        if let last = result.lastResult, !last.isComplete {
            finish(last)
            return
        }
        publish(.seriesFinished(ShootUpdate.SeriesFinished(result, journal: journal)))
        end()
    }
}

extension ShootUpdate.SeriesFinished {
    /// How `result` left the series of `journal`: whether every repetition is done, how many are, and the one
    /// `resume` starts with. The one reading of a series' end, for the controller's last update and a front end's
    /// closing lines.
    package init(_ result: SeriesResult, journal: ShootJournal) {
        self.init(
            complete: result.isComplete,
            repetitionsDone: journal.series?.repetitions.filter { $0.state == .done }.count ?? 0,
            next: result.resumeAt.map(\.number))
    }
}
