import Foundation
import Testing

/// Every relative link of README.md and docs/ leads to a file of the repository, and every `#anchor` to a heading
/// of that file (GitHub's anchors). The two pages other branches write (the phone remote, SSH and pairing) may
/// be missing until they land; once they exist their links are checked like any other.
@Suite("README and docs/ links")
struct DocsLinksTests {
    /// Pages linked before they exist: each is written with its feature, on its own branch.
    static let pagesStillToCome: Set<String> = ["docs/ssh-and-pairing.md"]

    /// `[text](target)` targets of `text`, outside code.
    static func links(in text: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle() }
            if inFence { continue }
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                targets.append(String(after[..<close]))
                rest = after[close...]
            }
        }
        return targets
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped but `-` and `_`, spaces as `-`.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
                return nil
            })
    }

    /// The anchors of every heading of `text`, outside code.
    static func anchors(in text: String) -> Set<String> {
        var inFence = false
        var result: Set<String> = []
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            result.insert(anchor(String(line.drop { $0 == "#" }.dropFirst())))
        }
        return result
    }

    /// `docs/../README.md` as `README.md`.
    static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", !parts.isEmpty { parts.removeLast() } else { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    @Test func everyRelativeLinkLeadsToAFileAndAHeading() throws {
        var checked = 0
        for page in try DocsExamples.pages() {
            let folder = page.contains("/") ? String(page[..<page.lastIndex(of: "/")!]) + "/" : ""
            for target in Self.links(in: try ReadmeTests.text(page)) where !target.contains("://") {
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(
                    String.init)
                let path = Self.normalised(parts[0].isEmpty ? page : folder + parts[0])
                let file = ReadmeTests.root.appendingPathComponent(path)
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) else {
                    #expect(Self.pagesStillToCome.contains(path), "\(page): \(target) leads nowhere")
                    continue
                }
                if parts.count > 1, !isFolder.boolValue {
                    let headings = Self.anchors(in: try String(contentsOf: file, encoding: .utf8))
                    #expect(headings.contains(parts[1]), "\(page): \(target): no such heading in \(path)")
                }
                checked += 1
            }
        }
        #expect(checked >= 50)
    }

    @Test func anchorsAreGitHubs() {
        #expect(Self.anchor("Set up the camera") == "set-up-the-camera")
        #expect(Self.anchor("run and resume --json: events") == "run-and-resume---json-events")
        #expect(Self.anchor("manifest.json") == "manifestjson")
        #expect(
            Self.anchor("Adding a simulator quirk (a field behaviour)") == "adding-a-simulator-quirk-a-field-behaviour")
    }
}
