import Foundation
import Testing

@testable import HDRShootCLI

/// The config file's parsing and how its values fill in a parsed command line (in process, no files).
@Suite struct ConfigDefaultsTests {
    static func defaults(_ text: String, section: String? = nil) throws -> ConfigDefaults {
        let file = try ConfigFile.parse(text, path: "/home/me/.config/hdrshoot/config")
        try file.validate()
        return ConfigDefaults(file: file, section: section)
    }

    static func parsed(_ arguments: [String], for command: CommandSpec) throws -> ParsedArguments {
        try ArgumentParser.parse(arguments, for: command)
    }

    @Test func aCommentStartsAtTheLineOrAfterASpaceSoAHashInsideAValueStays() throws {
        #expect(ConfigFile.withoutComment("output = /photos/#1  # the first card") == "output = /photos/#1  ")
        #expect(ConfigFile.withoutComment("# all of it") == "")
        let file = try ConfigFile.parse("\n  # note\n\tframes\t=\t7\n[camera 10.0.0.7]\nev=2#two\n", path: "f")
        #expect(file.entries.map(\.key) == ["frames", "ev"])
        #expect(file.entries.map(\.value) == ["7", "2#two"])
        #expect(file.entries.map(\.line) == [3, 5])
        #expect(file.sectionLines == ["10.0.0.7": 4])
    }

    @Test func transferIsTheDefaultOfATransferOptionOnceACommandDeclaresOne() throws {
        let defaults = try Self.defaults("transfer = jpeg\n")
        let withTransfer = CommandSpec(
            name: "run", abstract: "", options: [.value("transfer", placeholder: "<all|jpeg|none>", help: "")],
            run: { _, _ in .success })
        #expect(
            defaults.applied(to: try Self.parsed([], for: withTransfer), command: withTransfer).string("transfer")
                == "jpeg")
        let given = try Self.parsed(["--transfer", "none"], for: withTransfer)
        #expect(defaults.applied(to: given, command: withTransfer).string("transfer") == "none")
        // Commands without the option are not touched (and so do not read the file for it).
        #expect(!ConfigDefaults.isRead(by: StatusCommand.spec))
    }

    @Test func aFlagKeyIsTurnedOffByItsNegation() throws {
        let defaults = try Self.defaults("dedupe = yes\n")
        let plan = PlanCommand.spec
        let readings = ["--shadow", "1/4", "--highlight", "1/1000"]
        #expect(defaults.applied(to: try Self.parsed(readings, for: plan), command: plan).flag("dedupe"))
        let off = defaults.applied(to: try Self.parsed(readings + ["--no-dedupe"], for: plan), command: plan)
        #expect(!off.flag("dedupe"))
        #expect(try !PlanCommand.options(from: off).planner.dedupe)
        #expect(
            defaults.effective(try Self.parsed(["--no-dedupe"], for: ConfigCommand.spec)).first { $0.key == "dedupe" }
                == ConfigDefaults.Effective(key: "dedupe", value: "no", source: .flag))
    }

    @Test func outputNamesTheFolderThatHoldsTheShoots() throws {
        let defaults = try Self.defaults("output = /srv/shoots\n")
        let run = RunCommand.spec
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let applied = defaults.applied(
            to: try Self.parsed(["--shadow", "1/4", "--highlight", "1/1000"], for: run), command: run, now: now)
        #expect(applied.string("output") == "/srv/shoots/" + RunCommand.defaultOutputName(at: now))
    }

    @Test func theCameraSectionWinsOverTheTopAndResumeNeverTakesTheCamera() throws {
        let defaults = try Self.defaults(
            "camera = simulator\nframes = 4\n[camera simulator]\nframes = 6\n", section: "simulator")
        let run = RunCommand.spec
        let applied = defaults.applied(
            to: try Self.parsed(["--shadow", "1", "--highlight", "1/8"], for: run), command: run)
        #expect(applied.string("frames") == "6")
        #expect(applied.string("camera") == "simulator")
        let resumed = defaults.applied(to: try Self.parsed([], for: ResumeCommand.spec), command: ResumeCommand.spec)
        #expect(resumed.string("camera") == nil)
    }

    @Test func aCommandTakesOnePositionalWhenItDeclaresOne() throws {
        #expect(try Self.parsed(["zsh"], for: CompletionsCommand.spec).positional == "zsh")
        #expect(try Self.parsed(["/tmp/shoot", "--no-align"], for: MergeCommand.spec).positional == "/tmp/shoot")
        #expect(try Self.parsed(["--no-align"], for: MergeCommand.spec).positional == nil)
        #expect(throws: UsageError("unexpected argument 'b'", command: "merge")) {
            try Self.parsed(["a", "b"], for: MergeCommand.spec)
        }
        #expect(throws: UsageError("unexpected argument 'x'", command: "plan")) {
            try Self.parsed(["x"], for: PlanCommand.spec)
        }
        #expect(HelpFormatter.usageLine(CompletionsCommand.spec) == "hdrshoot completions <shell>")
    }
}
