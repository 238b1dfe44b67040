import Foundation
import Testing

@testable import HDRShootCLI

/// `hdrshoot plan` run in-process: output text, JSON, help and usage errors.
@Suite struct PlanCommandTests {
    @Test func printsTheFirstIssueExampleAsATableAndSummary() async {
        let run = await runCLI(["plan", "--shadow", "1/4", "--highlight", "1/1000", "--frames", "5"])
        #expect(run.exitCode == 0)
        #expect(run.standardError.isEmpty)
        #expect(
            run.standardOutput == """
                Set  Speeds
                  1  1/1000  1/500  1/250  1/125  1/60
                  2  1/60    1/30   1/15   1/8    1/4
                  3  1/4     0.5"   1"     2"     4"
                3 sets, 15 exposures (13 distinct), range 8 EV, longest 4", estimated 12 s

                """)
    }

    @Test func printsWarningsAfterTheSummary() async {
        let run = await runCLI(["plan", "--shadow", "30\"", "--highlight", "1/300", "--ev=2"])
        #expect(run.exitCode == 0)
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.last(where: { !$0.hasPrefix("warning:") })?.hasSuffix("2 warnings") == true)
        #expect(lines.contains("warning: --highlight 1/300 is not a 1/3-stop speed; using 1/320"))
        #expect(lines.contains { $0.hasPrefix("warning: set 2 ") })
    }

    @Test func zeroRangeIsASingleExposure() async {
        let run = await runCLI(["plan", "--shadow", "1/250", "--highlight", "1/250"])
        #expect(run.standardOutput.contains("0 sets (a single exposure), 1 exposure (1 distinct), range 0 EV"))
    }

    @Test func jsonHasExactlyTheDocumentedKeys() async throws {
        let run = await runCLI(["plan", "--shadow", "1/4", "--highlight", "1/1000", "--json"])
        #expect(run.exitCode == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "rangeEv", "numSets", "totalExposures", "distinctExposures", "longestExposureSeconds",
                "estimatedSeconds", "warnings", "sets"
            ])
        #expect(object["rangeEv"] as? Double == 8)
        #expect(object["numSets"] as? Int == 3)
        #expect(object["totalExposures"] as? Int == 15)
        #expect(object["distinctExposures"] as? Int == 13)
        #expect(object["longestExposureSeconds"] as? Double == 4)
        #expect(object["estimatedSeconds"] as? Double == 12.02)
        #expect((object["warnings"] as? [String])?.isEmpty == true)
        let sets = try #require(object["sets"] as? [[[String: Any]]])
        #expect(sets.map(\.count) == [5, 5, 5])
        let frame = sets[2][1]
        #expect(Set(frame.keys) == ["label", "seconds", "numerator", "denominator"])
        #expect(frame["label"] as? String == "0.5\"")
        #expect(frame["numerator"] as? Int == 5 && frame["denominator"] as? Int == 10)
        #expect(frame["seconds"] as? Double == 0.5)
    }

    @Test func optionsReachThePlanner() async {
        let run = await runCLI([
            "plan", "--shadow", "1/4", "--highlight", "1/1000", "--scale", "half", "--dedupe", "--order",
            "slow-first", "--ev", "1", "--overhead", "0"
        ])
        #expect(run.exitCode == 0)
        // Half scale, deduplicated shared frames, slowest first, no overhead: 13 distinct exposures, 8.0 s.
        #expect(
            run.standardOutput == """
                Set  Speeds
                  1  4"    2"     1"     0.5"
                  2  1/4   1/8    1/15   1/30
                  3  1/60  1/125  1/250  1/500  1/1000
                3 sets, 13 exposures (13 distinct), range 8 EV, longest 4", estimated 8.0 s

                """)
    }

    @Test(arguments: badPlanInputs)
    func badInputIsAUsageErrorWithOneLineAndAHint(arguments: [String], message: String) async {
        let run = await runCLI(arguments)
        #expect(run.exitCode == 64)
        #expect(run.standardOutput.isEmpty)
        #expect(run.errorLines.count == 2, "\(run.standardError)")
        #expect(run.errorLines.first?.hasPrefix(message) == true, "\(run.standardError)")
        let hint =
            arguments.first == "plan" ? "Run 'hdrshoot plan --help' for usage." : "Run 'hdrshoot --help' for usage."
        #expect(run.errorLines.last.map(String.init) == hint)
    }

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func toolHelpGoesToStandardOutput(arguments: [String]) async {
        let run = await runCLI(arguments)
        #expect(run.exitCode == 0 && run.standardError.isEmpty)
        #expect(run.standardOutput.hasPrefix("OVERVIEW: "))
        // Column width follows the longest command name, so match the line's words, not its spacing.
        let planLine = run.standardOutput.split(separator: "\n").first { $0.hasPrefix("  plan ") }
        #expect(planLine?.hasSuffix(" Plan HDR bracket sets from two meter readings.") == true)
    }

    @Test(arguments: [["plan", "--help"], ["plan", "-h"], ["help", "plan"], ["plan", "--shadow", "abc", "--help"]])
    func commandHelpWinsOverOtherErrors(arguments: [String]) async {
        let run = await runCLI(arguments)
        #expect(run.exitCode == 0 && run.standardError.isEmpty)
        #expect(run.standardOutput.contains("USAGE: hdrshoot plan --shadow <speed> --highlight <speed> [<options>]"))
        for option in ["--frames", "--ev", "--scale", "--order", "--dedupe", "--overhead", "--json"] {
            #expect(run.standardOutput.contains("  \(option) "))
        }
    }

    @Test func versionPrintsTheVersion() async {
        let run = await runCLI(["--version"])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "hdrshoot \(HDRShoot.version)\n")
    }
}
