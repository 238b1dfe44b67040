import Testing

@testable import HDRShootCLI

/// The declarative parser, against a small command declared here.
@Suite struct ArgumentParserTests {
    static let command = CommandSpec(
        name: "demo", abstract: "A demo.",
        options: [
            .value("speed", placeholder: "<speed>", help: "A speed.", required: true),
            .value("count", placeholder: "<n>", help: "A count.", default: "1"),
            .flag("json", help: "JSON."),
            .value("fault", placeholder: "<spec>", help: "A fault.", repeatable: true)
        ],
        run: { _, _ in .success }
    )

    @Test func aRepeatableOptionKeepsEveryValueInOrder() throws {
        let parsed = try ArgumentParser.parse(
            ["--fault", "busy:0x9205:2", "--speed", "1", "--fault=drop-at-op:9"], for: Self.command)
        #expect(parsed.strings("fault") == ["busy:0x9205:2", "drop-at-op:9"])
        #expect(parsed.strings("speed") == ["1"])
        #expect(parsed.strings("count").isEmpty)
    }

    @Test func acceptsSpaceAndEqualsForms() throws {
        let spaced = try ArgumentParser.parse(["--speed", "1/4", "--count", "3", "--json"], for: Self.command)
        let joined = try ArgumentParser.parse(["--speed=1/4", "--count=3", "--json"], for: Self.command)
        #expect(spaced == joined)
        #expect(spaced.string("speed") == "1/4" && spaced.string("count") == "3" && spaced.flag("json"))
    }

    @Test func valuesMayStartWithASingleDashOrContainEquals() throws {
        let parsed = try ArgumentParser.parse(["--speed", "-1", "--count=a=b"], for: Self.command)
        #expect(parsed.string("speed") == "-1")
        #expect(parsed.string("count") == "a=b")
    }

    @Test(arguments: [
        (["--speed", "1", "--sped", "2"], "unknown option '--sped' (did you mean '--speed'?)"),
        (["--speed", "1", "--zzzzzz"], "unknown option '--zzzzzz'"),
        (["--speed", "1", "-x"], "unknown option '-x'"),
        (["--speed"], "option '--speed' needs a value (<speed>)"),
        (["--speed", "--json"], "option '--speed' needs a value (<speed>)"),
        (["--speed="], "option '--speed' needs a value (<speed>)"),
        (["--speed", "1", "--json=true"], "option '--json' does not take a value"),
        (["--speed", "1", "--speed", "2"], "option '--speed' is given more than once"),
        (["--speed", "1", "stray"], "unexpected argument 'stray'"),
        (["--speed", "1", "-5"], "unexpected argument '-5'"),
        (["--count", "2"], "missing required option '--speed'")
    ])
    func rejectsBadCommandLines(arguments: [String], message: String) {
        #expect(throws: UsageError(message, command: "demo")) {
            try ArgumentParser.parse(arguments, for: Self.command)
        }
    }

    @Test func typedAccessorsNameTheOptionInConversionErrors() throws {
        let parsed = try ArgumentParser.parse(["--speed", "1", "--count", "x"], for: Self.command)
        #expect(throws: UsageError("--count: 'x' is not a number", command: "demo")) {
            try parsed.value("count", default: 1) { text in
                guard let count = Int(text) else { throw UsageError("'\(text)' is not a number") }
                return count
            }
        }
        #expect(try parsed.value("missing", default: 7) { Int($0) ?? 0 } == 7)
    }

    @Test func helpIsFoundAnywhere() {
        #expect(ArgumentParser.asksForHelp(["--speed", "1", "--help"]))
        #expect(ArgumentParser.asksForHelp(["-h"]))
        #expect(!ArgumentParser.asksForHelp(["--speed", "1"]))
    }

    @Test func helpListsEveryOptionWithDefaultsAndTheUsageLine() {
        let help = HelpFormatter.commandHelp(Self.command)
        #expect(help.contains("USAGE: hdrshoot demo --speed <speed> [<options>]"))
        #expect(help.contains("  --count <n>      A count. (default: 1)\n"))
        #expect(help.contains("  --json           JSON.\n"))
        #expect(help.contains("  -h, --help       Show help information.\n"))
    }

    @Test func aHiddenOptionParsesButStaysOutOfHelpAndHints() throws {
        let command = CommandSpec(
            name: "probe", abstract: "A probe.",
            options: [
                .flag("json", help: "JSON."),
                .value("test-port", placeholder: "<port>", help: "For testing.", hidden: true)
            ],
            run: { _, _ in .success }
        )
        let parsed = try ArgumentParser.parse(["--test-port", "9", "--json"], for: command)
        #expect(parsed.string("test-port") == "9")
        let help = HelpFormatter.commandHelp(command)
        #expect(!help.contains("test-port"))
        #expect(help.contains("  --json "))
        let error = try #require(throws: UsageError.self) {
            try ArgumentParser.parse(["--test-prt", "9"], for: command)
        }
        #expect(error.message.hasPrefix("unknown option '--test-prt'"))
        #expect(!error.message.contains("test-port"))
    }

    @Test(arguments: [("--shdow", "--shadow"), ("plna", "plan"), ("--jsn", "--json")])
    func suggestsTheClosestName(typed: String, expected: String) {
        #expect(ArgumentParser.closest(to: typed, among: ["--shadow", "plan", "--json", "--highlight"]) == expected)
    }
}
