import Foundation
import TestSupport
import Testing

/// `hdrshoot plan` past 30" as a built binary: bulb frames in the table and the JSON, `--longest`, bad input.
@Suite(.realTime) struct PlanBulbBinaryTests {
    @Test func aFourMinuteShadowPrintsSetsReachingFourMinutesWithBulbFramesMarked() async throws {
        let result = try await ProcessRunner.runHDRShoot([
            "plan", "--shadow", "4'", "--highlight", "1/60", "--frames", "5"
        ])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        #expect(
            result.standardOutput == """
                Set  Speeds
                  1  1/60       1/30       1/15       1/8  1/4
                  2  1/4        0.5"       1"         2"   4"
                  3  4"         8"         15"        30"  1' (bulb)
                  4  1' (bulb)  2' (bulb)  4' (bulb)
                4 sets, 18 exposures (15 distinct), range 14 EV, longest 4', estimated 9 min 10 s, 1 warning
                warning: set 4 has 3 frames instead of 5: 4' is the longest exposure allowed (--longest)

                """)
    }

    @Test func jsonCarriesBulbOnlyOnFramesPast30Seconds() async throws {
        let result = try await ProcessRunner.runHDRShoot(["plan", "--shadow", "4m", "--highlight", "1/60", "--json"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let frames = try #require(object["sets"] as? [[[String: Any]]]).flatMap { $0 }
        let bulb = frames.filter { $0["bulb"] != nil }
        #expect(bulb.map { $0["label"] as? String } == ["1'", "1'", "2'", "4'"])
        #expect(bulb.allSatisfy { $0["bulb"] as? Bool == true && $0["denominator"] as? Int == 1 })
        #expect(bulb.last?["numerator"] as? Int == 240 && bulb.last?["seconds"] as? Double == 240)
        let timed = frames.filter { $0["bulb"] == nil }
        #expect(timed.count == 14)
        #expect(timed.allSatisfy { Set($0.keys) == ["label", "seconds", "numerator", "denominator"] })
        #expect(object["longestExposureSeconds"] as? Double == 240)
    }

    @Test func longestRaisesTheCapAndShadowsWithin30SecondsStayTimed() async throws {
        let longer = try await ProcessRunner.runHDRShoot([
            "plan", "--shadow", "2'30\"", "--highlight", "1", "--ev", "2", "--frames", "3", "--longest", "30m"
        ])
        #expect(longer.exitCode == 0, "\(longer.standardError)")
        #expect(longer.standardOutput.contains("  2  15\"  1' (bulb)  4' (bulb)\n"), "\(longer.standardOutput)")
        let timed = try await ProcessRunner.runHDRShoot([
            "plan", "--shadow", "30", "--highlight", "1/60", "--longest", "30'"
        ])
        #expect(timed.exitCode == 0)
        #expect(!timed.standardOutput.contains("bulb)"))
        #expect(timed.standardOutput.contains("longest 30\""))
    }

    static let badBulbInputs: [(arguments: [String], message: String)] = [
        (
            ["plan", "--shadow", "8'", "--highlight", "1/60"],
            "error: the shadow reading 8' is longer than --longest 4'; pass --longest 8' to plan bulb frames that long"
        ),
        (
            ["plan", "--shadow", "1", "--highlight", "1/60", "--longest", "1/2"],
            "error: the shadow reading 1\" is longer than --longest 0.5\"; pass --longest 1\" to allow it"
        ),
        (
            ["plan", "--shadow", "250", "--highlight", "1/1000"],
            "error: --shadow: '250' is longer than 30\", the longest timed speed; write 250\" for a bulb exposure of 250 "
                + "seconds or 1/250 for a fast speed"
        ),
        (
            ["plan", "--shadow", "45m", "--highlight", "1/60"],
            "error: --shadow: '45m' is longer than 30', the longest exposure hdrshoot plans"
        ),
        (["plan", "--shadow", "2'70\"", "--highlight", "1/60"], "error: --shadow: '2'70\"' is not a shutter speed"),
        (
            ["plan", "--shadow", "1", "--highlight", "1/60", "--longest", "soon"],
            "error: --longest: 'soon' is not a shutter speed"
        )
    ]

    @Test(arguments: badBulbInputs)
    func badBulbInputExits64WithOneLine(arguments: [String], message: String) async throws {
        let result = try await ProcessRunner.runHDRShoot(arguments, timeout: .seconds(20))
        #expect(result.exitCode == 64, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines.count == 2, "\(result.standardError)")
        #expect(result.errorLines.first?.hasPrefix(message) == true, "\(result.standardError)")
        #expect(result.errorLines.last == "Run 'hdrshoot plan --help' for usage.")
    }
}
