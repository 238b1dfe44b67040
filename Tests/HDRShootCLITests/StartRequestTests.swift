import Exposure
import Foundation
import ShootKit
import Shooting
import Testing

@testable import HDRShootCLI

/// `run` and `resume` turn their options into the application layer's typed start (the one `serve` builds from the
/// page's JSON), parsed in-process: what the shoot is then started with.
@Suite struct StartRequestTests {
    /// `arguments` parsed against `spec`, as the binary would.
    static func parsed(_ spec: CommandSpec, _ arguments: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(arguments, for: spec)
    }

    /// The request `arguments` (parsed against `spec`) ask for: the one place a command line becomes a request.
    static func request(_ spec: CommandSpec, _ arguments: [String]) throws -> ShootRequest {
        try ShootRequest(arguments: try parsed(spec, arguments), now: Date())
    }

    /// The bracket of a `.bracket` request (nil for any other).
    static func bracket(_ request: ShootRequest) -> BracketRequest? {
        if case .bracket(let bracket) = request { return bracket }
        return nil
    }

    @Test func aRunCommandLineBecomesABracketOfStops() throws {
        let request = try #require(
            Self.bracket(
                try Self.request(
                    RunCommand.spec,
                    [
                        "--shadow", "1/7", "--highlight", "1/1000", "--frames", "3", "--ev", "2", "--output", "out",
                        "--dedupe", "--link-shared", "--confirm"
                    ])))
        // 1/7 is between stops: the request holds the stop it snapped to, and says it snapped.
        #expect(request.shadow?.speed == ShutterSpeed(numerator: 1, denominator: 8))
        #expect(request.shadow?.wasSnapped == true && request.shadow?.typed == "1/7")
        #expect(request.highlight?.speed == ShutterSpeed(numerator: 1, denominator: 1000))
        #expect(request.frames == 3 && request.spacing == EVAmount(stops: 2))
        #expect(request.output == "out" && request.linkShared && request.confirm)
    }

    @Test func autoAsksForMeteredReadingsAndEveryForASeries() throws {
        let auto = try #require(Self.bracket(try Self.request(RunCommand.spec, ["--auto", "--camera", "simulator"])))
        #expect(auto.readings == .metered && auto.shadow == nil && !auto.confirm)
        let series = try Self.request(
            RunCommand.spec, ["--shadow", "1/4", "--highlight", "1/1000", "--every", "2m", "--forever", "--confirm"])
        guard case .series(let bracket, let schedule) = series else {
            Issue.record("not a series: \(series)")
            return
        }
        #expect(schedule == SeriesRequest(every: .seconds(120), end: .forever))
        #expect(bracket.shadow?.speed == ShutterSpeed(numerator: 1, denominator: 4) && bracket.confirm)
    }

    /// `--check extend` is the shoot options' (every shoot's standing configuration), not a start of its own: the
    /// request is the same bracket as without it.
    @Test func checkExtendLeavesTheRequestABracket() throws {
        let readings = ["--shadow", "1/4", "--highlight", "1/1000"]
        let extended = try Self.request(RunCommand.spec, readings + ["--check", "extend"])
        #expect(Self.bracket(extended) != nil)
        #expect(extended == (try Self.request(RunCommand.spec, readings)))
    }

    @Test(arguments: [
        ["--auto", "--shadow", "1/4"],
        ["--auto", "--every", "2m", "--count", "3"],
        ["--shadow", "1/4", "--highlight", "1/1000", "--every", "2m", "--count", "3", "--remote", "127.0.0.1:0"]
    ])
    func aStartThatCannotBeIsRefusedBeforeAnythingStarts(arguments: [String]) throws {
        #expect(throws: UsageError.self) { try Self.request(RunCommand.spec, arguments) }
    }

    @Test func aResumeCommandLineBecomesAResumeRequest() throws {
        let request = try Self.request(ResumeCommand.spec, ["--id", "abc", "--restart-set", "--skip-missed"])
        #expect(request == .resume(ResumeRequest(id: "abc", restartSet: true, skipMissed: true, confirm: false)))
        #expect(try Self.request(ResumeCommand.spec, []) == .resume(ResumeRequest()))
    }
}
