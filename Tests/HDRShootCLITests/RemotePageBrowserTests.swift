import Foundation
import TestSupport
import Testing

/// The phone remote in a real browser: headless Chromium (Debian's chromium and chromium-driver, driven by
/// Selenium, python3-selenium) at 390x844 against the built binary; scripts/remote-page-browser.py does the
/// clicking and checks, this suite runs it and checks its verdict. `serve` drives `hdrshoot simulate` (a process
/// of its own, 20 ms exposures) and stops it (SIGSTOP) while the page pauses, so each pause lands mid-shoot
/// however slowly the page answers; each click is made once, the buttons never moving under it. A short first run
/// serves `--camera simulator` (the built-in body) and looks only at how the page wears it: words and colours.
@Suite("The remote page in headless Chromium (built binary)", .realTime)
struct RemotePageBrowserTests {
    static let python = "/usr/bin/python3"
    static let script = Fixtures.packageRoot.appendingPathComponent("scripts/remote-page-browser.py")

    /// Why the browser tests cannot run here, nil when they can.
    static let skipReason: String? = {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", python]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            return "needs \(tool) (apt-get install chromium chromium-driver python3-selenium)"
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: python)
        probe.arguments = ["-c", "import selenium"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return "cannot run \(python)" }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? nil : "needs python3-selenium"
    }()

    /// One run of the script's `both` mode (simulated, serve, then run --remote, in one browser), shared by the tests:
    /// Chromium starts once for the suite. Each mode ends in its own "ok: MODE" line or its own "FAIL (MODE)".
    static let bothModes = Task<ProcessResult, any Error> { try await runScript("both") }

    private static func runScript(_ mode: String, extra: [String] = []) async throws -> ProcessResult {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        return try await ProcessRunner.run(
            URL(fileURLWithPath: Self.python),
            arguments: [Self.script.path, mode, try ProcessRunner.hdrshootBinary().path, folder.url.path + "/out"]
                + extra,
            environment: [
                "HDRSHOOT_STATE_DIR": folder.url.path + "/state", "HOME": folder.url.path,
                "XDG_CONFIG_HOME": folder.url.path + "/config"
            ], timeout: .seconds(240))
    }

    @Test(
        "serve --camera simulator: the page says the simulated camera in its banner and heading and wears its colours",
        .enabled(if: skipReason == nil, Comment(rawValue: skipReason ?? "")))
    func simulatorPageIsMarkedAsSimulated() async throws {
        let result = try await Self.bothModes.value
        #expect(
            !result.standardOutput.contains("FAIL (simulated)"), "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("step: simulated banner: Ready · simulated camera\n"))
        #expect(
            result.standardOutput.contains(
                "step: simulated colours: page rgb(26, 18, 48), card rgb(38, 26, 68), tag shown True\n"))
        #expect(result.standardOutput.contains("step: simulated camera: ILCE-7M3"))
        #expect(result.standardOutput.contains("ok: simulated"))
    }

    @Test(
        "serve: plan, confirm, pause, reload mid-shoot, resume, stop, resume the stopped shoot, 15 of 15, the last frame, nothing from elsewhere",
        .enabled(if: skipReason == nil, Comment(rawValue: skipReason ?? "")))
    func servePlansPausesReloadsAndFinishes() async throws {
        let result = try await Self.bothModes.value
        #expect(!result.standardOutput.contains("FAIL (serve)"), "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("step: ready, not dressed as the simulator (page rgb(17, 17, 17))"))
        #expect(result.standardOutput.contains("step: camera: ILCE-7M3 at 127.0.0.1:"))
        #expect(result.standardOutput.contains(" · battery 100 % · "))
        #expect(result.standardOutput.contains("step: the Pause button stayed [46] px below the banner while shooting"))
        #expect(result.standardOutput.contains("step: plan: 3 sets, 15 exposures"))
        #expect(result.standardOutput.contains("step: reloaded, still paused"))
        #expect(result.standardOutput.contains("step: resume proposed: Resume:"))
        #expect(result.standardOutput.contains("equals the range check's"))
        #expect(result.standardOutput.contains("step: link: Last camera operation: "))
        #expect(result.standardOutput.contains("ok: serve"))
    }

    @Test(
        "run --remote: the page pauses the terminal's shoot and stops it (exit 75)",
        .enabled(if: skipReason == nil, Comment(rawValue: skipReason ?? "")))
    func runRemoteIsPausedAndStoppedFromThePage() async throws {
        let result = try await Self.bothModes.value
        #expect(!result.standardOutput.contains("FAIL (run)"), "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("step: run stopped from the page, exit 75, after "))
        #expect(result.standardOutput.contains("ok: run"))
    }
}
