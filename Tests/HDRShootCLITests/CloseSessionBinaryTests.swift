import Foundation
import Glibc
import TestSupport
import Testing

/// Every way out of a shoot that can still speak to the body sends CloseSession (0x1003) before hdrshoot exits:
/// a body left holding a session it was never told is over can refuse the next one until it is power-cycled
/// (issue 33, point 5). Each case runs the built binary against `hdrshoot simulate --op-log` and reads the
/// simulator's operation log; how long after the key or signal the CloseSession was logged is printed as a figure.
@Suite("CloseSession on every way out (built binary)", .realTime, .serialized)
struct CloseSessionBinaryTests {
    /// The operation names of the simulator's `--op-log`, in order.
    static func operations(_ sandbox: ShootSandbox) -> [String] {
        let text = (try? String(contentsOfFile: opLog(sandbox), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { jsonObject(String($0))?["name"] as? String }
    }

    static func opLog(_ sandbox: ShootSandbox) -> String {
        sandbox.root.appendingPathComponent("operations.jsonl").path
    }

    /// Waits until the operation log ends with CloseSession (or `process` exited without one) and prints how long
    /// after `since` that was.
    static func waitForCloseSession(
        _ sandbox: ShootSandbox, after way: String, since start: ContinuousClock.Instant
    ) async throws -> Bool {
        let closed = try await eventually(every: .milliseconds(5)) { operations(sandbox).last == "CloseSession" }
        if closed { print("CloseSession after \(way): logged \(ContinuousClock.now - start) after it") }
        return closed
    }

    /// Runs a 3×5 shoot with plain output in the background, `interrupt`s it once 4 frames are saved, and returns
    /// the exit status, the output and whether CloseSession was the last operation the body saw.
    static func interrupted(
        by signal: Int32, named way: String
    ) async throws -> (status: Int32, output: String, closed: Bool, operations: [String]) {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, _) = try await sandbox.withSimulator(extra: ["--op-log", opLog(sandbox)]) { port in
            try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(),
                arguments: ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"]
                    + sandbox.shootArguments,
                environment: sandbox.environment
            ) { shoot in
                _ = try await shoot.waitForLine(timeout: .seconds(60)) { $0.contains("(4 of 15)") }
                let start = ContinuousClock.now
                shoot.send(signal)
                let closed = try await waitForCloseSession(sandbox, after: way, since: start)
                let status = await shoot.waitForExit(timeout: .seconds(60))
                return (status, shoot.standardOutput + shoot.standardError, closed)
            }
        }
        return (result.0, result.1, result.2, operations(sandbox))
    }

    @Test func ctrlCStopsAfterTheFrameAndClosesTheSession() async throws {
        let result = try await Self.interrupted(by: SIGINT, named: "Ctrl-C (SIGINT)")
        #expect(result.status == 75, "\(result.output)")
        #expect(result.closed, "\(result.operations.suffix(5))")
        // Exactly one CloseSession, and nothing after it: the session was over when hdrshoot said so.
        #expect(result.operations.filter { $0 == "CloseSession" }.count == 1)
        #expect(result.output.contains("Run `hdrshoot resume`"), "\(result.output)")
    }

    @Test func sigtermStopsAfterTheFrameAndClosesTheSession() async throws {
        let result = try await Self.interrupted(by: SIGTERM, named: "SIGTERM")
        #expect(result.status == 75, "\(result.output)")
        #expect(result.closed, "\(result.operations.suffix(5))")
        #expect(result.operations.filter { $0 == "CloseSession" }.count == 1)
    }

    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func qOnTheTerminalStopsAndClosesTheSession() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, _) = try await sandbox.withSimulator(extra: ["--op-log", Self.opLog(sandbox)]) { port in
            try await EndToEndTerminalTests.onTerminal(
                sandbox, columns: 100,
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"] + sandbox.shootArguments
            ) { run, _ in
                try await sandbox.waitForCaptures(4)
                let start = ContinuousClock.now
                run.type("q")
                let closed = try await Self.waitForCloseSession(sandbox, after: "q", since: start)
                return (await run.waitForExit(timeout: .seconds(60)), run.standardOutput, closed)
            }
        }
        #expect(result.0 == 75, "\(result.1)")
        #expect(result.1.contains("Stopping"), "\(result.1)")
        #expect(result.2, "\(Self.operations(sandbox).suffix(5))")
        #expect(Self.operations(sandbox).filter { $0 == "CloseSession" }.count == 1)
    }

    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func aHangupShootsOnAndClosesTheSessionAtTheEnd() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator(extra: ["--op-log", Self.opLog(sandbox)]) { port in
            try await EndToEndTerminalTests.onTerminal(
                sandbox, columns: 100,
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"] + sandbox.shootArguments
            ) { run, pid in
                try await sandbox.waitForCaptures(3)
                kill(pid, SIGHUP)
                // The session stays open while the shoot goes on without its terminal.
                try await sandbox.waitForCaptures(6)
                let openMidway = !Self.operations(sandbox).contains("CloseSession")
                // The last frame is saved just before the end: time from there to the CloseSession.
                try await sandbox.waitForCaptures(15)
                let start = ContinuousClock.now
                let closed = try await Self.waitForCloseSession(
                    sandbox, after: "SIGHUP, at the shoot's end", since: start)
                return (await run.waitForExit(timeout: .seconds(60)), openMidway, closed)
            }
        }
        #expect(result.0 == 0)
        #expect(result.1, "CloseSession before the shoot's end")
        #expect(result.2, "\(Self.operations(sandbox).suffix(5))")
        #expect(fired == ThreeByFive.labels)
        #expect(Self.operations(sandbox).filter { $0 == "CloseSession" }.count == 1)
    }
}
