import Foundation
import Shooting

/// `hdrshoot status`: where the last shoot stands, from its journal.
enum StatusCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the last shoot's state, counts, resume position and output folder, and the unfinished shoots.",
        discussion: """
            Shows the latest shoot (or the one given with --id): its state, whether an hdrshoot process is shooting
            it right now, counts, resume position and folders. Then lists every unfinished shoot, newest first:
            'hdrshoot resume' continues the first, 'hdrshoot resume --id ID' any of them.
            """,
        options: [
            .flag("json", help: "Print one JSON object."),
            .value("id", placeholder: "<id>", help: "Show this shoot instead of the latest."),
            .value(
                "state-dir", placeholder: "<dir>", help: "Where shoot journals are kept.",
                default: "$XDG_STATE_HOME/hdrshoot")
        ],
        run: run
    )

    @Sendable private static func run(
        _ arguments: ParsedArguments, _ context: CommandContext
    ) async throws -> ExitCode {
        let store = JournalStore(directory: try JournalStore.resolveDirectory(option: arguments.string("state-dir")))
        let json = arguments.flag("json")
        let shown: ShootJournal?
        if let id = arguments.string("id") {
            shown = try await store.load(id: id)
        } else {
            shown = try await store.latest()
        }
        guard let journal = shown else {
            context.output.writeOut(
                json
                    ? ShootText.jsonLine(["state": "none", "stateDirectory": store.directory.path])
                    : "No shoot recorded in \(store.directory.path).\n")
            return .success
        }
        let unfinished = try await store.unfinished()
        var holders: [String: Int32?] = [:]
        for shoot in [journal] + unfinished where holders[shoot.id] == nil {
            if let holder = await store.holder(id: shoot.id) { holders[shoot.id] = .some(holder) }
        }
        let view = Overview(journal: journal, unfinished: unfinished, holders: holders)
        context.output.writeOut(json ? ShootText.jsonLine(object(view, store: store)) : text(view, store: store))
        return .success
    }

    /// What `status` shows: one shoot in full, the unfinished ones in a list, and who is shooting what.
    struct Overview {
        /// The shoot shown in full (the latest, or `--id`).
        var journal: ShootJournal
        /// Every unfinished shoot, newest first: `resume` continues the first.
        var unfinished: [ShootJournal]
        /// The shoots an hdrshoot process holds now, with its pid when known.
        var holders: [String: Int32?]

        /// "being shot by hdrshoot (pid N) right now", when a process holds `journal`'s claim.
        func shooter(_ journal: ShootJournal) -> String? {
            guard let holder = holders[journal.id] else { return nil }
            return "being shot by " + (holder.map { "pid \($0)" } ?? "another hdrshoot") + " right now"
        }
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
        case .stopped(let kind): return "stopped (\(kind.statusText))"
        }
    }

    /// The text report: the shoot, then the unfinished ones.
    static func text(_ view: Overview, store: JournalStore) -> String {
        let journal = view.journal
        let resume = view.unfinished.first?.id == journal.id ? "hdrshoot resume" : "hdrshoot resume --id \(journal.id)"
        var text = text(journal, store: store, shooter: view.shooter(journal), resume: resume)
        if !view.unfinished.isEmpty {
            text +=
                "\nUnfinished shoots (newest first; `hdrshoot resume` continues the first, `hdrshoot resume --id ID` any):\n"
            for shoot in view.unfinished {
                let state = view.shooter(shoot) ?? stateText(shoot)
                text +=
                    "  \(shoot.id)  \(shoot.savedCount) of \(shoot.plan.totalExposures)  \(state)  \(shoot.outputDirectory)\n"
            }
        }
        return text
    }

    /// `Series:    every 2 min, repetition 3 of 20 shooting (2 done, 0 skipped)`: where an interval series stands.
    static func seriesLine(_ series: SeriesRecord) -> String {
        let of: String =
            switch series.end {
            case .count(let count): " of \(count)"
            case .until(let date): " (until \(SeriesPlans.clockTime(date)))"
            case .forever: ""
            }
        let done = series.repetitions.filter { $0.state == .done }.count
        let skipped = series.repetitions.filter { $0.state == .skipped }.count
        let every = ShootText.duration(series.every)
        guard let last = series.repetitions.last else { return "Series:    every \(every), no repetition started yet" }
        let state: String =
            switch last.state {
            case .shooting: "shooting"
            case .done: series.ended ? "done" : "done, waiting for the next start"
            case .stopped: "stopped"
            case .skipped: "skipped"
            }
        return "Series:    every \(every), repetition \(last.number)\(of) \(state) (\(done) done, \(skipped) skipped)"
    }

    /// The text report of one shoot.
    static func text(_ journal: ShootJournal, store: JournalStore, shooter: String?, resume: String) -> String {
        let total = journal.plan.totalExposures
        let saved = journal.savedCount
        var serial = ""
        if let number = journal.camera.serialNumber { serial = ", serial \(number)" }
        var lines = [
            "Shoot:     \(journal.id)",
            "State:     \(shooter.map { "in progress, \($0)" } ?? stateText(journal))",
            "Camera:    \(journal.camera.model) at \(journal.camera.address)\(serial)",
            "Saved:     \(saved) of \(total) exposures"
                + (journal.framesInCamera.isEmpty
                    ? ""
                    : " (\(saved + journal.framesInCamera.count) fired, \(journal.framesInCamera.count) in the camera)")
        ]
        if let series = journal.series { lines.append(seriesLine(series)) }
        if journal.isUnfinished, shooter == nil, let position = journal.resumePosition {
            lines.append("Resume at: \(position) (\(total - saved) remaining); run `\(resume)` to continue")
        }
        let inCamera = journal.framesInCamera
        if !inCamera.isEmpty {
            let list = inCamera.map(\.description).joined(separator: "; ")
            lines.append(
                "In camera: \(inCamera.count) fired, not downloaded yet (\(list)); `resume` fetches them first")
        }
        for position in journal.interruptedFrames {
            lines.append("Possibly duplicated: \(position) (in flight when hdrshoot stopped)")
        }
        lines.append("Output:    \(journal.outputDirectory)")
        lines.append("Journal:   \(store.url(ofJournal: journal.id).path)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON object (keys documented in the README's CLI reference): the shoot's keys, plus `unfinished`.
    static func object(_ view: Overview, store: JournalStore) -> [String: Any] {
        var object = object(view.journal, store: store, holders: view.holders)
        object["unfinished"] = view.unfinished.map { shoot in
            var entry: [String: Any] = [
                "id": shoot.id, "state": state(shoot).name, "captured": shoot.savedCount,
                "total": shoot.plan.totalExposures,
                "outputDirectory": shoot.outputDirectory
            ]
            entry["shootingPid"] = Self.pid(shoot, holders: view.holders)
            return entry
        }
        return object
    }

    /// The pid shooting `journal` now (0 when held by a process that did not say), or JSON null.
    private static func pid(_ journal: ShootJournal, holders: [String: Int32?]) -> Any {
        guard let holder = holders[journal.id] else { return NSNull() }
        return Int(holder ?? 0)
    }

    /// The JSON object of one shoot.
    static func object(_ journal: ShootJournal, store: JournalStore, holders: [String: Int32?]) -> [String: Any] {
        let (name, kind) = state(journal)
        let formatter = ISO8601DateFormatter()
        return [
            "id": journal.id,
            "state": name,
            "stopReason": kind?.rawValue ?? NSNull(),
            "captured": journal.savedCount,
            "saved": journal.savedCount,
            "fired": journal.savedCount + journal.framesInCamera.count,
            "total": journal.plan.totalExposures,
            "remaining": journal.plan.totalExposures - journal.savedCount,
            "resumePosition": journal.isUnfinished ? ShootText.json(journal.resumePosition) : NSNull(),
            "possiblyDuplicated": journal.interruptedFrames.map { ShootText.json($0) },
            "inCamera": journal.framesInCamera.map { ShootText.json($0) },
            "outputDirectory": journal.outputDirectory,
            "journal": store.url(ofJournal: journal.id).path,
            "camera": [
                "model": journal.camera.model, "address": journal.camera.address,
                "serialNumber": journal.camera.serialNumber ?? NSNull()
            ] as [String: Any],
            "shootingPid": pid(journal, holders: holders),
            "createdAt": formatter.string(from: journal.createdAt),
            "updatedAt": formatter.string(from: journal.updatedAt)
        ]
    }
}
