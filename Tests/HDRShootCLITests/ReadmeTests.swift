import Foundation
import Glibc
import TestSupport
import Testing

@testable import HDRShootCLI

/// The README says what the built binary does, and its steps work as written.
@Suite("README as written (built binary)", .realTime)
struct ReadmeTests {
    /// The repository's root (this file is `Tests/HDRShootCLITests/ReadmeTests.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    /// The lines of every ```sh block.
    static func shellLines() throws -> [String] {
        var lines: [String] = []
        var inShell = false
        for line in try text("README.md").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inShell = line == "```sh"
                continue
            }
            if inShell { lines.append(String(line)) }
        }
        return lines
    }

    @Test func thePlanExampleIsWhatPlanPrints() async throws {
        let readme = try Self.text("README.md")
        let lead = "`swift run hdrshoot plan --shadow 1/4 --highlight 1/1000 --frames 5` only plans:\n\n```\n"
        let start = try #require(readme.range(of: lead))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let result = try await ProcessRunner.runHDRShoot([
            "plan", "--shadow", "1/4", "--highlight", "1/1000", "--frames", "5"
        ])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput == String(readme[start.upperBound..<end.lowerBound]))
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
        #expect(try Self.shellLines().contains { $0.hasPrefix("make install PREFIX=") })
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

    @Test func theBuiltInSimulatorsImagesAreTheSizeTheReadmeGives() async throws {
        let readme = try Self.text("README.md")
        #expect(readme.contains("default 200000 bytes; `--camera simulator` uses 100000"))
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
