import Foundation
import JSON
import PTPIP
import SessionLog

extension LogCommand {
    // MARK: - Show

    /// The session as a timeline a person reads: one line per record, slow operations and errors marked.
    static func show(_ lines: [JSONValue]) -> String {
        let summary = Summary(lines)
        var out = "Session: \(summary.command), started \(summary.started) UTC, camera \(summary.camera), "
        out += "outcome \(summary.outcome)\n"
        out += "Marks: '!' an error or a refused operation, 'S' an operation slower than \(Int(slowOperation)) ms.\n"
        let learned = lines.filter { $0["kind"]?.string == "learned" }.compactMap(learnedText)
        if !learned.isEmpty { out += "Learned of this body: " + learned.joined(separator: "; ") + ".\n" }
        out += "\n"
        var operations = 0
        var events = 0
        var slow = 0
        var errors = 0
        for line in lines {
            let time = String(format: "%9.3f s", line["t"]?.doubleValue ?? 0)
            var mark = " "
            var text: String
            switch line["kind"]?.string ?? "?" {
            case "session":
                continue
            case "op":
                operations += 1
                let name = line["name"]?.string ?? "?"
                let code = line["code"]?.string ?? "?"
                let parameters = (line["params"]?.array ?? []).compactMap(\.intValue).map {
                    "0x" + String($0, radix: 16, uppercase: true)
                }
                let ms = line["ms"]?.doubleValue ?? 0
                text = "op     \(name) (\(code))"
                if !parameters.isEmpty { text += " [" + parameters.joined(separator: ", ") + "]" }
                if let response = line["responseName"]?.string { text += " -> \(response)" }
                if let error = line["error"]?.string { text += " -> failed: \(error)" }
                let direction = line["data"]?.string ?? "none"
                if direction != "none" { text += ", data \(direction) \(line["length"]?.intValue ?? 0) B" }
                text += String(format: ", %.1f ms", ms)
                if ms >= slowOperation {
                    mark = "S"
                    slow += 1
                }
                if line["error"] != nil || (line["response"]?.string).map({ $0 != "0x2001" }) == true {
                    mark = "!"
                    errors += 1
                }
            case "event":
                events += 1
                let parameters = (line["params"]?.array ?? []).compactMap(\.intValue).map {
                    "0x" + String($0, radix: 16, uppercase: true)
                }
                text = "event  \(line["name"]?.string ?? "?") (\(line["code"]?.string ?? "?"))"
                if !parameters.isEmpty { text += " [" + parameters.joined(separator: ", ") + "]" }
            case "learned":
                text = "learned " + (learnedText(line) ?? fields(of: line))
            case "connect":
                text = "connect \(line["address"]?.string ?? "?"): \(line["outcome"]?.string ?? "?")"
                text += String(format: " after %.1f ms", line["ms"]?.doubleValue ?? 0)
                if let error = line["error"]?.string {
                    text += " (\(error))"
                    mark = "!"
                    errors += 1
                }
            case "shown":
                // What the photographer saw, without the live line's `\r ESC[2K` redraws (TerminalText).
                let shown = TerminalText.visibleLines(line["text"]?.string ?? "").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.joined(separator: "\n")
                guard !shown.isEmpty else { continue }
                if shown.hasPrefix("error:") {
                    mark = "!"
                    errors += 1
                }
                text =
                    "shown  "
                    + (shown.count > 160 ? String(shown.prefix(157)) + "..." : shown)
                    .replacingOccurrences(of: "\n", with: " | ")
            case let kind:
                text = kind.padding(toLength: 6, withPad: " ", startingAt: 0) + " " + fields(of: line)
                if line["error"] != nil {
                    mark = "!"
                    errors += 1
                }
            }
            out += "\(mark) \(time)  \(text)\n"
        }
        out += "\n\(operations) operation(s), \(events) event(s), \(slow) slow, \(errors) error(s)\n"
        return out
    }

    /// The records as they are, one JSON object per line (`log show --json`).
    static func jsonLines(_ lines: [JSONValue]) -> String {
        lines.map { line in
            var bytes: [UInt8] = []
            line.encode(into: &bytes)
            return String(decoding: bytes, as: UTF8.self) + "\n"
        }.joined()
    }

    /// A `learned` record in words: `the camera holds 10 captures (learned in this shoot)`; nil for a limit this
    /// version does not name.
    static func learnedText(_ line: JSONValue) -> String? {
        let remembered = line["source"]?.string == "remembered"
        switch line["limit"]?.string {
        case "bufferCapacity":
            guard let captures = line["captures"]?.intValue else { return nil }
            return "the camera holds \(captures) capture\(captures == 1 ? "" : "s") "
                + (remembered ? "(recalled from an earlier shoot of it)" : "(learned in this shoot)")
        case "speedChangeIgnoredWhileImagesWait":
            return "the camera takes no shutter speed change while images wait in it (downloaded before each change)"
        case "shutterRange":
            guard let slowest = line["slowest"]?.string, let fastest = line["fastest"]?.string else { return nil }
            return "the shutter goes from \(slowest) to \(fastest) "
                + (remembered ? "(recalled from an earlier shoot of it)" : "(stepped to see)")
        case "evidenceLatency":
            guard let ms = line["ms"]?.doubleValue else { return nil }
            return String(format: "a release showed it fired at most %.1f ms after its exposure", ms)
        default:
            return nil
        }
    }

    /// `key=value` for every field but `t` and `kind`.
    private static func fields(of line: JSONValue) -> String {
        guard case let .object(pairs) = line else { return "" }
        return pairs.filter { $0.0 != "t" && $0.0 != "kind" }.map { key, value in
            switch value {
            case let .string(text): "\(key)=\(text)"
            default:
                "\(key)="
                    + {
                        var bytes: [UInt8] = []
                        value.encode(into: &bytes)
                        return String(decoding: bytes, as: UTF8.self)
                    }()
            }
        }.joined(separator: " ")
    }
}
