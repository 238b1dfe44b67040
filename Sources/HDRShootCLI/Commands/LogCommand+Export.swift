import Foundation
import JSON
import PTPIP
import Posix
import SessionLog
import ShootKit

extension LogCommand {
    // MARK: - Export

    /// Writes `entry` with the journal and manifest of its shoot into `file` (JSON Lines), scrubbed of this
    /// computer's addresses and names; returns what went in.
    static func export(
        _ entry: SessionLogStore.Entry, to file: String, environment: [String: String]
    ) throws -> String {
        let lines = try read(entry.path)
        let scrubber = HostScrubber(environment: environment)
        var output: [JSONValue] = [
            .object([
                ("kind", "export"), ("log", .string(entry.name)), ("version", .string(HDRShoot.version)),
                (
                    "note",
                    "this computer's addresses, names and home folder are replaced by <host-address>, <host-name>, <home>, <user>"
                )
            ])
        ]
        output += lines.map { scrubber.scrub($0) }
        var parts = ["the log (\(lines.count) lines)"]
        for shoot in lines where shoot["kind"]?.string == "shoot" {
            let attachments = [
                ("journal", shoot["journal"]?.string),
                ("manifest", shoot["output"]?.string.map { $0 + "/" + ShootManifest.fileName })
            ]
            for case let (kind, path?) in attachments {
                guard let bytes = try? FileSystem.readAll(path),
                    let content = JSONValue(json: String(decoding: bytes, as: UTF8.self))
                else { continue }
                output.append(
                    scrubber.scrub(.object([("kind", .string(kind)), ("path", .string(path)), ("content", content)])))
                parts.append("the \(kind)")
            }
        }
        var bytes: [UInt8] = []
        for line in output {
            line.encode(into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        do {
            let descriptor = try FileDescriptor.open(file, .writeOnly, [.create, .truncate], permissions: 0o600)
            defer { descriptor.closeIgnoringErrors() }
            try descriptor.writeAll(bytes)
        } catch {
            throw LogCommandError.cannotExport(path: file, reason: error.description)
        }
        return parts.joined(separator: ", ") + "; this computer's addresses and names removed"
    }
}

/// Replaces this computer's own addresses, host name, user name and home folder in log text (never in hex).
struct HostScrubber {
    /// What is replaced by what, longest first (so `192.168.1.10` goes before `192.168.1.1`).
    let replacements: [(String, String)]

    /// The host's IPv4 addresses (loopback too), its name, `$USER` and `$HOME` from `environment`.
    init(environment: [String: String], addresses: [String]? = nil, hostName: String? = nil) {
        var pairs: [(String, String)] = []
        for address in addresses ?? ((try? HostInterfaceAddress.current()) ?? []).map(\.address) {
            pairs.append((address, "<host-address>"))
        }
        pairs.append(("::1", "<host-address>"))
        if let home = environment["HOME"], home.count > 1 { pairs.append((home, "<home>")) }
        let name = hostName ?? Self.hostName()
        if name.count >= 3 { pairs.append((name, "<host-name>")) }
        if let user = environment["USER"] ?? environment["LOGNAME"], user.count >= 3 { pairs.append((user, "<user>")) }
        replacements = pairs.sorted { $0.0.count > $1.0.count }
    }

    /// `value` with every string scrubbed, except hex data phases (bytes, not text).
    func scrub(_ value: JSONValue, key: String? = nil) -> JSONValue {
        switch value {
        case let .string(text) where key != "hex":
            return .string(replacements.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) })
        case let .array(items):
            return .array(items.map { scrub($0) })
        case let .object(pairs):
            return .object(JSONObject(pairs.map { ($0.0, scrub($0.1, key: $0.0)) }))
        default:
            return value
        }
    }

    /// This computer's name (`gethostname`).
    static func hostName() -> String {
        let friendly = HostIdentity.defaultFriendlyName
        return friendly.hasPrefix("hdrshoot@") ? String(friendly.dropFirst("hdrshoot@".count)) : ""
    }
}
