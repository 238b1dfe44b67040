import Foundation
import Shooting

/// `hdrshoot status`: where the last shoot stands, from its journal.
enum StatusCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the last shoot's state, counts, resume position and output folder.",
        options: [
            .flag("json", help: "Print one JSON object."),
            .value("state-dir", placeholder: "<dir>", help: "Where shoot journals are kept.", default: "$XDG_STATE_HOME/hdrshoot"),
        ],
        run: run
    )

    @Sendable private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        let store = JournalStore(directory: try JournalStore.resolveDirectory(option: arguments.string("state-dir")))
        let json = arguments.flag("json")
        guard let journal = try await store.latest() else {
            context.output.writeOut(
                json ? ShootText.jsonLine(["state": "none", "stateDirectory": store.directory.path])
                    : "No shoot recorded in \(store.directory.path).\n")
            return .success
        }
        context.output.writeOut(json ? ShootText.jsonLine(object(journal, store: store)) : text(journal, store: store))
        return .success
    }

    /// `stopped`, `inProgress`, `complete`.
    static func state(_ journal: ShootJournal) -> (name: String, kind: ShootJournal.StopKind?) {
        switch journal.status {
        case .inProgress: ("inProgress", nil)
        case .stopped(let kind): ("stopped", kind)
        case .complete: ("complete", nil)
        }
    }

    /// A person's sentence for the state.
    static func stateText(_ journal: ShootJournal) -> String {
        switch journal.status {
        case .complete: return "complete"
        case .inProgress: return "in progress (or interrupted: hdrshoot ended without finishing)"
        case .stopped(let kind):
            let why = switch kind {
            case .stopRequested: "you stopped it"
            case .cancelled: "the frame in flight was abandoned"
            case .failed: "the camera or a frame failed"
            case .reconnectGaveUp: "the camera could not be reconnected"
            case .recordingFailed: "the journal could not be written"
            }
            return "stopped (\(why))"
        }
    }

    /// The text report.
    static func text(_ journal: ShootJournal, store: JournalStore) -> String {
        let total = journal.plan.totalExposures
        let saved = journal.savedCount
        var serial = ""
        if let number = journal.camera.serialNumber { serial = ", serial \(number)" }
        var lines = [
            "Shoot:     \(journal.id)",
            "State:     \(stateText(journal))",
            "Camera:    \(journal.camera.model) at \(journal.camera.address)\(serial)",
            "Captured:  \(saved) of \(total) exposures",
        ]
        if journal.isUnfinished, let position = journal.resumePosition {
            lines.append("Resume at: \(position) (\(total - saved) remaining); run `hdrshoot resume` to continue")
        }
        for position in journal.interruptedFrames {
            lines.append("Possibly duplicated: \(position) (in flight when hdrshoot stopped)")
        }
        lines.append("Output:    \(journal.outputDirectory)")
        lines.append("Journal:   \(store.url(ofJournal: journal.id).path)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON object (keys documented in the README's CLI reference).
    static func object(_ journal: ShootJournal, store: JournalStore) -> [String: Any] {
        let (name, kind) = state(journal)
        let formatter = ISO8601DateFormatter()
        return [
            "id": journal.id,
            "state": name,
            "stopReason": kind?.rawValue ?? NSNull(),
            "captured": journal.savedCount,
            "total": journal.plan.totalExposures,
            "remaining": journal.plan.totalExposures - journal.savedCount,
            "resumePosition": journal.isUnfinished ? ShootText.json(journal.resumePosition) : NSNull(),
            "possiblyDuplicated": journal.interruptedFrames.map { ShootText.json($0) },
            "outputDirectory": journal.outputDirectory,
            "journal": store.url(ofJournal: journal.id).path,
            "camera": [
                "model": journal.camera.model, "address": journal.camera.address,
                "serialNumber": journal.camera.serialNumber ?? NSNull(),
            ] as [String: Any],
            "createdAt": formatter.string(from: journal.createdAt),
            "updatedAt": formatter.string(from: journal.updatedAt),
        ]
    }
}
