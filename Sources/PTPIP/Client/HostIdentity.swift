import Foundation
import PTPIPCodec
import Posix

/// Who this host is to a camera: the GUID and friendly name sent in the Init Command Request.
///
/// Cameras that pair (Sony's "Ctrl w/ Smartphone") remember the initiator's GUID, so hdrshoot keeps
/// one per host on disk instead of inventing a new one per run.
package struct HostIdentity: Sendable, Equatable {
    /// The 16-byte initiator GUID.
    package var guid: PTPIPGUID
    /// The name the camera may show for this host (UTF-16 on the wire).
    package var friendlyName: String

    /// An explicit identity (e.g. from `--guid`).
    package init(guid: PTPIPGUID, friendlyName: String = HostIdentity.defaultFriendlyName) {
        self.guid = guid
        self.friendlyName = friendlyName
    }

    /// "hdrshoot@<host name>", cut to a length every camera accepts.
    package static var defaultFriendlyName: String {
        let host = CurrentProcess.hostName
        return String((host.isEmpty ? "hdrshoot" : "hdrshoot@\(host)").prefix(64))
    }

    /// Where the GUID is kept: `$XDG_CONFIG_HOME/hdrshoot/host-guid`, else `~/.config/hdrshoot/host-guid`.
    package static func defaultStoragePath(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        UserDirectory.config.path("host-guid", environment: environment)
    }

    /// Reads the GUID stored at `path` (default: `defaultStoragePath`), creating it on first use.
    ///
    /// A new file is created with mode 0600 (its directory 0700) and linked into place atomically, so
    /// two processes starting at once still agree on one GUID. A file that does not hold 32 hex digits
    /// is an error rather than silently replaced: the camera may have paired with the old GUID.
    package static func loadOrCreate(
        at path: String? = nil, friendlyName: String = defaultFriendlyName,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> HostIdentity {
        guard let path = path ?? defaultStoragePath(environment: environment) else {
            throw PTPIPError.invalidState("no place to keep the host GUID: neither XDG_CONFIG_HOME nor HOME is set")
        }
        if let stored = try read(path: path) { return HostIdentity(guid: stored, friendlyName: friendlyName) }
        let created = PTPIPGUID.random()
        try store(created, at: path)
        // Re-read: if another process won the race, its GUID is the one on disk.
        guard let stored = try read(path: path) else {
            throw PTPIPError.invalidState("the host GUID file \(path) vanished right after it was written")
        }
        return HostIdentity(guid: stored, friendlyName: friendlyName)
    }

    private static func read(path: String) throws -> PTPIPGUID? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) {
                throw PTPIPError.invalidState("cannot read the host GUID file \(path)")
            }
            return nil
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let guid = PTPIPGUID(hex: text) else {
            throw PTPIPError.invalidState("the host GUID file \(path) does not hold 32 hex digits; fix or delete it")
        }
        return guid
    }

    private static func store(_ guid: PTPIPGUID, at path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw PTPIPError.invalidState("cannot create \(directory) for the host GUID: \(error.localizedDescription)")
        }
        let temporary = "\(path).\(CurrentProcess.id).tmp"
        defer { try? FileSystem.unlink(temporary) }
        do throws(Errno) {
            let file = try FileDescriptor.open(temporary, .writeOnly, [.create, .truncate], permissions: 0o600)
            defer { file.closeIgnoringErrors() }
            try file.writeAll(Array((guid.description + "\n").utf8))
        } catch {
            throw error.ptpip(call: "write(\(temporary))")
        }
        // link(2) never replaces an existing file: the first writer wins, later ones read its GUID.
        do throws(Errno) {
            try FileSystem.link(temporary, to: path)
        } catch {
            if error != .fileExists { throw error.ptpip(call: "link(\(path))") }
        }
    }
}

extension PTPIPGUID {
    /// A random GUID (RFC 4122 version 4 layout).
    package static func random() -> PTPIPGUID {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return PTPIPGUID(bytes: bytes)!
    }

    /// Parses 32 hex digits (dashes allowed, as in "1234abcd-...") in wire order.
    package init?(hex: String) {
        let digits = Array(hex.utf8.filter { $0 != UInt8(ascii: "-") })
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for index in stride(from: 0, to: 32, by: 2) {
            guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        self.init(bytes: bytes)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension Errno {
    /// The layer's error for a failed file call.
    func ptpip(call: String) -> PTPIPError {
        .systemCallFailed(call: call, errno: self)
    }
}
