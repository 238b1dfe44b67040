import Foundation
import TestSupport
import Testing

@testable import HDRShootCLI

/// `hdrshoot man`: the page man-db and groff read without a warning, generated from the declarations, with
/// the README's exit codes; `make install-docs` puts it and the completions where each tool looks.
@Suite("man page and install (built binary, groff/man-db)", .realTime)
struct ManPageTests {
    static let man = "/usr/bin/man"

    /// The page the binary prints, written to `folder/hdrshoot.1`.
    static func generatedPage(in folder: TemporaryFolder) async throws -> URL {
        let result = try await ProcessRunner.runHDRShoot(["man"])
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
        let file = folder.url.appendingPathComponent("hdrshoot.1")
        try Data(result.standardOutput.utf8).write(to: file)
        return file
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: man),
            "man-db is not installed (apt-get install man-db groff)"))
    func manReadsThePageWithoutAWarning() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let page = try await Self.generatedPage(in: folder)
        var environment = ProcessInfo.processInfo.environment
        environment["MANWIDTH"] = "80"
        environment["MANPAGER"] = "cat"
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: Self.man), arguments: ["--warnings", "-l", page.path], environment: environment)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        let rendered = result.standardOutput
        #expect(rendered.contains("HDRSHOOT(1)"))
        for heading in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"
        ] {
            #expect(rendered.contains("\n\(heading)\n"), "\(heading)")
        }
        // Every command and every option --help shows, as the reader sees them (hyphens as typed).
        for command in HDRShoot.commands {
            #expect(rendered.contains("hdrshoot \(command.name)"), "\(command.name)")
            for option in command.options where !option.isHidden {
                #expect(rendered.contains(option.flagName), "\(command.name) \(option.flagName)")
            }
        }
        #expect(rendered.contains("--scale <third|half>"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff is not installed"))
    func groffFindsNothingToWarnAboutAtAnyWarningLevel() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let page = try await Self.generatedPage(in: folder)
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/groff"), arguments: ["-ww", "-z", "-man", page.path])
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty, "\(result.standardError)")
    }

    /// The README names only exit codes the one list (EXIT STATUS, also docs/commands/hdrshoot.md) has, and every
    /// variable ENVIRONMENT names is documented in docs/.
    @Test func theReadmesExitCodesAreTheManPagesAndItsVariablesAreDocumented() throws {
        let readme = try ReadmeTests.text("README.md")
        let section = try #require(readme.components(separatedBy: "## When something goes wrong").dropFirst().first)
        let codes = ManPage.Prose.exitStatus.map(\.0)
        for code in ["64", "69", "75", "78"] {
            #expect(section.contains(code + " "), "\(code)")
            #expect(codes.contains(code), "\(code)")
        }
        // Hand-written pages only: the generated reference shows ENVIRONMENT itself.
        let docs = try DocsExamples.pages().filter { !$0.hasPrefix("docs/commands/") }.map(ReadmeTests.text).joined()
        for names in ManPage.Prose.environment.map(\.0) {
            for name in names.components(separatedBy: ", ") {
                #expect(docs.contains("`$\(name)") || docs.contains("`\(name)"), "\(name)")
            }
        }
    }

    /// `make install-docs DESTDIR=... PREFIX=/usr` with the built binary (no release build) installs the page
    /// and the three completion scripts where man, bash-completion, zsh and fish look.
    @Test func makeInstallDocsPutsThePageAndCompletionsWhereEachToolLooks() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let destination = folder.url.appendingPathComponent("root").path
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/make"),
            arguments: [
                "--no-print-directory", "-C", Fixtures.packageRoot.path, "install-docs", "DESTDIR=\(destination)",
                "PREFIX=/usr", "HDRSHOOT=\(try ProcessRunner.hdrshootBinary().path)",
                "DOCS=\(folder.url.appendingPathComponent("docs").path)"
            ])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let installed = try FileManager.default.subpathsOfDirectory(atPath: destination).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: destination + "/" + path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
        #expect(
            Set(installed) == [
                "usr/share/man/man1/hdrshoot.1", "usr/share/bash-completion/completions/hdrshoot",
                "usr/share/zsh/site-functions/_hdrshoot", "usr/share/fish/vendor_completions.d/hdrshoot.fish"
            ])
        let page = try String(contentsOfFile: destination + "/usr/share/man/man1/hdrshoot.1", encoding: .utf8)
        #expect(page.hasPrefix(".\\\" Generated by 'hdrshoot man'"))
        // `make install` runs the same target after installing the binary (a dry run: no release build).
        let dryRun = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/make"), arguments: ["-n", "-C", Fixtures.packageRoot.path, "install"])
        #expect(dryRun.standardOutput.contains("install-docs") || dryRun.standardOutput.contains("hdrshoot.1"))
    }
}
