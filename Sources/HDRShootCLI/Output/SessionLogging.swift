import Foundation
import JSON
import SessionLog
import Shooting

/// The session log of the command being run: started around `run`, `resume`, `camera` and `discover`, reached
/// from anywhere below through a task-local (the camera's PTP/IP observer, the shoot's events, the network
/// watch), so no layer under the CLI knows a log exists.
enum SessionLogging {
    /// The commands that keep a session log.
    static let loggedCommands: Set<String> = ["run", "resume", "camera", "discover"]

    /// The log of the command running in this task, nil when it keeps none (or the log could not be made).
    @TaskLocal static var current: SessionLogWriter?

    /// The PTP/IP observer that writes to the current log, for `SonyCameraConfiguration.ptpipObserver`.
    static var observer: SessionLogObserver? { current.map(SessionLogObserver.init(writer:)) }

    /// Writes one line to the current log, if any.
    static func record(_ kind: String, _ fields: [(String, JSONValue)]) {
        current?.record(kind, fields)
    }

    /// Runs `body` with a session log for `command` when it keeps one (and the folder can take it), and a
    /// `verbose` echo of every line to standard error; the log ends with the exit status and is closed.
    static func around(
        command: String, arguments: [String], verbose: Bool, output: any OutputStreams,
        environment: [String: String], _ body: (any OutputStreams) async -> Int32
    ) async -> Int32 {
        guard loggedCommands.contains(command), environment["HDRSHOOT_SESSION_LOG"] != "off",
            let directory = SessionLogStore.defaultDirectory(environment: environment)
        else { return await body(output) }
        var store = SessionLogStore(directory: directory)
        if let limits = try? Self.limits(environment: environment) {
            store.maximumTotalBytes = limits.size ?? store.maximumTotalBytes
            store.maximumAge = limits.age ?? store.maximumAge
        }
        let warn: @Sendable (String) -> Void = { text in output.writeError(text) }
        let writer = SessionLogWriter.start(
            in: store, command: command, arguments: arguments, version: HDRShoot.version, warn: warn,
            echo: verbose ? warn : nil)
        guard let writer else { return await body(output) }
        let logged = LoggedOutput(base: output, writer: writer)
        let status = await $current.withValue(writer) { await body(logged) }
        writer.record("end", [("exitStatus", JSONValue.int(status))])
        writer.close()
        return status
    }

    /// Records a runner event: the runner's decisions (retries, reconnects, pauses and why, attribution notes).
    static func record(_ event: ShootEvent) {
        guard let current else { return }
        switch event {
        case let .started(position, completed, total):
            current.record(
                "runner",
                [
                    ("event", "started"), ("position", .string(position.description)), ("completed", .int(completed)),
                    ("total", .int(total))
                ])
        case let .progress(progress):
            var fields: [(String, JSONValue)] = [
                ("event", "frame"), ("position", .string(progress.position.description)),
                ("phase", .string(progress.phase.rawValue)), ("speed", .string(progress.speed.label))
            ]
            if let saved = progress.saved { fields.append(("files", .array(saved.images.map { .string($0.path) }))) }
            current.record("runner", fields)
        case let .retrying(position, phase, attempt, delay, error):
            current.record(
                "runner",
                [
                    ("event", "retrying"), ("position", .string(position.description)),
                    ("phase", .string(phase.rawValue)), ("attempt", .int(attempt)),
                    (
                        "delayMs",
                        .int(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000)
                    ),
                    ("error", .string(HDRShoot.message(for: error)))
                ])
        case let .paused(reason):
            current.record(
                "runner",
                [("event", "paused"), ("why", .string(reason.kind.rawValue)), ("detail", .string(reason.detail ?? ""))])
        case let .resumed(reason):
            current.record(
                "runner",
                [("event", "resumed"), ("why", .string(reason.kind.rawValue)), ("detail", .string(reason.detail ?? ""))]
            )
        case let .reconnecting(attempt, delay):
            current.record(
                "runner", [("event", "reconnecting"), ("attempt", .int(attempt)), ("delay", .string("\(delay)"))])
        case let .reconnectFailed(attempt, error):
            current.record(
                "runner",
                [
                    ("event", "reconnectFailed"), ("attempt", .int(attempt)),
                    ("error", .string(HDRShoot.message(for: error)))
                ])
        case let .reconnected(attempt):
            current.record("runner", [("event", "reconnected"), ("attempt", .int(attempt))])
        case let .finished(result):
            var fields: [(String, JSONValue)] = [
                ("event", "finished"), ("completed", .int(result.saved)), ("total", .int(result.total)),
                ("capturedThisRun", .int(result.savedThisRun))
            ]
            if let stop = result.stopReason { fields.append(("stop", .string(stop.logText))) }
            current.record("runner", fields)
        case let .cameraNote(note):
            current.record("runner", [("event", "cameraNote"), ("note", .string(note))])
        case let .fileDownloaded(fileName, bytes):
            current.record("runner", [("event", "fileDownloaded"), ("file", .string(fileName)), ("bytes", .int(bytes))])
        case let .allFired(waiting):
            current.record("runner", [("event", "allFired"), ("waiting", .int(waiting))])
        }
    }

    /// The rotation limits of the defaults file (`log-max-size`, `log-max-age`), where it sets them.
    static func limits(environment: [String: String]) throws -> (size: Int?, age: Duration?) {
        guard let file = try ConfigDefaults.loadFile(environment: environment) else { return (nil, nil) }
        let size = file.entry("log-max-size", section: nil).flatMap { SessionLogLimits.bytes($0.value) }
        let age = file.entry("log-max-age", section: nil).flatMap { SessionLogLimits.age($0.value) }
        return (size, age)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal is a string value.
    package init(stringLiteral value: String) { self = .string(value) }
}

/// Forwards to the real streams and logs what the photographer was shown (`kind: "shown"`).
final class LoggedOutput: OutputStreams {
    private let base: any OutputStreams
    private let writer: SessionLogWriter

    /// Wraps `base`.
    init(base: any OutputStreams, writer: SessionLogWriter) {
        self.base = base
        self.writer = writer
    }

    /// Whether the wrapped streams are the process's own.
    var reachesProcessStreams: Bool { base.reachesProcessStreams }

    /// Logs and writes to standard output.
    func writeOut(_ text: String) {
        base.writeOut(text)
        writer.record("shown", [("stream", "out"), ("text", .string(text))])
    }

    /// Logs and writes to standard error.
    func writeError(_ text: String) {
        base.writeError(text)
        writer.record("shown", [("stream", "err"), ("text", .string(text))])
    }
}

/// How the defaults file writes the rotation limits: `50MB`, `200KB`, `1000000`; `30d`, `12h`.
enum SessionLogLimits {
    /// Bytes from `50MB`, `512KB`, `1GB` or a plain number; nil when it is none of those.
    static func bytes(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        for (suffix, factor) in [("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1000), ("B", 1)] {
            if trimmed.hasSuffix(suffix), let value = Int(trimmed.dropLast(suffix.count)), value > 0 {
                return value * factor
            }
        }
        return Int(trimmed).flatMap { $0 > 0 ? $0 : nil }
    }

    /// A duration from `30d`, `12h`, `90m` or seconds; nil when it is none of those.
    static func age(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        for (suffix, factor) in [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] {
            if trimmed.hasSuffix(suffix), let value = Int(trimmed.dropLast(suffix.count)), value > 0 {
                return .seconds(value * factor)
            }
        }
        return Int(trimmed).flatMap { $0 > 0 ? .seconds($0) : nil }
    }
}
