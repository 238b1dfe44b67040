import Exposure
import Foundation
import Shooting

/// A single bracket ready to shoot: the camera connected and checked, the photographer agreed, the journal in
/// the store. What `run`, `resume` and (later) the phone remote hand the controller.
package struct BracketShoot: Sendable {
    /// The connected camera.
    package var camera: any RemoteCamera
    /// The shoot's journal, already in the store (a new one for `run`, the loaded one for `resume`).
    package var journal: ShootJournal
    /// Where the journal is saved.
    package var store: JournalStore
    /// The first frame not saved.
    package var start: ShootPosition
    /// `--restart-set`: the interrupted set is shot again from its first frame.
    package var restartingSet: Bool
    /// The range check after each set and for the bracket (`--check`).
    package var check: RangeCheckMode
    /// The speeds the camera offers (`--check extend` adds only these); nil: any of the scale.
    package var offered: OfferedSpeeds<ShutterSpeed>?
    /// `--longest` (`--check extend` adds nothing longer); nil: 30".
    package var longest: ShutterSpeed?
    /// The runner's configuration (output folder, reconnect, buffer, downloads, clock scale).
    package var configuration: BracketRunner.Configuration
    /// The clock the runner waits on (a test's virtual clock; the real one by default).
    package var clock: any Clock<Duration>

    /// A shoot of `journal` on `camera` from `start`.
    package init(
        camera: any RemoteCamera, journal: ShootJournal, store: JournalStore, start: ShootPosition,
        restartingSet: Bool, check: RangeCheckMode, offered: OfferedSpeeds<ShutterSpeed>?, longest: ShutterSpeed?,
        configuration: BracketRunner.Configuration, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.clock = clock
        self.camera = camera
        self.journal = journal
        self.store = store
        self.start = start
        self.restartingSet = restartingSet
        self.check = check
        self.offered = offered
        self.longest = longest
        self.configuration = configuration
    }

    /// Frames after the start already saved, frames whose images wait in the camera, and frames that may have
    /// fired when the last run was interrupted.
    package var resuming: ResumeState {
        ResumeState(
            saved: Set(
                journal.plan.positions.filter { position in
                    if case .done = journal.frame(at: position).state { return position > start }
                    return false
                }),
            inCamera: journal.framesInCamera,
            mayHaveFired: journal.interruptedFrames, knownFiles: journal.filesNamed)
    }
}

/// What keeps `manifest.json` current while a bracket is shot (the CLI's `ManifestKeeper`).
package protocol ShootManifestKeeping: Sendable {
    /// Notes the speed the camera reported for a saved frame.
    func saved(_ progress: FrameProgress) async
    /// Notes the range check's measurements and verdicts.
    func noteRange(frames: [ShootPosition: RangeWatch.FrameRecord], checks: [RangeWatch.Record]) async
    /// The next write replaces a manifest that says complete (frames were appended).
    func reopen() async
    /// Writes the manifest of `journal`; a failure is the keeper's to report and never stops the shoot.
    func write(_ journal: ShootJournal) async
}

extension ShootController {
    /// Shoots `shoot` to its end: one runner over the journal's plan from the start, the manifest kept current
    /// after every saved frame, the range checked (`--check`), and with `--check extend` a set appended and shot
    /// when the bracket lacks an end. Each run is announced by a `plan` update, then published event by event.
    /// `guardRun` wraps each run (the network monitor's hold); `record` sees every runner event (the session
    /// log). Returns how the last run ended and the journal as it stands.
    package func shootBracket(
        _ shoot: BracketShoot, manifest: any ShootManifestKeeping,
        guardRun: @escaping @Sendable (BracketRunner, @Sendable () async -> ShootResult) async -> ShootResult = {
            await $1()
        },
        record: @escaping @Sendable (ShootEvent) -> Void = { _ in }
    ) async -> (ShootResult, ShootJournal) {
        let recorder = JournalRecorder(journal: shoot.journal, store: shoot.store)
        let watch = shoot.check == .off ? nil : RangeWatch(journal: shoot.journal)
        var start = shoot.start
        var restartingSet = shoot.restartingSet
        var resuming = shoot.resuming
        var first = true
        while true {
            let plan = await recorder.journal.plan
            publish(.plan(ShootUpdate.Plan(plan)))
            if first, let watch {
                // Frames saved by earlier runs are measured first (their verdicts said again).
                await checkRange(watch, journal: await recorder.journal, manifest: manifest)
            }
            await manifest.write(await recorder.journal)
            let runner = BracketRunner(
                camera: shoot.camera, plan: plan, configuration: shoot.configuration, recorder: recorder,
                clock: shoot.clock)
            let (from, restarting, resumingNow) = (start, restartingSet, resuming)
            let result = await guardRun(runner) {
                await self.shoot(
                    runner, from: from, restartingSet: restarting, resuming: resumingNow,
                    frameSaved: { progress in
                        await manifest.saved(progress)
                        if let watch {
                            await self.checkRange(watch, journal: await recorder.journal, manifest: manifest)
                        }
                        await manifest.write(await recorder.journal)
                    }, record: record)
            }
            first = false
            guard result.isComplete, shoot.check == .extend, let watch,
                let added = await extensionStart(shoot, watch: watch, recorder: recorder, manifest: manifest)
            else { return (result, await recorder.journal) }
            (start, restartingSet, resuming) = (added, false, ResumeState())
        }
    }
}
