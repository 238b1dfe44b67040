import CameraSimulator
import TestSupport
import Testing

/// `hdrshoot simulate` as a built binary: its help lists every option and quirk, bad quirks are usage errors.
@Suite(.realTime) struct SimulateCommandTests {
    @Test func helpListsTheFocusOptionAndEveryQuirk() async throws {
        let result = try await ProcessRunner.runHDRShoot(["simulate", "--help"])
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput.contains("--quirk"))
        #expect(result.standardOutput.contains("--focus"))
        for option in ["--buffer", "--format", "--save-to"] {
            #expect(result.standardOutput.contains(option), "\(option) missing from simulate --help")
        }
        for spelling in SimulatorQuirk.spellings {
            #expect(result.standardOutput.contains(spelling), "\(spelling) missing from simulate --help")
        }
    }

    @Test(arguments: [
        (["simulate", "--quirk", "teleport"], "error: cannot use --quirk 'teleport': unknown quirk"),
        (
            ["simulate", "--quirk", "idle-drop:0"],
            "error: cannot use --quirk 'idle-drop:0': '0' is not a number of seconds"
        ),
        (["simulate", "--focus", "AF"], "error: 'AF' is not valid for --focus; expected MF, AF-S, AF-C, AF-A or DMF"),
        (["simulate", "--buffer", "0"], "error: '0' is not valid for --buffer; expected a whole number >= 1"),
        (["simulate", "--format", "gif"], "error: 'gif' is not valid for --format; expected jpeg, raw+jpeg or raw"),
        (
            ["simulate", "--save-to", "cloud"],
            "error: 'cloud' is not valid for --save-to; expected host, camera or both"
        ),
        (
            ["simulate", "--quirk", "d215-pairs:2"],
            "error: cannot use --quirk 'd215-pairs:2': 'd215-pairs' takes no value"
        )
    ])
    func badQuirksAndFocusModesExit64WithOneLine(arguments: [String], message: String) async throws {
        let result = try await ProcessRunner.runHDRShoot(arguments, timeout: .seconds(20))
        #expect(result.exitCode == 64, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines.count == 2, "\(result.standardError)")
        #expect(result.errorLines.first?.hasPrefix(message) == true, "\(result.standardError)")
    }
}
