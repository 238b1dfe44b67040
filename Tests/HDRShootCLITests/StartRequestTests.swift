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

    @Test func aRunCommandLineBecomesABracketOfStops() throws {
        let arguments = try Self.parsed(
            RunCommand.spec,
            [
                "--shadow", "1/7", "--highlight", "1/1000", "--frames", "3", "--ev", "2", "--output", "out",
                "--dedupe", "--link-shared", "--confirm"
            ])
        let request = try RunCommand.request(from: arguments, now: Date())
        // 1/7 is between stops: the request holds the stop it snapped to, and says it snapped.
        #expect(request.shadow?.speed == ShutterSpeed(numerator: 1, denominator: 8))
        #expect(request.shadow?.wasSnapped == true && request.shadow?.typed == "1/7")
        #expect(request.highlight?.speed == ShutterSpeed(numerator: 1, denominator: 1000))
        #expect(request.frames == 3 && request.spacing == EVAmount(stops: 2))
        #expect(request.output == "out" && request.linkShared && request.confirm && request.series == nil)
    }

    @Test func autoAsksForMeteredReadingsAndEveryForASeries() throws {
        let auto = try RunCommand.request(
            from: try Self.parsed(RunCommand.spec, ["--auto", "--camera", "simulator"]), now: Date())
        #expect(auto.readings == .metered && auto.shadow == nil && !auto.confirm)
        let series = try RunCommand.request(
            from: try Self.parsed(
                RunCommand.spec, ["--shadow", "1/4", "--highlight", "1/1000", "--every", "2m", "--forever"]),
            now: Date())
        #expect(series.series == SeriesRequest(every: .seconds(120), end: .forever))
    }

    @Test func autoWithReadingsIsRefusedBeforeAnythingStarts() throws {
        #expect(throws: UsageError.self) {
            try RunCommand.request(
                from: try Self.parsed(RunCommand.spec, ["--auto", "--shadow", "1/4"]), now: Date())
        }
    }

    @Test func aResumeCommandLineBecomesAResumeRequest() throws {
        let request = ResumeCommand.request(
            from: try Self.parsed(ResumeCommand.spec, ["--id", "abc", "--restart-set", "--skip-missed"]))
        #expect(request == ResumeRequest(id: "abc", restartSet: true, skipMissed: true, confirm: false))
        #expect(ResumeCommand.request(from: try Self.parsed(ResumeCommand.spec, [])) == ResumeRequest())
    }
}
