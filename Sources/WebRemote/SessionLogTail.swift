import Foundation
import Synchronization

/// The link's health as the page shows it, read from the shoot's session log (the same file `hdrshoot log`
/// reads): the last camera operation and how long it took, how many times the runner reconnected, and the
/// log's last lines; beside them the shoot's notes (the network watch's), which the log's tail would scroll away.
///
/// The operation's time is the whole operation as the session log times it (request to response, data phase
/// included: a GetObject of a 10 MB JPEG takes seconds), not a network round trip, and is named so.
package struct LinkHealth: Sendable, Equatable, Codable {
    /// The last camera operation's name (an `op` line's `name`, `GetObject`), nil before the first.
    package var lastOperation: String?
    /// The duration of the last camera operation (an `op` line's `ms`), nil before the first.
    package var lastOperationMilliseconds: Double?
    /// How many reconnects succeeded (`runner` lines with `event: reconnected`).
    package var reconnects: Int
    /// The last lines of the log other than operations, oldest first, each as short text.
    package var lines: [String]
    /// The shoot's notes so far (its `note` updates, the last few), oldest first.
    package var notes: [String]

    /// Creates a reading.
    package init(
        lastOperation: String? = nil, lastOperationMilliseconds: Double? = nil, reconnects: Int = 0,
        lines: [String] = [], notes: [String] = []
    ) {
        self.lastOperation = lastOperation
        self.lastOperationMilliseconds = lastOperationMilliseconds
        self.reconnects = reconnects
        self.lines = lines
        self.notes = notes
    }
}

/// Follows one session log as it grows, reading only the bytes added since the last reading, so asking for the
/// link's health every second costs a small read, never the whole file.
///
/// `path` is asked each time: the writer renames its file once the shoot's id is known, and the bytes already
/// read stay where they were. A partial last line waits for its newline.
package final class SessionLogTail: Sendable {
    /// How many lines the page is shown.
    package static let shownLines = 6
    /// The most read at once (a log grows by about 200 bytes per camera operation).
    private static let readLimit = 1 << 20

    private struct State {
        var offset: UInt64 = 0
        var partial: [UInt8] = []
        var health = LinkHealth()
    }

    private let path: @Sendable () -> String?
    private let state = Mutex(State())

    /// Follows the file `path` names (nil: no log).
    package init(path: @escaping @Sendable () -> String?) {
        self.path = path
    }

    /// Reads what was added since the last call and returns the health so far; nil when there is no log.
    package func read() -> LinkHealth? {
        guard let path = path(), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return state.withLock { state in
            guard (try? handle.seek(toOffset: state.offset)) != nil,
                let data = try? handle.read(upToCount: Self.readLimit), !data.isEmpty
            else { return state.health }
            state.offset += UInt64(data.count)
            state.partial += data
            while let newline = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(state.partial[..<newline])
                state.partial.removeFirst(newline + 1)
                Self.apply(line, to: &state.health)
            }
            return state.health
        }
    }

    /// Takes one JSON line of the log into `health`; a line that is not a JSON object is skipped.
    static func apply(_ line: [UInt8], to health: inout LinkHealth) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any],
            let kind = object["kind"] as? String
        else { return }
        if kind == "op" {
            if let ms = object["ms"] as? Double {
                health.lastOperationMilliseconds = ms
                health.lastOperation = object["name"] as? String ?? object["code"] as? String
            }
            return
        }
        if kind == "runner", object["event"] as? String == "reconnected" { health.reconnects += 1 }
        health.lines.append(text(of: object, kind: kind))
        if health.lines.count > shownLines { health.lines.removeFirst(health.lines.count - shownLines) }
    }

    /// A log line as short text: its time and kind, then the fields a person reads first (JSONSerialization
    /// does not keep the log's own order); a `shown` line is the first line of what the terminal showed.
    static func text(of object: [String: Any], kind: String) -> String {
        let time = (object["t"] as? Double).map { String(format: "%.1f s", $0) } ?? ""
        if kind == "shown", let text = object["text"] as? String {
            let first = text.split(separator: "\n").first.map(String.init) ?? ""
            return "\(time) \(first)"
        }
        let preferred = ["event", "position", "phase", "speed", "address", "outcome", "name", "error", "attempt"]
        var parts = [time, kind]
        for key in preferred {
            if let value = object[key] as? String {
                parts.append(value)
            } else if let value = object[key] as? NSNumber {
                parts.append("\(key) \(value)")
            }
        }
        let joined = parts.filter { !$0.isEmpty }.joined(separator: " ")
        return joined.count > 140 ? String(joined.prefix(139)) + "…" : joined
    }
}
