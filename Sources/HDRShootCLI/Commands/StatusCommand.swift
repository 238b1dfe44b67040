import Foundation
import JSON
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
    static func object(_ view: Overview, store: JournalStore) -> StatusReport {
        var report = object(view.journal, store: store, holders: view.holders)
        report.unfinished = view.unfinished.map { shoot in
            StatusReport.Unfinished(
                id: shoot.id, state: state(shoot).name, captured: shoot.savedCount, total: shoot.plan.totalExposures,
                outputDirectory: shoot.outputDirectory, shootingPid: pid(shoot, holders: view.holders))
        }
        return report
    }

    /// The pid shooting `journal` now (0 when held by a process that did not say), or nil (JSON null).
    private static func pid(_ journal: ShootJournal, holders: [String: Int32?]) -> Int? {
        guard let holder = holders[journal.id] else { return nil }
        return Int(holder ?? 0)
    }

    /// The JSON object of one shoot.
    static func object(_ journal: ShootJournal, store: JournalStore, holders: [String: Int32?]) -> StatusReport {
        let (name, kind) = state(journal)
        let formatter = ISO8601DateFormatter()
        return StatusReport(
            id: journal.id, state: name, stopReason: kind?.rawValue, saved: journal.savedCount,
            fired: journal.savedCount + journal.framesInCamera.count, total: journal.plan.totalExposures,
            remaining: journal.plan.totalExposures - journal.savedCount,
            resumePosition: journal.isUnfinished ? journal.resumePosition.map(StatusReport.Position.init) : nil,
            possiblyDuplicated: journal.interruptedFrames.map(StatusReport.Position.init),
            inCamera: journal.framesInCamera.map(StatusReport.Position.init),
            outputDirectory: journal.outputDirectory, journal: store.url(ofJournal: journal.id).path,
            camera: StatusReport.Camera(
                model: journal.camera.model, address: journal.camera.address,
                serialNumber: journal.camera.serialNumber),
            shootingPid: pid(journal, holders: holders), createdAt: formatter.string(from: journal.createdAt),
            updatedAt: formatter.string(from: journal.updatedAt))
    }
}

/// `hdrshoot status --json`: one shoot (the newest unfinished one, or the one asked for), and with the
/// overview the list of unfinished shoots. A value not known is an explicit `null` under its key.
struct StatusReport: Encodable {
    /// A frame's place.
    struct Position: Encodable {
        var set: Int
        var frame: Int

        init(_ position: ShootPosition) {
            set = position.set
            frame = position.frame
        }
    }

    /// The camera the shoot used.
    struct Camera: Encodable {
        var model: String
        var address: String
        @AlwaysEncoded var serialNumber: String?
    }

    /// One unfinished shoot of the overview.
    struct Unfinished: Encodable {
        var id: String
        var state: String
        var captured: Int
        var total: Int
        var outputDirectory: String
        @AlwaysEncoded var shootingPid: Int?
    }

    var id: String
    var state: String
    var stopReason: String?
    /// Frames saved (also under `captured`, the name of schema 1's first release).
    var saved: Int
    var fired: Int
    var total: Int
    var remaining: Int
    var resumePosition: Position?
    var possiblyDuplicated: [Position]
    var inCamera: [Position]
    var outputDirectory: String
    var journal: String
    var camera: Camera
    var shootingPid: Int?
    var createdAt: String
    var updatedAt: String
    /// The unfinished shoots (the overview only; absent for one shoot asked by id).
    var unfinished: [Unfinished]? = nil

    enum CodingKeys: String, CodingKey {
        case id, state, stopReason, captured, saved, fired, total, remaining, resumePosition, possiblyDuplicated
        case inCamera, outputDirectory, journal, camera, shootingPid, createdAt, updatedAt, unfinished
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(state, forKey: .state)
        try container.encode(stopReason, forKey: .stopReason)
        try container.encode(saved, forKey: .captured)
        try container.encode(saved, forKey: .saved)
        try container.encode(fired, forKey: .fired)
        try container.encode(total, forKey: .total)
        try container.encode(remaining, forKey: .remaining)
        try container.encode(resumePosition, forKey: .resumePosition)
        try container.encode(possiblyDuplicated, forKey: .possiblyDuplicated)
        try container.encode(inCamera, forKey: .inCamera)
        try container.encode(outputDirectory, forKey: .outputDirectory)
        try container.encode(journal, forKey: .journal)
        try container.encode(camera, forKey: .camera)
        try container.encode(shootingPid, forKey: .shootingPid)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(unfinished, forKey: .unfinished)
    }
}
