import Foundation
import Glibc
import TestSupport
import Testing

/// The console on a real pseudo-terminal (util-linux `script`): the live line at a given width, pausing and
/// stopping with keys, the prompt's Ctrl-D, and a hangup that must not end the shoot.
@Suite("Shoot console on a terminal (built binary, pseudo-terminal)", .realTime, .serialized)
struct EndToEndTerminalTests {
    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func atSixtyColumnsEveryLiveLineFitsAndEndsWithTheTimeLeft() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (output, _) = try await sandbox.withSimulator { port in
            try await Self.onTerminal(
                sandbox, columns: 60,
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"] + sandbox.shootArguments
            ) { run, _ in
                (await run.waitForExit(timeout: .seconds(120)), run.standardOutput)
            }
        }
        #expect(output.0 == 0, "\(output.1)")
        let lines = Self.liveLines(output.1)
        #expect(lines.count >= 15 * 3, "\(lines)")
        for line in lines {
            #expect(line.count <= 59, "\(line.count) characters: \(line)")
            #expect(line.hasSuffix(" left"), "\(line)")
            #expect(line.contains("["), "no bar: \(line)")
        }
        #expect(lines.contains { $0.contains("capturing") })
        // Within a frame (from its speed change until it is in the camera or saved) the time left never grows.
        var frameLeft: [Int] = []
        for line in lines {
            if line.contains("setting speed") || line.contains("  saved") || line.contains("in the camera") {
                frameLeft = []
            }
            if let left = Self.secondsLeft(line) {
                #expect(left <= (frameLeft.last ?? left), "grew within a frame: \(line)")
                frameLeft.append(left)
            }
        }
        #expect(lines.last?.hasPrefix("4\"  done") == true, "\(lines.last ?? "")")
        #expect(lines.last?.hasSuffix("15/15  ~0:00 left") == true, "\(lines.last ?? "")")
    }

    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func aPausedShootSaysWhyAndQWhilePausedStopsAtOnce() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator(processingMilliseconds: 200) { port in
            try await Self.onTerminal(
                sandbox, columns: 100,
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"] + sandbox.shootArguments
            ) { run, _ in
                try await sandbox.waitForCaptures(2)
                run.type(" ")
                try await Self.waitForOutput(run, containing: "paused by you (p continues)")
                run.type("q")
                return (await run.waitForExit(timeout: .seconds(60)), run.standardOutput)
            }
        }
        #expect(result.0 == 75, "\(result.1)")
        let text = result.1.replacingOccurrences(of: "\r", with: "\n")
        #expect(text.contains("Paused; press space or p to continue, q to stop"))
        // Parked between frames, q stops at once: there is no frame to finish.
        #expect(text.contains("\u{1B}[2KStopping\n"), "\(text)")
        #expect(!text.contains("Stopping after the current frame"))
        #expect(text.contains("Stopped at set 1, frame \(fired.count + 1)."), "\(text)")
    }

    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func ctrlDAtThePromptEndsThePromptLineBeforeTheError() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let arguments =
            ["run", "--shadow", "1/250", "--highlight", "1/1000", "--frames", "3", "--camera", "simulator"]
            + sandbox.shootArguments
        let result = try await ProcessRunner.run(
            try #require(TestHost.script), arguments: ["-qefc", try Self.shellLine(arguments), "/dev/null"],
            environment: sandbox.environment, standardInput: [0x04], timeout: .seconds(60))
        #expect(result.exitCode == 1)
        #expect(
            result.standardOutput.contains("Proceed? [y/N] \r\nerror: not confirmed; nothing was shot"),
            "\(result.standardOutput)")
    }

    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func aHangupLeavesTheShootRunningToTheEndWithoutTheTerminal() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let arguments =
            ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:PORT", "--confirm"] + sandbox.shootArguments
        let (result, fired) = try await sandbox.withSimulator(processingMilliseconds: 400) { port in
            let line = arguments.map { $0 == "127.0.0.1:PORT" ? "127.0.0.1:\(port)" : $0 }
            return try await Self.onTerminal(sandbox, columns: 80, line) { run, pid in
                try await sandbox.waitForCaptures(3)
                kill(pid, SIGHUP)
                try await sandbox.waitForCaptures(5)
                // Two frames and more than one redraw later: whatever the terminal shows now is all it will show.
                let shownBeforeTheEnd = run.standardOutput
                // Keys are no longer read: a q (and Enter, the terminal being back in line mode) stops nothing.
                run.type("q\n")
                // Stopped while another session asks, so it is still shooting then whatever the host's load. `script`
                // stops itself when its child stops (job control), so both are continued afterwards.
                kill(pid, SIGSTOP)
                let status = try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory])
                kill(pid, SIGCONT)
                kill(run.pid, SIGCONT)
                let exit = await run.waitForExit(timeout: .seconds(120))
                return (exit: exit, before: shownBeforeTheEnd, after: run.standardOutput, status: status)
            }
        }
        #expect(result.exit == 0, "\(result.after)")
        // Another session sees the shoot going on.
        #expect(
            jsonObject(result.status.standardOutput)?["state"] as? String == "inProgress",
            "\(result.status.standardOutput)")
        // Nothing reached the terminal after the hangup but its own echo of the typed keys.
        let written = String(result.after.dropFirst(result.before.count))
        #expect(written.replacingOccurrences(of: "q\r\n", with: "").isEmpty, "\(written.debugDescription)")
        #expect(!result.after.contains("Complete:"))
        // The shoot went on to the end: every frame fired once, journal and manifest complete.
        #expect(fired == ThreeByFive.labels)
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.count == 15 && frames.allSatisfy { $0["state"] as? String == "done" })
        let after = try await sandbox.hdrshoot(["status", "--json", "--state-dir", sandbox.stateDirectory])
        #expect(jsonObject(after.standardOutput)?["state"] as? String == "complete")
    }

    @Test(.enabled(if: TestHost.script != nil, "needs util-linux 'script' for a pseudo-terminal"))
    func whileReconnectingTheLiveLineCountsDownToTheNextAttemptAndTheTimeLeftStandsStill() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // At time scale 2 the reconnect schedule's first wait (2 s) is 1 s of real time, and the live line counts
        // down the wait the shoot is given: "reconnecting in 1 s", a whole second, as "2 s" is unscaled.
        let (result, _) = try await sandbox.withSimulator(
            faults: ["drop-at-frame:3"], extra: ScaledTime.simulatorArguments(factor: 2)
        ) { port in
            try await Self.onTerminal(
                sandbox, columns: 80,
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm"] + sandbox.shootArguments,
                adding: ScaledTime.environment(factor: 2)
            ) { run, _ in
                (await run.waitForExit(timeout: .seconds(120)), run.standardOutput)
            }
        }
        #expect(result.0 == 0, "\(result.1)")
        let reconnecting = Self.liveLines(result.1).filter { $0.contains("reconnecting") }
        // The countdown starts at the wait given (1 s, never the unscaled 2 s) and counts down from there.
        let countdowns = Set(reconnecting.compactMap { $0.firstMatch(of: /reconnecting in (\d+) s/)?.1 })
        #expect(countdowns == ["1"], "\(reconnecting)")
        #expect(Set(reconnecting.compactMap(Self.secondsLeft)).count == 1, "\(reconnecting)")
        #expect(result.1.contains("Complete: 15 of 15 exposures saved"))
    }

    // MARK: - Helpers

    /// The seconds of a live line's `~m:ss left`.
    static func secondsLeft(_ line: String) -> Int? {
        guard let tilde = line.lastIndex(of: "~") else { return nil }
        let clock = line[line.index(after: tilde)...].prefix { $0 != " " }.split(separator: ":").compactMap { Int($0) }
        return clock.count == 2 ? clock[0] * 60 + clock[1] : nil
    }

    /// Runs `hdrshoot <arguments>` on a pseudo-terminal `columns` wide, started in the background (keys can be
    /// typed with `type(_:)`), its environment the sandbox's plus `environment`; `body` also gets hdrshoot's own
    /// PID. hdrshoot outlives a killed `script` (it ignores the hangup), so it is killed by that PID when `body`
    /// ends without it having exited.
    static func onTerminal<T>(
        _ sandbox: ShootSandbox, columns: Int, _ arguments: [String], adding environment: [String: String] = [:],
        _ body: (BackgroundProcess, pid_t) async throws -> T
    ) async throws -> T {
        let shell = "stty cols \(columns) rows 24; echo hdrshoot-pid $$; exec \(try shellLine(arguments))"
        return try await BackgroundProcess.with(
            try #require(TestHost.script), arguments: ["-qefc", shell, "/dev/null"],
            environment: sandbox.environment.merging(environment) { $1 },
            typing: true
        ) { run in
            try await waitForOutput(run, containing: "hdrshoot-pid ")
            let text = run.standardOutput
            let digits = text[text.range(of: "hdrshoot-pid ")!.upperBound...].prefix { $0.isNumber }
            let pid = try #require(pid_t(digits))
            // `script` reaps hdrshoot when it exits: while `script` runs, the PID is still hdrshoot's.
            defer { if run.exitStatus == nil { kill(pid, SIGKILL) } }
            return try await body(run, pid)
        }
    }

    /// Polls what `run` printed until it contains `text` (live lines end in no newline, so no line wait fits).
    static func waitForOutput(
        _ run: BackgroundProcess, containing text: String, timeout: Duration = .seconds(60)
    ) async throws {
        let shown = try await eventually(timeout: timeout, every: .milliseconds(20)) {
            run.standardOutput.contains(text) || run.exitStatus != nil
        }
        guard shown, run.standardOutput.contains(text) else {
            throw BackgroundProcess.Failure.noMatchingLine(output: run.standardOutput, errorOutput: run.standardError)
        }
    }

    /// The built binary and `arguments`, quoted for `sh -c`.
    static func shellLine(_ arguments: [String]) throws -> String {
        let binary = try ProcessRunner.hdrshootBinary().path
        return ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
    }

    /// Every state of the live line the terminal was sent: the text after each "erase line", up to the next
    /// carriage return or newline.
    static func liveLines(_ output: String) -> [String] {
        output.components(separatedBy: "\u{1B}[2K").dropFirst().compactMap { segment in
            // `\r\n` is one Character: split on every newline character, not on `\r` and `\n` alone.
            let line = segment.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(
                String.init)
            return line.flatMap { $0.isEmpty ? nil : $0 }
        }.filter { $0.hasSuffix(" left") || $0.contains("[") }
    }
}
