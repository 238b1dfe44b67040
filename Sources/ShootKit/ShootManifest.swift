import Dispatch
import Exposure
import Foundation
import Posix
import Shooting

/// `manifest.json` in a shoot's output folder: every frame with its planned and actual speed, files and time.
///
/// Built from the journal (the source of truth for what is saved) plus what the journal does not keep: the
/// speed each frame was planned at before substitution, and the speed the camera reported for the capture.
/// Rewritten after every saved frame, so it is current even when the process dies.
package struct ShootManifest: Codable, Sendable, Equatable {
    /// The shoot's journal id.
    package var shoot: String
    /// The camera, as in the journal.
    package var camera: CameraIdentity
    /// `inProgress`, `stopped` or `complete`.
    package var status: String
    /// How the plan was asked for (readings, frames, spacing, scale, order, dedupe, link-shared); absent for
    /// shoots journaled before it was recorded.
    package var plan: ShootRecipe?
    /// Every set's bracket: all the files that make it up, a shared frame kept in a neighbouring set's folder
    /// included (`--dedupe`), so each set can be merged from its list alone.
    package var sets: [SetBracket]?
    /// Frames of the plan fired: saved, or still in the camera (absent in manifests written before it was).
    package var fired: Int?
    /// Frames fired whose images still wait in the camera to be downloaded (`resume` fetches them first).
    package var inCamera: Int?
    /// Frames of the plan saved (their files durable on disk).
    package var saved: Int?
    /// Every frame of the plan, in shooting order.
    package var frames: [Frame]
    /// The range check's verdicts (`--check`): each set's once its frames are saved, then the whole bracket's;
    /// absent with `--check off` and before the first.
    package var rangeChecks: [RangeWatch.Record]?
    /// `--auto`'s probe frames (in `probes/`), apart from the bracket; absent without `--auto`.
    package var probes: [ProbeRecord]?
    /// The session logs of the runs of this shoot (`hdrshoot log show`), absent when none was kept.
    package var sessionLogs: [String]?

    /// One set's bracket.
    package struct SetBracket: Codable, Sendable, Equatable {
        /// The set, from 1.
        package var set: Int
        /// Its folder, relative to the output folder (`set-02`).
        package var folder: String
        /// Every file of the bracket saved so far, relative to the output folder, in shooting order; a shared
        /// frame is named in its own set's folder, or in this set's folder once hard-linked there (`--link-shared`).
        package var files: [String]
        /// Whether every frame of the bracket is saved.
        package var complete: Bool
    }

    /// One frame.
    package struct Frame: Codable, Sendable, Equatable {
        /// The set, from 1.
        package var set: Int
        /// The frame within its set, from 1.
        package var frame: Int
        /// The speed the plan asked for (before substitution).
        package var plannedSpeed: String
        /// The speed set on the camera (after substitution).
        package var usedSpeed: String
        /// The speed the camera reported for the capture, when it did.
        package var actualSpeed: String?
        /// `pending`, `inFlight`, `done` or `failed`.
        package var state: String
        /// The saved files' names, relative to the output folder (`set-01/DSC00001.JPG`).
        package var files: [String]
        /// When the frame was saved.
        package var time: Date?
        /// Whether an earlier attempt may have fired too (the card may hold the frame twice).
        package var possiblyDuplicated: Bool
        /// Files of earlier attempts, relative to the output folder: an interrupted attempt's image recovered
        /// from the camera's buffer, or files saved before `--restart-set`; absent when there are none.
        package var earlierFiles: [String]?
        /// Files that came with the frame but record another exposure (kept in `unmatched/`); absent when none.
        package var unmatchedFiles: [String]?
        /// What went wrong with the frame's files (a transfer of the wrong length, no name, not the frame's
        /// exposure), one line per file; absent when nothing did.
        package var problems: [String]?
        /// The range check's measurement of the frame (64-bin histogram, clipped and blocked); absent when
        /// not measured.
        package var luminance: RangeWatch.FrameRecord?
    }

    /// The file name in the output folder.
    package static let fileName = "manifest.json"

    /// The manifest of `journal`; `planned` and `actual` speeds come from the caller (or an earlier manifest);
    /// `linked` holds the files (relative to the output folder) hard-linked into a set's folder.
    package init(
        journal: ShootJournal, planned: [ShootPosition: ShutterSpeed], actual: [ShootPosition: String],
        linked: Set<String> = []
    ) {
        shoot = journal.id
        camera = journal.camera
        sessionLogs = journal.sessionLogs
        plan = journal.recipe
        status =
            switch journal.status {
            case .inProgress: "inProgress"
            case .stopped: "stopped"
            case .complete: "complete"
            }
        let root = journal.outputDirectory.hasSuffix("/") ? journal.outputDirectory : journal.outputDirectory + "/"
        func relative(_ image: SavedImage) -> String {
            image.path.hasPrefix(root) ? String(image.path.dropFirst(root.count)) : image.path
        }
        frames = journal.plan.positions.map { position in
            let used = journal.plan.speed(at: position) ?? ShutterSpeed(numerator: 1, denominator: 1)
            let record = journal.frame(at: position)
            var files: [String] = []
            var time: Date?
            var problems: [String] = []
            let state: String
            switch record.state {
            case .pending: state = "pending"
            case .inFlight: state = "inFlight"
            case .inCamera: state = "inCamera"
            case .failed: state = "failed"
            case let .done(images, at):
                state = "done"
                files = images.map(relative)
                time = at
                problems = images.compactMap { image in image.problem.map { "\(relative(image)): \($0)" } }
            }
            let unmatched = record.unmatchedImages ?? []
            problems += unmatched.compactMap { image in image.problem.map { "\(relative(image)): \($0)" } }
            return Frame(
                set: position.set, frame: position.frame, plannedSpeed: (planned[position] ?? used).label,
                usedSpeed: used.label, actualSpeed: actual[position], state: state, files: files, time: time,
                possiblyDuplicated: record.possiblyDuplicated,
                earlierFiles: record.earlierImages.isEmpty ? nil : record.earlierImages.map(relative),
                unmatchedFiles: unmatched.isEmpty ? nil : unmatched.map(relative),
                problems: problems.isEmpty ? nil : problems)
        }
        saved = frames.filter { $0.state == "done" }.count
        inCamera = frames.filter { $0.state == "inCamera" }.count
        fired = (saved ?? 0) + (inCamera ?? 0)
        let byPosition = Dictionary(
            uniqueKeysWithValues: frames.map { (ShootPosition(set: $0.set, frame: $0.frame), $0) })
        sets = Self.brackets(of: journal.plan, recipe: journal.recipe).enumerated().map { index, positions in
            let folder = Self.folder(ofSet: index + 1)
            var files: [String] = []
            var complete = true
            for position in positions {
                guard let frame = byPosition[position], frame.state == "done" else {
                    complete = false
                    continue
                }
                for file in frame.files {
                    let link = folder + "/" + (file.split(separator: "/").last.map(String.init) ?? file)
                    files.append(position.set != index + 1 && linked.contains(link) ? link : file)
                }
            }
            return SetBracket(set: index + 1, folder: folder, files: files, complete: complete)
        }
    }

    /// `set-01`: a set's folder, as `BracketRunner` names it.
    package static func folder(ofSet set: Int) -> String { set < 10 ? "set-0\(set)" : "set-\(set)" }

    /// Each set's bracket as positions of `plan` (`BracketPlan.brackets(recipe:)`, in the application layer).
    package static func brackets(of plan: BracketPlan, recipe: ShootRecipe?) -> [[ShootPosition]] {
        plan.brackets(recipe: recipe)
    }

    /// The planned speeds and actual speeds recorded in an earlier manifest (for `resume`).
    package var recordedSpeeds: (planned: [ShootPosition: ShutterSpeed], actual: [ShootPosition: String]) {
        var planned: [ShootPosition: ShutterSpeed] = [:]
        var actual: [ShootPosition: String] = [:]
        for frame in frames {
            let position = ShootPosition(set: frame.set, frame: frame.frame)
            // Planned speeds are stops of the third or half scale; a label that reads back differently is skipped.
            for scale in [ShutterScale.third, .half] {
                if let speed = try? scale.parseSpeed(frame.plannedSpeed).speed, speed.label == frame.plannedSpeed {
                    planned[position] = speed
                    break
                }
            }
            actual[position] = frame.actualSpeed
        }
        return (planned, actual)
    }

    // MARK: - Files

    /// Runs blocking file work for manifests (reads, writes, links), off the cooperative pool, in call order.
    package static let queue = DispatchQueue(label: "hdrshoot.manifest")

    /// What an output folder already holds, when it holds a `manifest.json`.
    package enum Occupant: Sendable, Equatable {
        /// A shoot's manifest: its id and status (`inProgress`, `stopped`, `complete`).
        case shoot(id: String, status: String)
        /// A `manifest.json` that is not one hdrshoot can read.
        case unreadable
    }

    /// What `directory` holds: nil when it has no `manifest.json` (or does not exist).
    package static func occupant(of directory: String) async -> Occupant? {
        await runBlocking(on: queue) { occupantNow(of: directory) }
    }

    /// `occupant(of:)`, blocking: call on `queue`.
    package static func occupantNow(of directory: String) -> Occupant? {
        guard FileSystem.exists(directory + "/" + fileName) else { return nil }
        guard let manifest = readNow(from: directory) else { return .unreadable }
        return .shoot(id: manifest.shoot, status: manifest.status)
    }

    /// The manifest in `directory`, blocking: call on `queue`.
    package static func readNow(from directory: String) -> ShootManifest? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let bytes = try? FileSystem.readAll(directory + "/" + fileName) else { return nil }
        return try? decoder.decode(ShootManifest.self, from: Data(bytes))
    }

    /// Reads the manifest in `directory`, if there is a readable one.
    package static func load(from directory: String) async -> ShootManifest? {
        await runBlocking(on: queue) { readNow(from: directory) }
    }

    /// What `write(to:)` did.
    package enum WriteOutcome: Sendable, Equatable {
        /// The file now holds this manifest.
        case written
        /// The folder holds another shoot's manifest (`id`, nil when unreadable); it was left as it is.
        case keptAnotherShoot(id: String?)
        /// The file says this shoot is complete and this manifest does not; a finished manifest is never rewritten.
        case keptFinished
    }

    /// Writes the manifest into `directory` atomically, off the cooperative pool, unless the folder's manifest
    /// belongs to another shoot or already says this shoot is complete (unless `reopening`: `--check extend`
    /// appended frames to a finished bracket); throws when the write fails.
    package func write(to directory: String, reopening: Bool = false) async throws -> WriteOutcome {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(self)
        let url = URL(fileURLWithPath: directory).appendingPathComponent(Self.fileName)
        let (shoot, status) = (self.shoot, self.status)
        return try await runBlocking(on: Self.queue) { () throws -> WriteOutcome in
            switch Self.occupantNow(of: directory) {
            case .unreadable:
                return .keptAnotherShoot(id: nil)
            case let .shoot(id, _) where id != shoot:
                return .keptAnotherShoot(id: id)
            case let .shoot(_, current) where current == "complete" && status != "complete" && !reopening:
                return .keptFinished
            default:
                try FileSystem.replace(url.path, with: [UInt8](data))
                return .written
            }
        }
    }
}
