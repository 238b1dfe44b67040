import Exposure
import Foundation
import Posix
import Shooting

/// A bracket the preparation hands over: the camera connected and checked, the photographer agreed, the journal in
/// the store. What `run`, `resume` and the phone remote's shoots give the controller (`prepare`, `shoot`,
/// `conclude`).
package struct PreparedBracket: Sendable {
    /// The connected camera.
    package var camera: any CommandCamera
    /// The shoot's journal, already in the store (a new one for `run`, the loaded one for `resume`).
    package var journal: ShootJournal
    /// Where the journal is saved.
    package var store: JournalStore
    /// The first frame not saved.
    package var start: ShootPosition
    /// `--restart-set`.
    package var restartingSet: Bool
    /// Speeds the plan asked for where the camera lacked them, by frame (for the manifest).
    package var planned: [ShootPosition: ShutterSpeed]
    /// Speeds the camera reported for frames saved by earlier runs (for the manifest).
    package var actual: [ShootPosition: String]
    /// Seconds per frame for the first time-left estimate.
    package var overhead: Double
    /// Whether the output folder was made for this run, so it is removed again if nothing is fired into it.
    package var removesUnusedOutput = false
    /// The speeds the camera offers (`--check extend` adds only these); nil: any of the scale.
    package var offered: OfferedSpeeds<ShutterSpeed>?
    /// `--longest` (`--check extend` adds nothing longer); nil: 30".
    package var longest: ShutterSpeed?
    /// `--auto`'s probe frames, listed apart in the manifest.
    package var probes: [ProbeRecord] = []

    /// A bracket of `journal` on `camera` from `start`.
    package init(
        camera: any CommandCamera, journal: ShootJournal, store: JournalStore, start: ShootPosition,
        restartingSet: Bool, planned: [ShootPosition: ShutterSpeed], actual: [ShootPosition: String],
        overhead: Double, probes: [ProbeRecord] = []
    ) {
        self.probes = probes
        self.camera = camera
        self.journal = journal
        self.store = store
        self.start = start
        self.restartingSet = restartingSet
        self.planned = planned
        self.actual = actual
        self.overhead = overhead
    }
}

/// How a front end has brackets shot: its standing options, and the runner's timing (the CLI's test hooks scale
/// it).
package struct BracketSettings: Sendable {
    /// What crosses the link (`--transfer`).
    package var transfer: TransferChoice
    /// The range check (`--check`).
    package var check: RangeCheckMode
    /// Most frames fired ahead of the downloads (`--buffer`); the body's own buffer caps it.
    package var bufferLimit: Int
    /// The runner's configuration for an output folder, a buffer limit and whether images are downloaded.
    package var configuration:
        @Sendable (_ outputDirectory: URL, _ bufferLimit: Int, _ downloads: Bool) -> BracketRunner.Configuration

    /// Settings.
    package init(
        transfer: TransferChoice, check: RangeCheckMode, bufferLimit: Int,
        configuration: @escaping @Sendable (URL, Int, Bool) -> BracketRunner.Configuration
    ) {
        self.transfer = transfer
        self.check = check
        self.bufferLimit = bufferLimit
        self.configuration = configuration
    }
}

/// A bracket ready to fire: the transfer set up, the manifest keeper made, the link watched, the session log
/// linked from the journal.
package struct BracketExecution: Sendable {
    /// The bracket as handed over, its journal carrying the camera's network and the session log.
    package var prepared: PreparedBracket
    /// What the runner shoots.
    package var shoot: BracketShoot
    /// What keeps `manifest.json` current.
    package var manifest: ManifestWriter
    /// The link's watch (nil: not watched).
    package var network: NetworkWatch?
    /// What to tell the photographer about the transfer before the first frame (nil: nothing).
    package var transferNote: TransferNote?
    /// What Long Exposure NR adds to the time-left estimate: the body's setting (0xD15B), on when it does not say.
    package var noiseReduction: TimeLeftEstimator.NoiseReduction
}

/// The keeper as the controller's manifest: a failed write is said through `warn` in the messages' words, and
/// never stops the shoot.
package struct ManifestWriter: ShootManifestKeeping {
    /// The keeper.
    package let keeper: ManifestKeeper
    /// The sentences of errors.
    package let messages: any ShootMessages
    /// Where a failed write is said (`warning: …`).
    package let warn: @Sendable (String) -> Void

    /// A writer of `keeper`'s manifest.
    package init(keeper: ManifestKeeper, messages: any ShootMessages, warn: @escaping @Sendable (String) -> Void) {
        self.keeper = keeper
        self.messages = messages
        self.warn = warn
    }

    /// Notes the speed the camera reported for a saved frame.
    package func saved(_ progress: FrameProgress) async { await keeper.saved(progress) }

    /// Notes the range check's measurements and verdicts.
    package func noteRange(frames: [ShootPosition: RangeWatch.FrameRecord], checks: [RangeWatch.Record]) async {
        await keeper.noteRange(frames: frames, checks: checks)
    }

    /// The next write replaces a finished manifest.
    package func reopen() async { await keeper.reopen() }

    /// Writes the manifest of `journal`.
    package func write(_ journal: ShootJournal) async {
        let warn = warn
        await keeper.write(journal, messages: messages) { warn("warning: \($0)") }
    }
}

extension ShootController {
    /// Readies `given` to fire with `settings`: the camera's network and this session's log noted in the journal,
    /// the transfer set up (a body that cannot is an error, thrown before anything fires), the manifest keeper,
    /// the output folder made again when a `resume` finds it gone. `warn` says a failed manifest write.
    package func prepare(
        _ given: PreparedBracket, settings: BracketSettings, network: NetworkWatch?,
        warn: @escaping @Sendable (String) -> Void
    ) async throws -> BracketExecution {
        var prepared = given
        if let ssid = network?.cameraSSID { prepared.journal.camera.ssid = ssid.description }
        // The session log carries the shoot id in its name, and the journal (so the manifest) links to it.
        if let log = SessionLogging.current {
            let path = log.attach(shootID: prepared.journal.id)
            prepared.journal.sessionLogs = (prepared.journal.sessionLogs ?? []) + [path]
            log.record(
                "shoot",
                [
                    ("id", .string(prepared.journal.id)),
                    (
                        "journal",
                        .string(prepared.store.directory.appendingPathComponent(prepared.journal.id + ".json").path)
                    ),
                    ("output", .string(prepared.journal.outputDirectory)),
                    ("camera", .string(prepared.journal.camera.model))
                ])
        }
        let camera = prepared.camera
        let outputDirectory = URL(fileURLWithPath: prepared.journal.outputDirectory, isDirectory: true)
        let transfer = try await camera.prepareTransfer(choice: settings.transfer)
        let noiseReduction: TimeLeftEstimator.NoiseReduction =
            await camera.longExposureNR == false ? .none : .darkFrame(threshold: 1)
        let manifest = ManifestWriter(
            keeper: ManifestKeeper(
                directory: prepared.journal.outputDirectory, planned: prepared.planned, actual: prepared.actual,
                probes: prepared.probes),
            messages: messages, warn: warn)
        // `resume` of a shoot whose folder went away (nothing was fired into it) makes it again (a folder that
        // cannot be made fails the first frame's download, with its reason).
        _ = try? FileSystem.makeDirectories(prepared.journal.outputDirectory, permissions: 0o755)
        let bufferLimit = min(settings.bufferLimit, camera.bufferCapacity ?? settings.bufferLimit)
        let shoot = BracketShoot(
            camera: camera, journal: prepared.journal, store: prepared.store, start: prepared.start,
            restartingSet: prepared.restartingSet, check: settings.check, offered: prepared.offered,
            longest: prepared.longest,
            configuration: settings.configuration(outputDirectory, bufferLimit, transfer.downloads))
        return BracketExecution(
            prepared: prepared, shoot: shoot, manifest: manifest, network: network, transferNote: transfer.note,
            noiseReduction: noiseReduction)
    }

    /// Shoots `execution` to its end (`shootBracket`, each run under the network watch's hold, every runner event
    /// in the session log); `warn` says what the network watch warns of. Returns how the last run ended and the
    /// journal as it stands; `conclude` comes next.
    package func shoot(
        _ execution: BracketExecution, warn: @escaping @Sendable (String) -> Void
    ) async -> (ShootResult, ShootJournal) {
        let network = execution.network
        let messages = messages
        return await shootBracket(
            execution.shoot, manifest: execution.manifest,
            guardRun: { runner, body in
                await NetworkWatch.guarding(runner, with: network, note: self.note, warn: warn, body)
            },
            record: { SessionLogging.record($0, messages: messages) })
    }

    /// Ends a shot bracket: the camera let go, the manifest written as the journal stands, the output folder taken
    /// away again when this run made it and nothing was fired into it, and the controller finished with `result`.
    package func conclude(_ execution: BracketExecution, result: ShootResult, journal: ShootJournal) async {
        await execution.prepared.camera.disconnect()
        await execution.manifest.write(journal)
        if execution.prepared.removesUnusedOutput, journal.savedCount == 0, journal.interruptedFrames.isEmpty {
            // Ended before its first frame fired: the folder holds nothing but the manifest of nothing.
            OutputFolder.removeIfUnused(execution.prepared.journal.outputDirectory)
        }
        finish(result)
    }
}
