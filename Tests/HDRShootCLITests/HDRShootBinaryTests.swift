import Foundation
import TestSupport
import Testing

/// The built `hdrshoot` executable run as a child process: exit codes, stdout and stderr as a shell sees them.
@Suite(.realTime) struct HDRShootBinaryTests {
    @Test func binaryIsBuiltBySwiftTest() throws {
        // Fails with a clear message (where it looked, how to build it) instead of skipping silently.
        let binary = try ProcessRunner.hdrshootBinary()
        #expect(FileManager.default.isExecutableFile(atPath: binary.path))
    }

    @Test(arguments: badPlanInputs)
    func badInputExits64WithAOneLineMessage(arguments: [String], message: String) async throws {
        let result = try await ProcessRunner.runHDRShoot(arguments, timeout: .seconds(20))
        #expect(!result.timedOut)
        #expect(result.exitCode == 64, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines.count == 2, "\(result.standardError)")
        #expect(result.errorLines.first?.hasPrefix(message) == true, "\(result.standardError)")
        #expect(result.errorLines.last?.hasPrefix("Run 'hdrshoot") == true)
    }

    @Test func planPrintsToStandardOutputAndExitsZero() async throws {
        let result = try await ProcessRunner.runHDRShoot([
            "plan", "--shadow", "1/125", "--highlight", "1/500", "--frames", "3"
        ])
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
        #expect(
            result.standardOutput == """
                Set  Speeds
                  1  1/500  1/250  1/125
                1 set, 3 exposures (3 distinct), range 2 EV, longest 1/125, estimated 0.8 s

                """)
    }

    @Test(arguments: [["--help"], ["plan", "--help"], ["--version"]])
    func helpAndVersionGoToStandardOutput(arguments: [String]) async throws {
        let result = try await ProcessRunner.runHDRShoot(arguments)
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
        #expect(!result.standardOutput.isEmpty)
    }

    /// Every `examples/*.sh` prints exactly its `.expected` file when run against the built binary.
    @Test func examplesPrintTheirExpectedOutput() async throws {
        let examples = Fixtures.packageRoot.appendingPathComponent("examples")
        let scripts = try FileManager.default.contentsOfDirectory(atPath: examples.path)
            .filter { $0.hasSuffix(".sh") && $0 != "check.sh" }
            .sorted()
        try #require(!scripts.isEmpty, "no example scripts in \(examples.path)")
        var environment = ProcessInfo.processInfo.environment
        environment["HDRSHOOT"] = try ProcessRunner.hdrshootBinary().path
        for script in scripts {
            let expectedURL = examples.appendingPathComponent(script.replacingOccurrences(of: ".sh", with: ".expected"))
            let expected = try String(contentsOf: expectedURL, encoding: .utf8)
            let result = try await ProcessRunner.run(
                URL(fileURLWithPath: "/bin/bash"), arguments: [examples.appendingPathComponent(script).path],
                environment: environment)
            #expect(result.exitCode == 0, "\(script): \(result.standardError)")
            #expect(result.standardOutput == expected, "\(script) differs from its .expected file")
        }
    }
}

/// The process runner itself: capture, exit codes, stdin, and the timeout.
@Suite(.realTime) struct ProcessRunnerTests {
    @Test func capturesBothStreamsAndTheExitCode() async throws {
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo out; echo err >&2; exit 3"])
        #expect(result.exitCode == 3)
        #expect(result.standardOutput == "out\n")
        #expect(result.standardError == "err\n")
        #expect(!result.timedOut)
    }

    @Test func feedsStandardInput() async throws {
        let result = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/cat"), standardInput: Array("typed\n".utf8))
        #expect(result.standardOutput == "typed\n")
    }

    @Test func killsAProcessThatOutlivesItsTimeout() async throws {
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "exec sleep 30"], timeout: .milliseconds(200))
        #expect(result.timedOut)
        #expect(result.exitCode == 128 + 9) // SIGKILL: `sleep` ending on its own would exit 0
        // Not a hang, counted from the launch: the wait for a process slot before it is not the runner's doing
        // (under a parallel `swift test` on 2 cores it took 20 s and more).
        #expect(result.runTime < TimingBounds.notAHang)
    }

    @Test func aMissingExecutableSaysSo() async {
        await #expect(throws: ProcessRunner.Failure.self) {
            try await ProcessRunner.run(URL(fileURLWithPath: "/nonexistent/hdrshoot"))
        }
    }
}
