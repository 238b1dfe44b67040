import CameraSimulator
import PTPIP
import SonyProtocol
import Testing

@Suite("Simulator quirk specs and the --focus option")
struct SimulatorQuirkParsingTests {
    @Test(arguments: [
        ("idle-drop:10", SimulatorQuirk.idleDrop(.seconds(10))),
        ("idle-drop:2.5", .idleDrop(.milliseconds(2500))),
        ("startup-nofire:3", .startupNoFire(.seconds(3))),
        ("focus-switch", .focusSwitch),
        ("af-lock:300", .afLock(.milliseconds(300))),
        ("af-fail", .afFail),
        ("shutter-range", .shutterRange(listInD229: false)),
        ("shutter-range:d229", .shutterRange(listInD229: true)),
        ("direct-set-refused", .directSetRefused(.invalidDevicePropValue)),
        ("direct-set-refused:0x200F", .directSetRefused(.accessDenied)),
        ("direct-set-ignored", .directSetIgnored),
        ("lost-notch:2", .lostNotch(2)),
        ("no-events", .noEvents),
        ("busy-at-start:3", .busyAtStart(3)),
        ("d215-lag", .shootingFileInfoLag),
        ("transfer-long:100", .transferLong(100)),
        ("transfer-short:100", .transferShort(100)),
        ("objectinfo-empty", .objectInfoEmpty),
        ("objectinfo-garbled", .objectInfoGarbled),
        ("lenr", .longExposureNR),
        ("d215-pairs", .shootingFileInfoCountsCaptures),
        ("speed-ignored-while-buffered", .speedIgnoredWhileBuffered),
        ("busy-while-buffered", .busyWhileBuffered),
        ("lists-captured-event-without-sending", .capturedEventListedNotSent),
        ("no-d215", .noShootingFileInfo),
        ("mode-u16", .modeU16)
    ])
    func quirkSpecsRoundTrip(spec: String, quirk: SimulatorQuirk) throws {
        #expect(try SimulatorQuirk.parse(spec) == quirk)
        #expect(try SimulatorQuirk.parse(quirk.description) == quirk)
    }

    @Test func everyQuirkSpellingIsListedForTheUsageText() {
        for spelling in SimulatorQuirk.spellings {
            let name = String(spelling.prefix { $0 != ":" && $0 != "[" })
            #expect(SimulatorConfiguration.usage.contains(name), "\(name) missing from the usage text")
        }
    }

    @Test(arguments: [
        ("idle-drop", "needs a number of seconds"), ("idle-drop:0", "not a number of seconds > 0"),
        ("idle-drop:soon", "not a number of seconds > 0"), ("af-lock:-5", "is not a whole number of milliseconds"),
        ("af-fail:1", "takes no value"), ("shutter-range:d228", "only option"),
        ("direct-set-refused:0x2001", "response code"),
        ("direct-set-refused:0x12345", "response code"), ("lost-notch:0", "is not a whole number of steps"),
        ("busy-at-start", "needs a whole number"), ("transfer-long:x", "bytes"), ("lenr:on", "takes no value"),
        ("teleport", "unknown quirk; use idle-drop:SECONDS"), ("", "unknown quirk")
    ])
    func badQuirkSpecsGiveOneLineUsageErrors(spec: String, fragment: String) {
        do {
            let quirk = try SimulatorQuirk.parse(spec)
            Issue.record("'\(spec)' parsed as \(quirk)")
        } catch {
            #expect(error.isUsageError && !error.isTransient)
            guard case let .invalidQuirk(badSpec, reason) = error else {
                Issue.record("expected invalidQuirk, got \(error)")
                return
            }
            #expect(badSpec == spec)
            #expect(reason.contains(fragment), "\(reason)")
            #expect(!reason.contains("\n"))
        }
    }

    @Test func quirkOptionIsRepeatableAndTakesCommaLists() throws {
        let configuration = try SimulatorConfiguration.parse(arguments: [
            "--quirk", "idle-drop:10,lenr", "--quirk=af-lock:300", "--focus", "af-c"
        ])
        #expect(configuration.quirks == [.idleDrop(.seconds(10)), .longExposureNR, .afLock(.milliseconds(300))])
        #expect(configuration.focusMode == .continuousAF)
        #expect(try SimulatorConfiguration.parse(arguments: []).quirks.isEmpty)
        #expect(try SimulatorConfiguration.parse(arguments: []).focusMode == .manual)
    }

    @Test(arguments: [
        ("MF", SonyFocusMode.manual), ("AF-S", .singleAF), ("AF-C", .continuousAF), ("AF-A", .automaticAF),
        ("DMF", .directManual)
    ])
    func focusNamesAreTheCameraMenuNames(name: String, mode: SonyFocusMode) throws {
        #expect(try SimulatorConfiguration.parse(arguments: ["--focus", name]).focusMode == mode)
    }

    @Test(arguments: [["--focus", "AF"], ["--focus"], ["--quirk"], ["--quirk", ""], ["--quirk", "lenr,,af-fail"]])
    func badFocusOrQuirkOptionsAreRefused(arguments: [String]) {
        #expect(throws: SimulatorError.self) { try SimulatorConfiguration.parse(arguments: arguments) }
    }
}
