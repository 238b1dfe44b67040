import Foundation
import ShootKit
import TestSupport
import Testing

/// `--json` prints the application layer's update type: every line of a whole shoot decodes into `ShootUpdate`.
@Suite("--json lines are ShootUpdates (built binary against hdrshoot simulate)", .realTime, .serialized)
struct JSONUpdateEndToEndTests {
    @Test func everyLineOfAWholeShootDecodesIntoTheUpdateType() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator { port in
            try await sandbox.hdrshoot(
                ["run"] + ThreeByFive.flags + ["--camera", "127.0.0.1:\(port)", "--confirm", "--json"]
                    + sandbox.shootArguments)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(fired == ThreeByFive.labels)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let updates = try lines.map { try ShootUpdate(jsonLine: $0) }
        // Decoded and encoded again, each line is the same JSON object: nothing is lost or added by the type.
        for (line, update) in zip(lines, updates) {
            let again = try #require(jsonObject(update.jsonLine) as NSDictionary?)
            #expect(again == (try #require(jsonObject(line) as NSDictionary?)), "\(line)")
        }
        guard case .summary(let summary)? = updates.first else {
            Issue.record("the first line is not the summary: \(lines.first ?? "")")
            return
        }
        #expect(summary.exposures == 15 && summary.sets == 3 && summary.blockers.isEmpty)
        #expect(summary.speeds?.flatMap { $0 } == ThreeByFive.labels)
        let saved = updates.compactMap { update -> String? in
            if case .progress(let progress) = update, progress.phase == "saved" { return progress.actualSpeed }
            return nil
        }
        #expect(saved == ThreeByFive.labels)
        #expect(updates.contains { if case .started = $0 { true } else { false } })
        #expect(updates.contains { if case .rangeCheck(let check) = $0 { check.scope == "bracket" } else { false } })
        guard case .finished(let finished)? = updates.last else {
            Issue.record("the last line is not finished: \(lines.last ?? "")")
            return
        }
        #expect(finished.complete && finished.completed == 15 && finished.total == 15)
        #expect(finished.resumePosition == nil && finished.stopReason == nil)
        // What a watcher keeps from the lines alone is the whole shoot: the snapshot they fold into.
        let folded = updates.reduce(ShootSnapshot()) { $0.applying($1) }
        #expect(folded.summary == summary && folded.finished == finished)
        #expect(folded.progress?.frame == 5 && folded.progress?.set == 3)
    }

    @Test func everyLineOfASeriesDecodesIntoTheUpdateType() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        // Twenty times faster (`SeriesEndToEndTests.fast`: nothing reads a start time across two processes), so
        // repetition 2 starts half a real second after 1.
        let fast = SeriesEndToEndTests.fast
        let (result, fired) = try await sandbox.withSimulator(extra: ScaledTime.simulatorArguments(factor: fast)) {
            port in
            try await sandbox.hdrshoot(
                [
                    "run", "--shadow", "1/60", "--highlight", "1/1000", "--frames", "3", "--ev", "2", "--every", "10s",
                    "--count", "2", "--camera", "127.0.0.1:\(port)", "--confirm", "--no-network-monitor", "--json"
                ] + sandbox.shootArguments, environment: ScaledTime.environment(factor: fast))
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(fired.count == 6)
        let updates = try result.standardOutput.split(separator: "\n").map { try ShootUpdate(jsonLine: String($0)) }
        let repetitions = updates.compactMap { update -> ShootUpdate.RepetitionFinished? in
            if case .repetitionFinished(let finished) = update { return finished }
            return nil
        }
        #expect(repetitions.map(\.repetition) == [1, 2] && repetitions.allSatisfy(\.complete))
        #expect(updates.contains { if case .waiting(let waiting) = $0 { waiting.repetition == 2 } else { false } })
        guard case .seriesFinished(let finished)? = updates.last else {
            Issue.record("the last line is not seriesFinished")
            return
        }
        #expect(finished == ShootUpdate.SeriesFinished(complete: true, repetitionsDone: 2, next: nil))
        #expect(updates.reduce(ShootSnapshot()) { $0.applying($1) }.repetitionsDone == 2)
    }
}
