import Dispatch
import Exposure
import Foundation
import Shooting

/// `manifest.json` in a shoot's output folder: every frame with its planned and actual speed, files and time.
///
/// Built from the journal (the source of truth for what is saved) plus what the journal does not keep: the
/// speed each frame was planned at before substitution, and the speed the camera reported for the capture.
/// Rewritten after every saved frame, so it is current even when the process dies.
struct ShootManifest: Codable, Sendable, Equatable {
    /// The shoot's journal id.
    var shoot: String
    /// The camera, as in the journal.
    var camera: CameraIdentity
    /// `inProgress`, `stopped` or `complete`.
    var status: String
    /// Every frame of the plan, in shooting order.
    var frames: [Frame]

    /// One frame.
    struct Frame: Codable, Sendable, Equatable {
        /// The set, from 1.
        var set: Int
        /// The frame within its set, from 1.
        var frame: Int
        /// The speed the plan asked for (before substitution).
        var plannedSpeed: String
        /// The speed set on the camera (after substitution).
        var usedSpeed: String
        /// The speed the camera reported for the capture, when it did.
        var actualSpeed: String?
        /// `pending`, `inFlight`, `done` or `failed`.
        var state: String
        /// The saved files' names, relative to the output folder (`set-01/DSC00001.JPG`).
        var files: [String]
        /// When the frame was saved.
        var time: Date?
        /// Whether an earlier attempt may have fired too (the card may hold the frame twice).
        var possiblyDuplicated: Bool
        /// Files of earlier attempts, relative to the output folder: an interrupted attempt's image recovered
        /// from the camera's buffer, or files saved before `--restart-set`; absent when there are none.
        var earlierFiles: [String]?
    }

    /// The file name in the output folder.
    static let fileName = "manifest.json"

    /// The manifest of `journal`; `planned` and `actual` speeds come from the caller (or an earlier manifest).
    init(journal: ShootJournal, planned: [ShootPosition: ShutterSpeed], actual: [ShootPosition: String]) {
        shoot = journal.id
        camera = journal.camera
        status = switch journal.status {
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
            let state: String
            switch record.state {
            case .pending: state = "pending"
            case .inFlight: state = "inFlight"
            case .failed: state = "failed"
            case let .done(images, at):
                state = "done"
                files = images.map(relative)
                time = at
            }
            return Frame(
                set: position.set, frame: position.frame, plannedSpeed: (planned[position] ?? used).label,
                usedSpeed: used.label, actualSpeed: actual[position], state: state, files: files, time: time,
                possiblyDuplicated: record.possiblyDuplicated,
                earlierFiles: record.earlierImages.isEmpty ? nil : record.earlierImages.map(relative))
        }
    }

    /// The planned speeds and actual speeds recorded in an earlier manifest (for `resume`).
    var recordedSpeeds: (planned: [ShootPosition: ShutterSpeed], actual: [ShootPosition: String]) {
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

    private static let queue = DispatchQueue(label: "hdrshoot.manifest")

    /// Reads the manifest in `directory`, if there is a readable one.
    static func load(from directory: String) async -> ShootManifest? {
        await withCheckedContinuation { continuation in
            queue.async {
                let url = URL(fileURLWithPath: directory).appendingPathComponent(fileName)
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                continuation.resume(returning: (try? Data(contentsOf: url)).flatMap { try? decoder.decode(ShootManifest.self, from: $0) })
            }
        }
    }

    /// Writes the manifest into `directory` atomically, off the cooperative pool; throws when it cannot.
    func write(to directory: String) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(self)
        let url = URL(fileURLWithPath: directory).appendingPathComponent(Self.fileName)
        let result: Result<Void, any Error> = await withCheckedContinuation { continuation in
            Self.queue.async {
                continuation.resume(returning: Result { try data.write(to: url, options: .atomic) })
            }
        }
        try result.get()
    }
}
