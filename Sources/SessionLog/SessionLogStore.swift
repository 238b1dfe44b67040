import Foundation
import Posix

/// The folder of session logs: where it is, what the files are called, which are listed, and rotation.
///
/// `$XDG_STATE_HOME/hdrshoot/logs/` (default `~/.local/state/hdrshoot/logs/`), 0700; one JSON-Lines file per
/// session, `YYYYMMDD-HHMMSS-mmm-COMMAND[-SHOOTID].jsonl` in UTC, so names sort by start time. Rotation
/// removes files older than `maximumAge`, then the oldest until the total is at most `maximumTotalBytes`.
package struct SessionLogStore: Sendable {
    /// The folder.
    package var directory: String
    /// The most all logs together may take (50 MB by default).
    package var maximumTotalBytes: Int = SessionLogStore.defaultMaximumTotalBytes
    /// How old a log may get before it is removed (30 days by default).
    package var maximumAge: Duration = SessionLogStore.defaultMaximumAge

    /// 50 MB.
    package static let defaultMaximumTotalBytes = 50 * 1_000_000
    /// 30 days.
    package static let defaultMaximumAge: Duration = .seconds(30 * 86_400)
    /// The file name extension.
    package static let fileExtension = ".jsonl"

    /// A store in `directory`.
    package init(directory: String) {
        self.directory = directory
    }

    /// The default folder for `environment`: `$XDG_STATE_HOME/hdrshoot/logs`, else `$HOME/.local/state/hdrshoot/logs`;
    /// nil when neither is set.
    package static func defaultDirectory(environment: [String: String]) -> String? {
        UserDirectory.state.path("logs", environment: environment)
    }

    /// One log in the folder.
    package struct Entry: Sendable, Equatable {
        /// The file name (`20261124-221523-123-run-20261124-221524-3fa9.jsonl`).
        package var name: String
        /// The full path.
        package var path: String
        /// Its size in bytes.
        package var size: Int
        /// Its last change, seconds since 1970.
        package var modified: Double

        /// The name without `.jsonl`: how `hdrshoot log show` names it.
        package var id: String { String(name.dropLast(SessionLogStore.fileExtension.count)) }
    }

    /// Creates the folder (and its parents) 0700 when missing, and makes it 0700 when it exists.
    package func prepare() throws(Errno) {
        try FileSystem.makeDirectories(directory, permissions: 0o700)
        try FileSystem.setPermissions(directory, 0o700)
    }

    /// The logs in the folder, oldest first (by name: the start time); empty when the folder is missing.
    package func entries() -> [Entry] {
        guard let names = try? FileSystem.contentsOfDirectory(directory) else { return [] }
        return names.filter { $0.hasSuffix(Self.fileExtension) && !$0.hasPrefix(".") }.sorted().compactMap { name in
            let path = directory + "/" + name
            guard let status = try? FileSystem.fileStatus(path), status.isRegular else { return nil }
            return Entry(name: name, path: path, size: status.size, modified: status.modified)
        }
    }

    /// Removes logs older than `maximumAge`, then the oldest until all together take at most `maximumTotalBytes`
    /// (never `keeping`, the log being written); returns the names removed, oldest first.
    @discardableResult
    package func rotate(now: Date = Date(), keeping: String? = nil) -> [String] {
        let ageLimit = Double(maximumAge.components.seconds)
        var removed: [String] = []
        var kept: [Entry] = []
        for entry in entries() where entry.name != keeping {
            if now.timeIntervalSince1970 - entry.modified > ageLimit, (try? FileSystem.unlink(entry.path)) != nil {
                removed.append(entry.name)
            } else {
                kept.append(entry)
            }
        }
        let current = keeping.flatMap { name in entries().first { $0.name == name }?.size } ?? 0
        var total = kept.reduce(current) { $0 + $1.size }
        for entry in kept where total > maximumTotalBytes {
            if (try? FileSystem.unlink(entry.path)) != nil {
                removed.append(entry.name)
                total -= entry.size
            }
        }
        return removed
    }

    /// The log whose id is `id`, or the only one whose id contains it (a shoot id, a date); nil for none
    /// or several. Without `id`: the newest.
    package func find(_ id: String?) -> Entry? {
        let all = entries()
        guard let id, !id.isEmpty else { return all.last }
        let stem = id.hasSuffix(Self.fileExtension) ? String(id.dropLast(Self.fileExtension.count)) : id
        if let exact = all.first(where: { $0.id == stem }) { return exact }
        let matching = all.filter { $0.id.contains(stem) }
        return matching.count == 1 ? matching[0] : nil
    }

    /// `20261124-221523-123-run` (UTC), with `-SHOOTID` when the session belongs to a shoot.
    package static func stem(startedAt: Date, command: String, shootID: String? = nil) -> String {
        let milliseconds = Int64((startedAt.timeIntervalSince1970 * 1000).rounded(.down))
        var time = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let stamp =
            pad(parts.tm_year + 1900, 4) + pad(parts.tm_mon + 1, 2) + pad(parts.tm_mday, 2) + "-"
            + pad(parts.tm_hour, 2) + pad(parts.tm_min, 2) + pad(parts.tm_sec, 2) + "-"
            + pad(Int32(milliseconds % 1000), 3)
        let safe = command.filter { $0.isLetter || $0.isNumber }
        return stamp + "-" + safe + (shootID.map { "-" + $0.filter { $0.isLetter || $0.isNumber || $0 == "-" } } ?? "")
    }
}
