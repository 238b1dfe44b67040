import Foundation
import Glibc
import TestSupport
import Testing

@testable import HDRShootCLI

/// The README and docs/ say what the built binary does, and their steps work as written (the examples with
/// output run in `DocsExamplesTests`).
@Suite("README as written (built binary)", .realTime)
struct ReadmeTests {
    /// The repository's root (this file is `Tests/HDRShootCLITests/ReadmeTests.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    /// The lines of every ```sh block of the README and of docs/.
    static func shellLines() throws -> [String] {
        try DocsExamples.pages().flatMap { page in try DocsExamples.blocks("sh", in: page).flatMap(\.lines) }
    }

    @Test func everyShellExampleQuotesTheInchSign() throws {
        let lines = try Self.shellLines()
        #expect(!lines.isEmpty)
        for line in lines {
            // A token like 2" or 0.5" unquoted would open a shell string.
            let bare = line.split(separator: " ").contains { token in
                token.hasSuffix("\"") && token.dropLast().allSatisfy { $0.isNumber || $0 == "." } && token.count > 1
            }
            #expect(!bare, "unquoted inch sign in: \(line)")
        }
    }

    @Test func theInstallStepInstallsTheBinaryUnderThePrefix() async throws {
        #expect(try Self.text("README.md").contains("\nmake install PREFIX=~/.local "))
        // Dry run: the commands make would run, without a release build.
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/make"), arguments: ["-n", "-C", Self.root.path, "install", "PREFIX=/opt/hdr"]
        )
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("swift build -c release --product hdrshoot"))
        #expect(
            result.standardOutput.contains(
                #"install -m 0755 "$(swift build -c release --show-bin-path)/hdrshoot" "/opt/hdr/bin/hdrshoot""#))
    }

    @Test func theDefaultOutputFolderIsIgnoredByGit() throws {
        let name = RunCommand.defaultOutputName(at: Date())
        let patterns = try Self.text(".gitignore").split(separator: "\n").filter {
            !$0.hasPrefix("#") && $0.hasSuffix("/")
        }
        #expect(patterns.contains { fnmatch(String($0.dropLast()), name, 0) == 0 }, "\(name)")
    }

    @Test func theBuiltInSimulatorsImagesAreTheSizeTheDocsGive() async throws {
        let page = try Self.text("docs/simulator.md")
        #expect(page.contains("default 200000 bytes; `--camera simulator` uses 100000"))
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let result = try await sandbox.hdrshoot(
            ["run", "--shadow", "1/1000", "--highlight", "1/1000", "--camera", "simulator", "--confirm"]
                + sandbox.shootArguments)
        #expect(result.exitCode == 0, "\(result.standardError)")
        let image = try #require(OutputFolderTests.listing(sandbox.outputDirectory).first { $0.hasSuffix(".JPG") })
        let size =
            try FileManager.default.attributesOfItem(atPath: sandbox.outputDirectory + "/" + image)[.size] as? Int
        #expect(size == 100_000)
        let help = try await sandbox.hdrshoot(["simulate", "--help"])
        #expect(help.standardOutput.contains("200000"))
    }
}
