import Foundation
import TestSupport
import Testing

@testable import HDRShootCLI

/// Every example in README.md and docs/ runs: each `$ hdrshoot ...` line of a `console` block is run by the built
/// binary in a private folder and prints what the page shows under it; each hdrshoot line of a `sh` block parses.
@Suite("README and docs/ examples (built binary)", .realTime)
struct DocsExamplesTests {
    /// The pages with `console` examples; a page that merges needs enfuse and runs in its own test.
    static let pages = ((try? DocsExamples.pages()) ?? []).filter { page in
        ((try? DocsExamples.consoleExamples(in: page)) ?? []).contains { !$0.isEmpty }
    }
    /// The pages whose examples merge (they need enfuse and align_image_stack).
    static let mergingPages = pages.filter(usesMerge)
    /// The pages whose examples need nothing but the binary.
    static let otherPages = pages.filter { !usesMerge($0) }

    /// Whether an example of `page` runs `hdrshoot merge`.
    static func usesMerge(_ page: String) -> Bool {
        ((try? DocsExamples.consoleExamples(in: page)) ?? []).joined().contains { $0.arguments.first == "merge" }
    }

    /// Whether the merge tools are installed.
    static var hasEnfuse: Bool {
        ["/usr/bin/enfuse", "/usr/bin/align_image_stack"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    @Test func thePagesHaveExamples() throws {
        // The README's first bracket, its status and its plan, at the least.
        #expect(Self.pages.contains("README.md"))
        #expect(try DocsExamples.consoleExamples(in: "README.md").joined().count >= 3)
    }

    @Test(arguments: otherPages)
    func everyConsoleExampleIsWhatTheBinaryPrints(page: String) async throws {
        try await Self.run(page)
    }

    @Test(
        .enabled(if: hasEnfuse, "enfuse or align_image_stack is not installed (apt-get install enfuse hugin-tools)"),
        arguments: mergingPages)
    func everyConsoleExampleThatMergesIsWhatTheBinaryPrints(page: String) async throws {
        try await Self.run(page)
    }

    /// Runs the page's examples in order, in one private folder (a later example may read what an earlier one
    /// shot), with its own HOME, config and state.
    static func run(_ page: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let work = folder.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.url.appendingPathComponent("home").path
        environment["XDG_CONFIG_HOME"] = folder.url.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = folder.url.appendingPathComponent("state").path
        environment["HDRSHOOT_STATE_DIR"] = nil
        environment["HDRSHOOT_CONNECT_BACKOFF"] = nil
        // The built-in simulated body (`--camera simulator`) is faithful: real exposure times, up to 4" in the
        // README's first bracket. On the time-scale hook its time and hdrshoot's waits for it run a hundred times
        // faster (the bracket's 7.75 s of exposures take 78 ms); what the pages show is what is compared, and
        // none of it is a time the hook changes.
        environment["HDRSHOOT_TIME_SCALE"] = "100"
        for example in try DocsExamples.consoleExamples(in: page).joined() {
            let result = try await ProcessRunner.run(
                try ProcessRunner.hdrshootBinary(), arguments: example.arguments, environment: environment,
                currentDirectory: work, timeout: .seconds(180))
            var printed = (result.standardOutput + result.standardError).components(separatedBy: "\n")
            if printed.last == "" { printed.removeLast() }
            #expect(
                DocsExamples.matches(example.expected, printed),
                "\(example) printed (exit \(result.exitCode)):\n\(printed.joined(separator: "\n"))")
        }
    }

    /// Every hdrshoot line of a `sh` block names a command and options its parser takes.
    @Test func everyShellExampleParses() throws {
        var count = 0
        for page in try DocsExamples.pages() {
            for (place, arguments) in try DocsExamples.shellCommands(in: page) {
                let name = try #require(arguments.first, "\(place)")
                let command = try #require(HDRShoot.commands.first { $0.name == name }, "\(place): no command \(name)")
                let rest = Array(arguments.dropFirst()).filter { $0 != "-v" && $0 != "--verbose" }
                #expect(throws: Never.self, "\(place)") { try ArgumentParser.parse(rest, for: command) }
                count += 1
            }
        }
        #expect(count >= 10)
    }

    @Test func theMatcherReadsEllipsesAsAnything() throws {
        #expect(DocsExamples.matches(["a", "...", "d"], ["a", "b", "c", "d"]))
        #expect(DocsExamples.matches(["a", "...", "b"], ["a", "b"]))
        #expect(!DocsExamples.matches(["a", "d"], ["a", "b", "d"]))
        #expect(DocsExamples.matches(["Images: …/first"], ["Images: /tmp/x/work/first"]))
        #expect(!DocsExamples.matches(["Images: …/first"], ["Images: /tmp/x/work/second"]))
        #expect(DocsExamples.matches(["took … s in … sets"], ["took 12 s in 3 sets"]))
        #expect(
            try ShellWords.split(#"plan --shadow '2"' --highlight "1/1000""#) == [
                "plan", "--shadow", "2\"", "--highlight", "1/1000"
            ])
    }
}
