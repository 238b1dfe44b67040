import Foundation
import JSON
import PTPIPCodec
import Posix
import SessionLog

/// `hdrshoot log`: lists the session logs, shows one as a timeline, or exports one for a bug report.
enum LogCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "log",
        abstract: "List the session logs, show one as a timeline, or export one to attach to a bug report.",
        discussion: """
            Every run, resume, camera and discover keeps a session log (JSON Lines) in
            $XDG_STATE_HOME/hdrshoot/logs: each PTP/IP operation with its answer and time, the events, the data that
            describes the body, the shoot's decisions and what was shown. 'hdrshoot log' lists them (time, command,
            camera, outcome, size); 'hdrshoot log show [ID]' prints one as a timeline with slow operations and errors
            marked (the newest without ID); 'hdrshoot log export [ID] FILE' writes the log with the shoot's journal
            and manifest into FILE, with this computer's addresses and names removed. ID is a log's name or any
            unique part of it (a shoot id); with --json, 'log show' prints the log's records as they are, one JSON object
            per line (the limits a shoot learned of the body are its 'learned' records). The logs take at most 50 MB together and are kept 30 days (log-max-size
            and log-max-age in the defaults file). 'hdrshoot simulate --replay-session FILE' becomes the logged body.
            """,
        options: [
            .flag("json", help: "With show: print the log's records, one JSON object per line.")
        ],
        positional: {
            var spec = PositionalSpec(
                placeholder: "[list|show|export] [<id>] [<file>]",
                help: "What to do (list by default), which log, and where to export it.",
                choices: ["list", "show", "export"])
            spec.maximumCount = 3
            return spec
        }(),
        run: run
    )

    /// An operation slower than this is marked in `log show`.
    static let slowOperation = 1000.0

    private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        guard let directory = SessionLogStore.defaultDirectory(environment: environment) else {
            throw UsageError(
                "neither XDG_STATE_HOME nor HOME is set, so there is no session log folder", command: "log")
        }
        let store = SessionLogStore(directory: directory)
        let words = (arguments.positional.map { [$0] } ?? []) + arguments.morePositionals
        switch words.first ?? "list" {
        case "list":
            guard words.count <= 1 else { throw UsageError("'log list' takes no more words", command: "log") }
            context.output.writeOut(list(store))
        case "show":
            guard words.count <= 2 else { throw UsageError("'log show' takes at most one log id", command: "log") }
            let entry = try find(words.dropFirst().first, in: store)
            let lines = try read(entry.path)
            context.output.writeOut(arguments.flag("json") ? jsonLines(lines) : show(lines))
        case "export":
            guard words.count >= 2 else {
                throw UsageError("'log export' needs the file to write: hdrshoot log export [ID] FILE", command: "log")
            }
            let file = words[words.count - 1]
            let entry = try find(words.count == 3 ? words[1] : nil, in: store)
            let written = try export(entry, to: file, environment: environment)
            context.output.writeOut("Wrote \(file): \(written)\n")
        case let other:
            throw UsageError("'\(other)' is not a log action; use list, show or export", command: "log")
        }
        return .success
    }

    /// The log `id` names (the newest without one).
    static func find(_ id: String?, in store: SessionLogStore) throws -> SessionLogStore.Entry {
        guard let entry = store.find(id) else {
            if store.entries().isEmpty { throw LogCommandError.noLogs(directory: store.directory) }
            throw LogCommandError.noSuchLog(id: id ?? "", directory: store.directory)
        }
        return entry
    }

    /// The lines of the log at `path` (lines that are not JSON, such as a line cut by a crash, are skipped).
    static func read(_ path: String) throws -> [JSONValue] {
        do {
            let bytes = try FileSystem.readAll(path)
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { JSONValue(json: $0) }
        } catch {
            throw LogCommandError.unreadable(path: path, reason: error.description)
        }
    }

    // MARK: - List

    /// One row per log: id, start, command, camera, outcome, size.
    static func list(_ store: SessionLogStore) -> String {
        let entries = store.entries()
        guard !entries.isEmpty else { return "No session logs in \(store.directory).\n" }
        var rows = [["ID", "STARTED", "COMMAND", "CAMERA", "OUTCOME", "SIZE"]]
        for entry in entries {
            let lines = (try? read(entry.path)) ?? []
            let summary = Summary(lines)
            rows.append([
                entry.id, summary.started, summary.command, summary.camera, summary.outcome, sizeText(entry.size)
            ])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let text = rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        return text.joined(separator: "\n") + "\n\(entries.count) log(s) in \(store.directory)\n"
    }

    /// `12 KB`, `1.4 MB`.
    static func sizeText(_ bytes: Int) -> String {
        bytes < 1_000_000 ? "\(max(1, (bytes + 500) / 1000)) KB" : String(format: "%.1f MB", Double(bytes) / 1e6)
    }

    /// What `log` lists of one session.
    struct Summary {
        var started = "?"
        var command = "?"
        var camera = "-"
        var outcome = "unfinished"

        init(_ lines: [JSONValue]) {
            for line in lines {
                switch line["kind"]?.string {
                case "session":
                    started =
                        line["wallClock"]?.string.map {
                            String($0.prefix(19)).replacingOccurrences(of: "T", with: " ")
                        } ?? "?"
                    command = line["command"]?.string ?? "?"
                case "op" where line["code"]?.string == "0x1001" && camera == "-":
                    if let bytes = line["hex"]?.string.flatMap(JSONValue.bytes(fromHex:)),
                        let info = try? DeviceInfo(decoding: bytes)
                    {
                        camera = info.model
                    }
                case "end":
                    let status = line["exitStatus"]?.intValue ?? -1
                    outcome = status == 0 ? "ok" : "exit \(status)"
                default:
                    break
                }
            }
        }
    }
}

/// Failures of `hdrshoot log`.
enum LogCommandError: Error, CLIReportable, Equatable {
    /// The folder holds no logs.
    case noLogs(directory: String)
    /// No log (or several) matches the id.
    case noSuchLog(id: String, directory: String)
    /// A log cannot be read.
    case unreadable(path: String, reason: String)
    /// The export file cannot be written.
    case cannotExport(path: String, reason: String)

    var cliMessage: String {
        switch self {
        case let .noLogs(directory): "there are no session logs in \(directory) yet"
        case let .noSuchLog(id, directory):
            "no single session log in \(directory) matches '\(id)'; `hdrshoot log` lists them"
        case let .unreadable(path, reason): "cannot read the session log \(path): \(reason)"
        case let .cannotExport(path, reason): "cannot write \(path): \(reason); nothing was exported"
        }
    }

    var exitCode: ExitCode { .failure }
}
