import ShootKit
import Shooting

/// The keeper as the controller's manifest: its warnings go to standard error of `output`.
struct ManifestWriter: ShootManifestKeeping {
    /// The keeper.
    let keeper: ManifestKeeper
    /// Where a failed write is said.
    let output: any OutputStreams

    /// Notes the speed the camera reported for a saved frame.
    func saved(_ progress: FrameProgress) async { await keeper.saved(progress) }

    /// Notes the range check's measurements and verdicts.
    func noteRange(frames: [ShootPosition: RangeWatch.FrameRecord], checks: [RangeWatch.Record]) async {
        await keeper.noteRange(frames: frames, checks: checks)
    }

    /// The next write replaces a finished manifest.
    func reopen() async { await keeper.reopen() }

    /// Writes the manifest of `journal`.
    func write(_ journal: ShootJournal) async {
        let output = output
        await keeper.write(journal, messages: CLIMessages()) { output.writeError("warning: \($0)\n") }
    }
}
