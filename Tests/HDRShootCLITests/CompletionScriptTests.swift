import Foundation
import ShootKit
import TestSupport
import Testing

@testable import HDRShootCLI
@testable import Shooting

/// `hdrshoot completions`: the generated bash script sourced in a real bash (COMP_WORDS, COMP_CWORD, compgen),
/// and the zsh and fish scripts syntax-checked by their shells.
@Suite("shell completion (built binary, real shells)", .realTime)
struct CompletionScriptTests {
    static let zsh = "/usr/bin/zsh"
    static let fish = "/usr/bin/fish"

    /// The replies `_hdrshoot` gives for `words` (the last one being completed, split as bash splits a line:
    /// `--order=s` is `--order`, `=`, `s`), from the script the binary prints, in a child bash.
    static func complete(_ words: [String], environment extra: [String: String] = [:]) async throws -> [String] {
        let binary = try ProcessRunner.hdrshootBinary()
        let quoted = words.map(ShellQuote.single).joined(separator: " ")
        let script = """
            source <(hdrshoot completions bash) || exit 3
            COMP_WORDS=(\(quoted))
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            _hdrshoot
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["PATH"] = binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), arguments: ["-c", script], environment: environment)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        return result.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test func completesCommandsAndTheirOptions() async throws {
        #expect(try await Self.complete(["hdrshoot", "r"]) == ["run", "resume"])
        #expect(try await Self.complete(["hdrshoot", "m"]) == ["meter", "man", "merge"])
        #expect(try await Self.complete(["hdrshoot", "plan", "--sc"]) == ["--scale"])
        #expect(
            try await Self.complete(["hdrshoot", "run", "--no"]) == ["--no-dedupe", "--no-network-monitor", "--no-ssh"])
        #expect(try await Self.complete(["hdrshoot", "help", "co"]) == ["config", "completions"])
        #expect(try await Self.complete(["hdrshoot", "completions", ""]) == ["--help", "bash", "zsh", "fish"])
    }

    @Test func completesEnumValuesAfterTheOptionOrItsEqualsSign() async throws {
        #expect(try await Self.complete(["hdrshoot", "plan", "--scale", ""]) == ["third", "half"])
        #expect(try await Self.complete(["hdrshoot", "run", "--order", "=", "s"]) == ["slow-first"])
        #expect(try await Self.complete(["hdrshoot", "run", "--order", "="]) == ["fast-first", "slow-first"])
        #expect(try await Self.complete(["hdrshoot", "simulate", "--focus", "AF"]) == ["AF-S", "AF-C", "AF-A"])
        #expect(try await Self.complete(["hdrshoot", "merge", "--format", ""]) == ["tif", "jpg"])
        #expect(try await Self.complete(["hdrshoot", "config", "--transfer", "j"]) == ["jpeg"])
        #expect(try await Self.complete(["hdrshoot", "simulate", "--scene", "s"]) == ["sunset"])
        #expect(try await Self.complete(["hdrshoot", "run", "--check", ""]) == ["off", "warn", "extend"])
        // A free value (a speed) offers nothing rather than the options.
        #expect(try await Self.complete(["hdrshoot", "plan", "--shadow", ""]) == [])
    }

    @Test func everyOptionEveryCommandDeclaresIsCompleted() async throws {
        for command in HDRShoot.commands {
            let offered = Set(try await Self.complete(["hdrshoot", command.name, "--"]))
            let declared = Set(command.options.filter { !$0.isHidden }.map(\.flagName) + ["--help"])
            #expect(offered == declared, "\(command.name)")
        }
    }

    @Test func completesShootIdsAndCameraAddressesFromTheJournals() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let store = JournalStore(directory: URL(fileURLWithPath: sandbox.stateDirectory))
        let folder = sandbox.outputDirectory
        try await StatusResumeTests.record(
            "20261120-080000-aaaa", saved: 3, status: .stopped(.stopRequested), output: folder,
            address: "192.168.122.1:15740", in: store)
        try await StatusResumeTests.record(
            "20261121-080000-bbbb", saved: 15, status: .complete, output: folder, address: "10.0.0.5:15740", in: store)
        let environment = sandbox.environment.merging(["HDRSHOOT_STATE_DIR": sandbox.stateDirectory]) { $1 }
        #expect(
            try await Self.complete(["hdrshoot", "resume", "--id", ""], environment: environment)
                == ["20261121-080000-bbbb", "20261120-080000-aaaa"])
        #expect(
            try await Self.complete(["hdrshoot", "status", "--id", "20261120"], environment: environment)
                == ["20261120-080000-aaaa"])
        #expect(
            try await Self.complete(["hdrshoot", "run", "--camera", ""], environment: environment)
                == ["10.0.0.5:15740", "192.168.122.1:15740", "simulator"])
        // --state-dir on the line is where the ids come from.
        let elsewhere = try await Self.complete(
            ["hdrshoot", "resume", "--state-dir", sandbox.root.path, "--id", ""], environment: environment)
        #expect(elsewhere == [])
    }

    @Test func completesFoldersWithSpacesAsOneWord() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let spaced = folder.url.appendingPathComponent("Shoot 'one' here")
        try FileManager.default.createDirectory(at: spaced, withIntermediateDirectories: true)
        let replies = try await Self.complete(["hdrshoot", "merge", folder.url.path + "/Sh"])
        #expect(replies == [spaced.path])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: zsh), "zsh is not installed (apt-get install zsh)"))
    func theZshScriptPassesZshSyntaxCheck() async throws {
        try await Self.syntaxCheck(shell: Self.zsh, script: "zsh")
    }

    /// On `$fpath`, `compinit` registers the file for `hdrshoot` (its `#compdef` line) and the function loads.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: zsh), "zsh is not installed (apt-get install zsh)"))
    func zshRegistersTheFunctionForHdrshoot() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let generated = try await ProcessRunner.runHDRShoot(["completions", "zsh"])
        try Data(generated.standardOutput.utf8).write(to: folder.url.appendingPathComponent("_hdrshoot"))
        let script = """
            fpath=(\(ShellQuote.single(folder.url.path)) $fpath)
            autoload -Uz compinit && compinit -u -d \(ShellQuote.single(folder.url.appendingPathComponent("dump").path))
            print -r -- $_comps[hdrshoot]
            autoload +X _hdrshoot && print loaded
            """
        let result = try await ProcessRunner.run(URL(fileURLWithPath: Self.zsh), arguments: ["-f", "-c", script])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "_hdrshoot\nloaded\n", "\(result.standardError)")
    }

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: fish), "fish is not installed (apt-get install fish)")
    )
    func theFishScriptPassesFishSyntaxCheck() async throws {
        try await Self.syntaxCheck(shell: Self.fish, script: "fish")
    }

    /// Writes `hdrshoot completions <script>` to a file and runs `<shell> -n` on it.
    static func syntaxCheck(shell: String, script: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let generated = try await ProcessRunner.runHDRShoot(["completions", script])
        #expect(generated.exitCode == 0)
        #expect(generated.standardOutput.contains("completions --list"))
        let file = folder.url.appendingPathComponent("hdrshoot.\(script)")
        try Data(generated.standardOutput.utf8).write(to: file)
        let checked = try await ProcessRunner.run(URL(fileURLWithPath: shell), arguments: ["-n", file.path])
        #expect(checked.exitCode == 0, "\(checked.standardError)")
        #expect(checked.standardError.isEmpty, "\(checked.standardError)")
    }

    @Test func anUnknownShellIsAUsageError() async throws {
        let result = try await ProcessRunner.runHDRShoot(["completions", "bsh"])
        #expect(result.exitCode == 64)
        #expect(
            result.errorLines.first
                == "error: 'bsh' is not a shell I complete for (did you mean 'bash'?); use bash, zsh or fish")
    }
}
