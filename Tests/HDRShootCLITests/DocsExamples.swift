import Foundation

/// The examples of README.md and docs/: ` ```console ` blocks of `$ hdrshoot ...` lines, each followed by the
/// output it prints, and ` ```sh ` blocks of commands shown without their output.
///
/// In an expected output, a line `...` stands for any number of lines, and `…` inside a line for any text (a
/// path, a time, a shoot id): everything else must be what the command prints, standard output and then
/// standard error.
struct DocsExamples {
    /// One `$ hdrshoot ...` line and the output shown under it.
    struct Example: CustomStringConvertible {
        /// Where it is: `docs/merging.md:24`.
        let place: String
        /// The words after `hdrshoot`, unquoted as a shell would.
        let arguments: [String]
        /// The expected output's lines.
        let expected: [String]

        /// Where it is and what it runs, for a failure's message.
        var description: String { "\(place): hdrshoot \(arguments.joined(separator: " "))" }
    }

    /// The pages whose examples run: the README and every page of docs/ (the generated reference included: its
    /// `sh` blocks are the man page's examples).
    static func pages() throws -> [String] {
        let docs = ReadmeTests.root.appendingPathComponent("docs")
        let names = try FileManager.default.subpathsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
        return ["README.md"] + names.sorted().map { "docs/" + $0 }
    }

    /// The fenced blocks of `page` with the given info string, each with the line number of its first line.
    static func blocks(_ info: String, in page: String) throws -> [(line: Int, lines: [String])] {
        var blocks: [(line: Int, lines: [String])] = []
        var current: (line: Int, lines: [String])?
        var fence: String?
        var indentation = 0
        for (index, line) in try ReadmeTests.text(page).components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if trimmed == open {
                    if let block = current { blocks.append(block) }
                    current = nil
                    fence = nil
                } else if current != nil {
                    // A block inside a list item is indented like its fence; that is not part of the output.
                    current?.lines.append(String(line.dropFirst(min(line.prefix { $0 == " " }.count, indentation))))
                }
            } else if trimmed.hasPrefix("```") {
                fence = "```"
                indentation = line.prefix { $0 == " " }.count
                if trimmed == "```" + info { current = (index + 2, []) }
            }
        }
        return blocks
    }

    /// Every `console` example of `page`, in order, grouped by block.
    static func consoleExamples(in page: String) throws -> [[Example]] {
        try blocks("console", in: page).map { block in
            var examples: [Example] = []
            for (offset, line) in block.lines.enumerated() {
                if line.hasPrefix("$ ") {
                    let words = try ShellWords.split(String(line.dropFirst(2)))
                    guard words.first == "hdrshoot" else {
                        throw ShellWords.Failure("\(page):\(block.line + offset): only hdrshoot commands run here")
                    }
                    examples.append(
                        Example(
                            place: "\(page):\(block.line + offset)", arguments: Array(words.dropFirst()), expected: []))
                } else if let last = examples.popLast() {
                    examples.append(
                        Example(place: last.place, arguments: last.arguments, expected: last.expected + [line]))
                } else {
                    throw ShellWords.Failure("\(page):\(block.line + offset): output before any '$ hdrshoot' line")
                }
            }
            return examples
        }
    }

    /// The hdrshoot command lines of every `sh` block of `page` (comments removed, `swift run` dropped), for a
    /// parse check; lines with shell expansions (`$(...)`, `<(...)`, `$VAR`) are left out.
    static func shellCommands(in page: String) throws -> [(place: String, arguments: [String])] {
        var commands: [(place: String, arguments: [String])] = []
        for block in try blocks("sh", in: page) {
            for (offset, line) in block.lines.enumerated() {
                var text = line
                if let comment = text.range(of: " #") { text = String(text[..<comment.lowerBound]) }
                text = text.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("swift run ") { text = String(text.dropFirst("swift run ".count)) }
                guard text.hasPrefix("hdrshoot "), !text.contains("$"), !text.contains("<(") else { continue }
                let words = try ShellWords.split(text)
                commands.append((place: "\(page):\(block.line + offset)", arguments: Array(words.dropFirst())))
            }
        }
        return commands
    }

    /// Whether `actual` is what `expected` shows: `...` lines match any run of lines, `…` any text in a line.
    static func matches(_ expected: [String], _ actual: [String]) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        let rest = Array(expected.dropFirst())
        if first == "..." {
            return (0...actual.count).contains { matches(rest, Array(actual.dropFirst($0))) }
        }
        guard let line = actual.first, lineMatches(first, line) else { return false }
        return matches(rest, Array(actual.dropFirst()))
    }

    /// One line against its pattern (`…` is any text).
    static func lineMatches(_ pattern: String, _ line: String) -> Bool {
        let pieces = pattern.components(separatedBy: "…")
        guard pieces.count > 1 else { return pattern == line }
        guard line.hasPrefix(pieces[0]) else { return false }
        var rest = line.dropFirst(pieces[0].count)
        for (index, piece) in pieces.dropFirst().enumerated() {
            let isLast = index == pieces.count - 2
            if isLast { return piece.isEmpty || rest.hasSuffix(piece) }
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }
}

/// Splits a command line into words as a POSIX shell does for plain words, '...' and "..." (no expansions).
enum ShellWords {
    /// A line that cannot be split, or an example that cannot run.
    struct Failure: Error, CustomStringConvertible {
        /// What is wrong, and where.
        let description: String
        /// A failure saying `description`.
        init(_ description: String) { self.description = description }
    }

    /// The words of `line`; throws on an unclosed quote.
    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    word.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil else { throw Failure("unclosed quote in: \(line)") }
        if inWord { words.append(word) }
        return words
    }
}
