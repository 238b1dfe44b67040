import Foundation
import Posix

/// The defaults file, `$XDG_CONFIG_HOME/hdrshoot/config` (else `~/.config/hdrshoot/config`), parsed.
///
/// The format is `key = value`, one per line; `#` starts a comment (at the start of a line, or after a space);
/// blank lines are ignored. A `[camera NAME]` line starts a section whose values apply only when the camera
/// used is NAME (an address, `simulator`, or a model or serial number recorded by an earlier shoot at that
/// address). Values are taken verbatim after the `=`, spaces trimmed: no quoting, so `longest = 30"` and
/// `output = /home/me/My Photos` mean what they say.
struct ConfigFile: Sendable, Equatable {
    /// One `key = value` line.
    struct Entry: Sendable, Equatable {
        /// The key, as written (a known one: `ConfigKey.all`).
        var key: String
        /// The value, trimmed.
        var value: String
        /// The line number, from 1.
        var line: Int
        /// The `[camera NAME]` section it is in, or nil at the top.
        var section: String?
    }

    /// The file's path.
    var path: String
    /// Every entry, in file order.
    var entries: [Entry]
    /// The line of each `[camera NAME]` header, by NAME.
    var sectionLines: [String: Int] = [:]

    /// Where the file is for `environment`: `$XDG_CONFIG_HOME/hdrshoot/config` when that is an absolute path,
    /// else `$HOME/.config/hdrshoot/config`; nil when neither is set.
    static func location(environment: [String: String]) -> String? {
        UserDirectory.config.path("config", environment: environment)
    }

    /// Reads and checks the file at `path`; nil when there is none. Every value is checked with the flag's own
    /// parser, so a bad value is reported here, with its line, before any command runs.
    static func load(path: String) throws(ConfigError) -> ConfigFile? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .malformed(path: path, line: 1, problem: "the file is not UTF-8 text")
        }
        let file = try parse(text, path: path)
        try file.validate()
        return file
    }

    /// Parses `text` (the syntax only; `validate()` checks the values).
    static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigFile {
        var entries: [Entry] = []
        var section: String?
        var sectionLines: [String: Int] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            func fail(_ problem: String) -> ConfigError { .malformed(path: path, line: number, problem: problem) }
            let line = withoutComment(String(rawLine)).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw fail("a section header must end with ']'") }
                let words = line.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true)
                guard words.count == 2, words[0] == "camera" else {
                    throw fail("unknown section \(line); a section is [camera SERIAL-or-MODEL]")
                }
                let name = String(words[1])
                if let earlier = sectionLines[name] {
                    throw fail("section [camera \(name)] is already opened on line \(earlier)")
                }
                sectionLines[name] = number
                section = name
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw fail("expected 'key = value', found '\(line)'")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard let known = ConfigKey.named(key) else {
                let names = ConfigKey.all.map(\.name)
                let hint = ArgumentParser.closest(to: key, among: names).map { " (did you mean '\($0)'?)" } ?? ""
                throw fail("unknown key '\(key)'\(hint); keys are \(names.joined(separator: ", "))")
            }
            guard !value.isEmpty else { throw fail("\(key) has no value") }
            if section != nil && !known.allowedInSection {
                throw fail("\(key) cannot be set inside a [camera ...] section")
            }
            if let earlier = entries.first(where: { $0.key == key && $0.section == section }) {
                throw fail("\(key) is already set on line \(earlier.line)")
            }
            entries.append(Entry(key: key, value: value, line: number, section: section))
        }
        return ConfigFile(path: path, entries: entries, sectionLines: sectionLines)
    }

    /// `line` without its comment: `#` at the start or after whitespace (so `/photos/#1` keeps its `#`).
    static func withoutComment(_ line: String) -> String {
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if character == "#" && (previous == " " || previous == "\t") { return String(line[..<index]) }
            previous = character
        }
        return line
    }

    /// Checks every value with the parser its flag uses; the first bad one is the error, with its line.
    func validate() throws(ConfigError) {
        for entry in entries {
            guard let key = ConfigKey.named(entry.key) else { continue }
            // `longest` is read on the scale of its own scope, like `--longest` on `--scale`.
            let scale =
                entries.first { $0.key == "scale" && $0.section == entry.section }?.value
                ?? entries.first { $0.key == "scale" && $0.section == nil }?.value
            do {
                try key.validate(entry.value, scale)
            } catch {
                throw .malformed(path: path, line: entry.line, problem: "\(entry.key): \(error.message)")
            }
        }
    }

    /// The entry for `key` in `section` (nil: the top of the file).
    func entry(_ key: String, section: String?) -> Entry? {
        entries.first { $0.key == key && $0.section == section }
    }

    /// The names of the file's `[camera NAME]` sections, in file order.
    var sections: [String] { sectionLines.sorted { $0.value < $1.value }.map(\.key) }
}

/// What is wrong with the defaults file, or with editing it: exit 78 (EX_CONFIG).
enum ConfigError: Error, Sendable, Equatable {
    /// A line the parser or a value's own parser refuses.
    case malformed(path: String, line: Int, problem: String)
    /// The file exists but cannot be read.
    case unreadable(path: String)
    /// Neither `XDG_CONFIG_HOME` nor `HOME` is set, so there is no place for the file.
    case noLocation
    /// `$EDITOR` could not be started or exited with a failure status.
    case editorFailed(editor: String, status: Int32)
}

extension ConfigError: CLIReportable {
    /// The line after `error: `, naming the file and line.
    var cliMessage: String {
        switch self {
        case .malformed(let path, let line, let problem):
            "\(path):\(line): \(problem) (fix it, or run 'hdrshoot config --edit')"
        case .unreadable(let path):
            "\(path): cannot read the config file; check its permissions"
        case .noLocation:
            "neither XDG_CONFIG_HOME nor HOME is set, so there is no config file"
        case .editorFailed(let editor, let status):
            "the editor '\(editor)' exited with status \(status); the config file was not checked"
        }
    }

    /// Always EX_CONFIG (78).
    var exitCode: ExitCode { .config }
}
