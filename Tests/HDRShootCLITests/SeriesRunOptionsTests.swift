import Foundation
import Shooting
import Testing

@testable import HDRShootCLI

/// The series options of `hdrshoot run`, parsed in-process (bad values never reach a camera).
@Suite struct SeriesRunOptionsTests {
    static let plan = [
        "run", "--shadow", "1/4", "--highlight", "1/1000", "--camera", "simulator", "--state-dir", "/nonexistent/state"
    ]

    @Test(arguments: [
        (["--every", "0s", "--count", "3"], "error: --every: '0s' is not an interval"),
        (["--every", "soon", "--count", "3"], "error: --every: 'soon' is not an interval"),
        (["--every", "2m"], "error: --every needs an end: --count <n>, --until <HH:MM> or --forever"),
        (["--every", "2m", "--count", "0"], "error: --count: '0' is not a repetition count"),
        (["--every", "2m", "--until", "25:00"], "error: --until: '25:00' is not a time of day"),
        (
            ["--every", "2m", "--count", "3", "--until", "19:45"],
            "error: give only one of --count, --until and --forever"
        ),
        (["--every", "2m", "--forever", "--shift", "a lot"], "error: --shift: 'a lot' is not an EV amount"),
        (["--shift", "1/3"], "error: --shift needs --every"),
        (["--forever"], "error: --forever needs --every")
    ])
    func badSeriesOptionsAreUsageErrors(arguments: [String], message: String) async {
        let result = await runCLI(Self.plan + arguments)
        #expect(result.exitCode == 64)
        #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
    }

    @Test func goodSeriesOptionsParse() throws {
        var arguments = ParsedArguments(command: "run")
        arguments.set("every", to: "90s")
        arguments.set("count", to: "20")
        arguments.set("shift", to: "-2/3")
        let settings = try #require(try SeriesRun.request(from: arguments, now: Date()))
        #expect(settings.every == .seconds(90))
        #expect(settings.end == .count(20))
        #expect(settings.shift?.sixths == -4)
    }

    @Test func untilIsTheNextSuchLocalTime() throws {
        let calendar = Calendar.current
        let now = try #require(calendar.date(bySettingHour: 18, minute: 30, second: 0, of: Date()))
        let today = try #require(SeriesRun.untilDate("19:45", after: now))
        #expect(today.timeIntervalSince(now) == 75 * 60)
        let tomorrow = try #require(SeriesRun.untilDate("00:30", after: now))
        #expect(tomorrow.timeIntervalSince(now) == 6 * 3600)
    }
}
