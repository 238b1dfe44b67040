import CameraSimulator
import LegacyCameraSimulator
import Testing

/// The legacy body's options, read by the one `SimulatorArguments` reader (the `legacy-simulator` executable) and
/// by `set(_:to:)` (what `hdrshoot simulate --api` calls for each option its own parser read).
@Suite("Legacy simulator options")
struct LegacySimulatorOptionsTests {
    @Test func optionsFlagsAndInlineValuesAreRead() throws {
        let configuration = try LegacySimulatorConfiguration.parse(arguments: [
            "--port=0", "--mode", "Shutter", "--no-rec-mode", "--quirk", "set-delay:40,set-fails:3", "--iso", "auto",
            "--fault", "drop-at-frame:2"
        ])
        #expect(configuration.port == 0 && configuration.exposureMode == "Shutter")
        #expect(!configuration.needsStartRecMode && configuration.isoSpeedRate == "AUTO")
        #expect(configuration.settingDelay == .milliseconds(40) && configuration.setFailureEvery == 3)
        #expect(configuration.dropConnectionAtShot == 2)
        #expect(try LegacySimulatorConfiguration.parse(arguments: []).port == 8080)
        let slow = try LegacySimulatorConfiguration.parse(arguments: ["--quirk", "save-at-shot:8:3000"])
        #expect(slow.saveAtShot?.shot == 8 && slow.saveAtShot?.duration == .milliseconds(3000))
        #expect(try LegacySimulatorConfiguration.parse(arguments: []).saveAtShot == nil)
    }

    @Test func setTakesOneOptionAsTheCommandsParserReadIt() throws {
        var configuration = LegacySimulatorConfiguration()
        try configuration.set("processing-ms", to: "250")
        try configuration.set("quirk", to: "no-rec-mode")
        #expect(configuration.saveDuration == .milliseconds(250) && !configuration.needsStartRecMode)
        #expect(throws: SimulatorError.unknownOption("--bogus")) { try configuration.set("bogus", to: "1") }
    }

    /// An unknown option is refused as itself, before the option after it is taken for its value (the
    /// executable adds `--port 0` after what it was given).
    @Test(arguments: [
        (["--bogus", "--port", "0"], SimulatorError.unknownOption("--bogus")),
        (["8080"], .unknownOption("8080")),
        (["--port"], .missingValue(option: "--port")),
        (["--mode", "X"], .invalidValue(option: "--mode", value: "X", expected: "M, S, A or P")),
        (
            ["--quirk", "save-at-shot:8"],
            .invalidQuirk(spec: "save-at-shot:8", reason: "needs a shot and milliseconds, e.g. save-at-shot:8:3000")
        ),
        (
            ["--fault", "busy:1"],
            .invalidFault(spec: "busy:1", reason: "the Camera Remote API body knows drop-at-frame:N")
        )
    ])
    func aBadOptionIsOneClearLine(arguments: [String], error: SimulatorError) {
        #expect(throws: error) { try LegacySimulatorConfiguration.parse(arguments: arguments) }
        #expect(!error.description.contains("\n") && !error.description.contains("("))
    }
}
