import Exposure
import Foundation
import Posix
import Shooting

/// Keeps `manifest.json` current: the planned speeds, the actual speeds seen, the journal's frames, and (with
/// `--link-shared`) the hard links that put a shared frame into both sets' folders.
///
/// It never replaces another shoot's manifest nor rewrites a finished one (`ShootManifest.write(to:)`): a
/// second shoot started into the same folder, or a late write of a run killed at the end, leaves it as it is.
package actor ManifestKeeper {
    private let directory: String
    private let planned: [ShootPosition: ShutterSpeed]
    private var actual: [ShootPosition: String]
    private var warned = false
    private var luminance: [ShootPosition: RangeWatch.FrameRecord] = [:]
    private var rangeChecks: [RangeWatch.Record] = []
    private var reopening = false

    private let probes: [ProbeRecord]

    /// A keeper writing into `directory`, starting from the speeds known so far; `probes` are `--auto`'s.
    package init(
        directory: String, planned: [ShootPosition: ShutterSpeed], actual: [ShootPosition: String],
        probes: [ProbeRecord] = []
    ) {
        self.directory = directory
        self.probes = probes
        self.planned = planned
        self.actual = actual
    }

    /// Notes the speed the camera reported for a saved frame.
    package func saved(_ progress: FrameProgress) {
        actual[progress.position] = (progress.saved?.actualSpeed ?? progress.setting).description
    }

    /// Notes the range check's measurements and verdicts so far (written with the next manifest).
    package func noteRange(frames: [ShootPosition: RangeWatch.FrameRecord], checks: [RangeWatch.Record]) {
        luminance = frames
        rangeChecks = checks
    }

    /// The next write replaces a manifest that says complete: `--check extend` appended frames.
    package func reopen() { reopening = true }

    /// Writes the manifest of `journal` (linking shared frames first when the recipe asks); a failure is
    /// reported once to `warn` (a sentence, worded by `messages`) and does not stop the shoot (the journal is the
    /// record that matters).
    package func write(
        _ journal: ShootJournal, messages: any ShootMessages, warn: @Sendable (String) -> Void
    ) async {
        let linked = await Self.linkShared(journal)
        var manifest = ShootManifest(journal: journal, planned: planned, actual: actual, linked: linked)
        for index in manifest.frames.indices {
            let frame = manifest.frames[index]
            manifest.frames[index].luminance = luminance[ShootPosition(set: frame.set, frame: frame.frame)]
        }
        manifest.rangeChecks = rangeChecks.isEmpty ? nil : rangeChecks
        manifest.probes = probes.isEmpty ? nil : probes
        do {
            switch try await manifest.write(to: directory, reopening: reopening) {
            case .written:
                reopening = false
                // A finished bracket gets its merge.sh from the frames just written (MergeScript.swift).
                if let failure = await Self.writeMergeScripts(manifest, in: directory) {
                    warnOnce(warn, "cannot write a merge.sh in \(directory): \(messages.message(for: failure))")
                }
            case .keptFinished:
                break
            case .keptAnotherShoot(let id):
                warnOnce(
                    warn,
                    "\(directory)/\(ShootManifest.fileName) belongs to "
                        + (id.map { "shoot \($0)" } ?? "something else")
                        + "; it is left as it is and this shoot's manifest is not written")
            }
        } catch {
            warnOnce(warn, "cannot write \(directory)/\(ShootManifest.fileName): \(messages.message(for: error))")
        }
    }

    /// Writes the finished bracket's `merge.sh` off the cooperative pool; returns the failure.
    package static func writeMergeScripts(_ manifest: ShootManifest, in directory: String) async -> (any Error)? {
        await runBlocking(on: ShootManifest.queue) { MergeScript.write(for: manifest, in: directory) }
    }

    private func warnOnce(_ warn: @Sendable (String) -> Void, _ text: String) {
        guard !warned else { return }
        warned = true
        warn(text)
    }

    /// With `--link-shared`: hard-links every saved shared frame into the folder of the other set whose bracket
    /// it completes (idempotent: an existing link is kept). Returns the links present, relative to the output
    /// folder (`set-02/DSC00005.JPG`). A link that cannot be made leaves the manifest naming the original file.
    package static func linkShared(_ journal: ShootJournal) async -> Set<String> {
        guard let recipe = journal.recipe, recipe.linkShared, recipe.dedupe else { return [] }
        var wanted: [(source: String, folder: String, name: String)] = []
        for (index, positions) in ShootManifest.brackets(of: journal.plan, recipe: recipe).enumerated() {
            for position in positions where position.set != index + 1 {
                guard case .done(let images, _) = journal.frame(at: position).state else { continue }
                for image in images {
                    wanted.append((image.path, ShootManifest.folder(ofSet: index + 1), image.fileName))
                }
            }
        }
        guard !wanted.isEmpty else { return [] }
        let links = wanted
        let root = URL(fileURLWithPath: journal.outputDirectory, isDirectory: true)
        return await runBlocking(on: ShootManifest.queue) {
            var linked = Set<String>()
            for item in links {
                let folder = root.appendingPathComponent(item.folder, isDirectory: true).path
                let target = folder + "/" + item.name
                if !FileSystem.exists(target) {
                    _ = try? FileSystem.makeDirectories(folder, permissions: 0o755)
                    try? FileSystem.link(item.source, to: target)
                }
                if FileSystem.isSameFile(target, item.source) { linked.insert(item.folder + "/" + item.name) }
            }
            return linked
        }
    }
}
