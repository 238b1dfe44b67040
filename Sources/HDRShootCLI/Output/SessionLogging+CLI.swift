import Foundation
import JSON
import SessionLog
import ShootKit
import Shooting

/// The CLI's side of the session log: which commands keep one, starting it around a command with what the
/// photographer was shown, and the defaults file's rotation limits. The log itself is ShootKit's.
extension SessionLogging {
    /// The commands that keep a session log.
    static let loggedCommands: Set<String> = ["run", "resume", "camera", "discover"]

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

    /// Records a runner event with the CLI's sentences for errors.
    static func record(_ event: ShootEvent) { record(event, messages: CLIMessages()) }

    /// The rotation limits of the defaults file (`log-max-size`, `log-max-age`), where it sets them.
    static func limits(environment: [String: String]) throws -> (size: Int?, age: Duration?) {
        guard let file = try ConfigDefaults.loadFile(environment: environment) else { return (nil, nil) }
        let size = file.entry("log-max-size", section: nil).flatMap { SessionLogLimits.bytes($0.value) }
        let age = file.entry("log-max-age", section: nil).flatMap { SessionLogLimits.age($0.value) }
        return (size, age)
    }
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
