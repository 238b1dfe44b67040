import JSON
import SessionLog
import Shooting

/// The session log of the command being run, reached from anywhere below through a task-local (the camera's
/// PTP/IP observer, the shoot's events, the network watch), so no layer under the application knows a log exists.
/// The front end starts the log around a command (the CLI's `SessionLogging.around`); the shoot writes to it.
package enum SessionLogging {
    /// The log of the command running in this task, nil when it keeps none (or the log could not be made).
    @TaskLocal package static var current: SessionLogWriter?

    /// The PTP/IP observer that writes to the current log, for `SonyCameraConfiguration.ptpipObserver`.
    package static var observer: SessionLogObserver? { current.map(SessionLogObserver.init(writer:)) }

    /// Writes one line to the current log, if any.
    package static func record(_ kind: String, _ fields: [(String, JSONValue)]) {
        current?.record(kind, fields)
    }

    /// Records a runner event: the runner's decisions (retries, reconnects, pauses and why, attribution notes);
    /// an error is written as `messages` says it.
    package static func record(_ event: ShootEvent, messages: any ShootMessages) {
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
                    ("error", .string(messages.message(for: error)))
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
                    ("error", .string(messages.message(for: error)))
                ])
        case let .reconnected(attempt):
            current.record("runner", [("event", "reconnected"), ("attempt", .int(attempt))])
        case let .finished(result):
            var fields: [(String, JSONValue)] = [
                ("event", "finished"), ("completed", .int(result.saved)), ("total", .int(result.total)),
                ("capturedThisRun", .int(result.savedThisRun))
            ]
            if let stop = result.stopReason { fields.append(("stop", .string(stop.logText(messages: messages)))) }
            current.record("runner", fields)
        case let .cameraNote(note):
            current.record("runner", [("event", "cameraNote"), ("note", .string(note))])
        case let .fileDownloaded(fileName, bytes):
            current.record("runner", [("event", "fileDownloaded"), ("file", .string(fileName)), ("bytes", .int(bytes))])
        case let .allFired(waiting):
            current.record("runner", [("event", "allFired"), ("waiting", .int(waiting))])
        case .learned(let limit):
            current.record("learned", limit.logFields)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal is a string value.
    package init(stringLiteral value: String) { self = .string(value) }
}

extension StopReason {
    /// Why the run stopped, as the session log records it (`reconnect gave up after 3 attempts: …`).
    fileprivate func logText(messages: any ShootMessages) -> String {
        switch self {
        case .stopRequested: "stop requested"
        case .cancelled: "cancelled"
        case let .failed(error): "failed: " + messages.message(for: error)
        case let .reconnectGaveUp(attempts, error):
            "reconnect gave up after \(attempts) attempts" + (error.map { ": " + messages.message(for: $0) } ?? "")
        case let .recordingFailed(error): "recording failed: " + messages.message(for: error)
        }
    }
}
