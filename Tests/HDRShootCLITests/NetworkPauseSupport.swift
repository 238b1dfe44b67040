import Foundation
import Glibc
import TestSupport
import Testing

extension VethNamespaces {
    /// `ip netns exec <namespace> <hdrshoot> arguments...` (ip execs hdrshoot, so the PID is hdrshoot's).
    func hdrshootCommand(in namespace: String, _ arguments: [String]) throws -> (URL, [String]) {
        try command(in: namespace, try ProcessRunner.hdrshootBinary(), arguments)
    }
}

/// One fired frame from the simulator's `--capture-log`.
struct LoggedCapture: Sendable {
    /// The camera's label (`1/250`).
    var label: String
    /// Seconds since the simulator started.
    var time: Double

    /// Every record of the capture log at `path`, in firing order; `timeScale` is the simulator's
    /// `--time-scale` (its log counts its own seconds, `timeScale` of them to a real one).
    static func load(_ path: String, timeScale: Int = 1) throws -> [LoggedCapture] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let object = try #require(jsonObject(String(line)))
            return LoggedCapture(
                label: try #require(object["label"] as? String),
                time: try #require(object["time"] as? Double) / Double(timeScale))
        }
    }
}

/// The `paused`/`resumed` entries of the journal in `stateDirectory`, as (event, kind, detail).
func journalHolds(stateDirectory: String) throws -> [(event: String, kind: String, detail: String?)] {
    let files = try FileManager.default.contentsOfDirectory(atPath: stateDirectory).filter { $0.hasSuffix(".json") }
    try #require(files.count == 1, "one journal expected, found \(files)")
    let url = URL(fileURLWithPath: stateDirectory).appendingPathComponent(files[0])
    let journal = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    let log = try #require(journal["log"] as? [[String: Any]])
    return log.compactMap { entry in
        guard let event = entry["event"] as? [String: Any], let name = event.keys.first,
            name == "paused" || name == "resumed",
            let body = event[name] as? [String: Any], let reason = body["_0"] as? [String: Any]
        else { return nil }
        return (name, reason["kind"] as? String ?? "?", reason["detail"] as? String)
    }
}
