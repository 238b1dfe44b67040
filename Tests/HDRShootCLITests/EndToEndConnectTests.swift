import Foundation
import Glibc
import TestSupport
import Testing

/// What `run` says while it connects: the plan first, then whom it waits for, each retry with its wait, the
/// result (built binary, loopback only).
@Suite("Connecting out loud (built binary)", .realTime, .serialized)
struct EndToEndConnectTests {
    @Test func theRunSaysThePlanThenConnectingThenEachRetryThenConnected() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Nothing listens on the port at first (refused), so attempt 1 fails and the run announces attempt 2
        // in 0.5 s; the simulator started on that port in the meantime answers attempt 2 (or, on a host so loaded
        // that it takes longer to start, attempt 3 or 4: each retry is still announced as it comes). The schedule
        // is the test hook's (`HDRSHOOT_CONNECT_BACKOFF`), shorter than the standard 2 s, 5 s, 10 s, whose waits
        // and lines `ConnectBackoffTests` checks on a test clock: here the run waits out a real one.
        let port = try LoopbackSocket.closedTCPPort()
        let environment = sandbox.environment.merging(["HDRSHOOT_CONNECT_BACKOFF": "0.5s,2s,5s"]) { $1 }
        let arguments =
            [
                "run", "--shadow", "1/250", "--highlight", "1/1000", "--frames", "3", "--camera", "127.0.0.1:\(port)",
                "--confirm"
            ]
            + sandbox.shootArguments
        let (exit, output) = try await BackgroundProcess.with(
            try ProcessRunner.hdrshootBinary(), arguments: arguments, environment: environment
        ) { run in
            _ = try await run.waitForLine { $0.contains("trying again in 0.5 s (attempt 2 of 4)") }
            let simulator = [
                "simulate", "--port", String(port), "--exposure-cap", "0.02", "--processing-ms", "20", "--image-size",
                "4000"
            ]
            return try await BackgroundProcess.with(
                try ProcessRunner.hdrshootBinary(), arguments: simulator, environment: sandbox.environment
            ) { camera in
                _ = try await camera.waitForLine { $0.contains("listening on") }
                let exit = await run.waitForExit(timeout: .seconds(60))
                camera.send(SIGTERM)
                await camera.waitForExit(timeout: .seconds(10))
                return (exit, run.standardOutput)
            }
        }
        #expect(exit == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        let retries = [
            "no answer (connection refused); trying again in 0.5 s (attempt 2 of 4)",
            "no answer (connection refused); trying again in 2 s (attempt 3 of 4)",
            "no answer (connection refused); trying again in 5 s (attempt 4 of 4)"
        ]
        let retried = lines.dropFirst(2).prefix { $0.hasPrefix("no answer") }.count
        #expect((1...3).contains(retried), "\(output)")
        #expect(
            Array(lines.prefix(3 + retried)) == [
                "1 set, 3 exposures. Longest exposure: 1/250. Estimated time: ~0.8 s.",
                "Connecting to 127.0.0.1:\(port)…"
            ] + retries.prefix(retried) + ["Connected to ILCE-7M3."], "\(output)")
        // The plan line is not repeated in the confirmation summary when the camera offers every speed.
        #expect(lines.filter { $0.hasPrefix("1 set, 3 exposures.") }.count == 1)
        #expect(output.contains("Complete: 3 of 3 exposures saved"))
    }
}
