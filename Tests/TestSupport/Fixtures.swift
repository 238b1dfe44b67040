import Foundation
import Testing

/// Locates the real camera and netlink bytes in `../shared/fixtures/` beside the project root.
///
/// The bytes are never copied into the repository; tests that need them call `Fixtures.load`
/// and skip (with the reason) when the folder is absent.
package enum Fixtures {
    /// The project root: the folder holding `Package.swift`, found from this source file.
    package static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// `../shared/fixtures` relative to the project root (or `$HDRSHOOT_FIXTURES` when set).
    package static let root: URL = {
        if let override = ProcessInfo.processInfo.environment["HDRSHOOT_FIXTURES"] {
            return URL(fileURLWithPath: override)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    }()

    /// Whether the shared fixtures folder exists; use with `.enabled(if:)`.
    package static var available: Bool { FileManager.default.fileExists(atPath: root.path) }

    /// Why fixture tests are skipped when the folder is missing.
    package static let skipReason: Comment = "../shared/fixtures is absent (real camera and netlink bytes live there)"

    /// The bytes of `fixtures/<relativePath>` (a `.bin` file, raw).
    package static func load(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relativePath)))
    }

    /// The hex lines of a `.hex` fixture (comment lines starting with `#` dropped), each decoded to bytes.
    package static func hexLines(_ relativePath: String) throws -> [[UInt8]] {
        let text = try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> [UInt8]? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
            return hexBytes(trimmed)
        }
    }

    /// Decodes hex digits (spaces ignored) to bytes.
    package static func hexBytes(_ text: String) -> [UInt8] {
        let digits = text.filter { $0.isHexDigit }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex, let next = digits.index(index, offsetBy: 2, limitedBy: digits.endIndex) {
            if let byte = UInt8(digits[index..<next], radix: 16) { bytes.append(byte) }
            index = next
        }
        return bytes
    }
}
