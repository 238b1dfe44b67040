import Foundation
import JSON
import Posix
import Shooting

/// A series' `manifest.json` in its root folder: the schedule and each repetition's start, state and frames.
package struct SeriesManifest: Encodable {
    /// The camera used.
    struct Camera: Encodable {
        var model: String
        var address: String
    }

    /// When the series ends: `{"count": n}`, `{"until": iso}` or `"forever"`.
    enum End: Encodable {
        case count(Int)
        case until(String)
        case forever

        enum CodingKeys: String, CodingKey { case count, until }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .count(let count):
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(count, forKey: .count)
            case .until(let date):
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(date, forKey: .until)
            case .forever:
                var container = encoder.singleValueContainer()
                try container.encode("forever")
            }
        }
    }

    /// One repetition; `actualStart` and `endedAt` are null until known, `folder` and `startDriftSeconds`
    /// are there once it has them.
    struct Repetition: Encodable {
        var number: Int
        var state: String
        var timing: String
        var plannedStart: String
        @AlwaysEncoded var actualStart: String?
        @AlwaysEncoded var endedAt: String?
        var folder: String?
        var exposures: Int
        var saved: Int
        var startDriftSeconds: Double?
    }

    var shoot: String
    var camera: Camera
    var everySeconds: Double
    var end: End
    var firstStart: String
    var shiftEV: Double
    var status: String
    var repetitions: [Repetition]
}

/// What keeps a series' manifests current: the series' `manifest.json` in its root folder and the repetition's
/// own (a `ManifestKeeper` per repetition). A failed write is said through `warn` and never stops the series.
package actor SeriesManifestWriter {
    private let messages: any ShootMessages
    private let warn: @Sendable (String) -> Void
    /// The keeper of the repetition shooting now.
    private var keeper: ManifestKeeper?

    /// A writer; `warn` gets `warning: …` lines in the messages' words.
    package init(messages: any ShootMessages, warn: @escaping @Sendable (String) -> Void) {
        self.messages = messages
        self.warn = warn
    }

    /// Repetition `number` of the series rooted at `root` starts: its manifest is kept from now on.
    package func begin(repetition number: Int, root: String) {
        keeper = ManifestKeeper(
            directory: root + "/" + SeriesRepetition.folderName(number), planned: [:], actual: [:])
    }

    /// A frame of the repetition was saved: its manifest is written again from `journal`.
    package func saved(_ progress: FrameProgress, journal: ShootJournal) async {
        guard let keeper else { return }
        await keeper.saved(progress)
        let warn = warn
        await keeper.write(journal, messages: messages) { warn("warning: \($0)") }
    }

    /// The repetition ended: its manifest is no longer kept.
    package func end() { keeper = nil }

    /// Writes the series manifest (and the current repetition's) from `journal`.
    package func write(_ journal: ShootJournal) async {
        let warn = warn
        await keeper?.write(journal, messages: messages) { warn("warning: \($0)") }
        guard let manifest = SeriesManifest(journal), let series = journal.series else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(manifest) else { return }
        let path = series.rootDirectory + "/" + ShootManifest.fileName
        do {
            try FileSystem.replace(path, with: [UInt8](data))
        } catch {
            warn("warning: cannot write \(path): \(messages.message(for: error))")
        }
    }
}

extension SeriesManifest {
    /// The manifest of the series `journal` as it stands (nil: not a series).
    package init?(_ journal: ShootJournal) {
        guard let series = journal.series else { return nil }
        var repetitions: [SeriesManifest.Repetition] = []
        for repetition in series.repetitions {
            let actual = repetition.actualOffsetMilliseconds.map { series.date(at: .milliseconds($0)) }
            let isCurrent = repetition.number == series.repetitions.last?.number && repetition.state == .shooting
            let frames = isCurrent ? journal.frames : repetition.frames ?? []
            repetitions.append(
                SeriesManifest.Repetition(
                    number: repetition.number, state: repetition.state.rawValue, timing: repetition.timing,
                    plannedStart: Self.iso(series.date(at: repetition.start.at)), actualStart: actual.map(Self.iso),
                    endedAt: repetition.endedAt.map(Self.iso),
                    folder: repetition.outputDirectory.map { ($0 as NSString).lastPathComponent },
                    exposures: repetition.plan?.totalExposures ?? 0,
                    saved: frames.joined().filter { if case .done = $0.state { true } else { false } }.count,
                    startDriftSeconds: repetition.actualOffsetMilliseconds.map {
                        Double($0 - repetition.scheduledOffsetMilliseconds) / 1000
                    }))
        }
        let end: SeriesManifest.End =
            switch series.end {
            case .count(let count): .count(count)
            case .until(let date): .until(Self.iso(date))
            case .forever: .forever
            }
        self.init(
            shoot: journal.id,
            camera: SeriesManifest.Camera(model: journal.camera.model, address: journal.camera.address),
            everySeconds: ShootUpdate.seconds(series.every), end: end, firstStart: Self.iso(series.firstStart),
            shiftEV: series.shift?.ev ?? 0,
            status: journal.isUnfinished ? (journal.status == .inProgress ? "inProgress" : "stopped") : "complete",
            repetitions: repetitions)
    }

    /// ISO 8601 with milliseconds (start drift is well under a second).
    package static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
