import Testing

/// Marks tests whose checks span real time across processes: the built binary against a simulator child, a
/// kernel namespace, a real-clock "not a hang" bound. Under the parallel run (`swift test`) such tests take
/// turns: each test case carrying the trait runs alone among the others that carry it, while the tests in
/// virtual time go on beside it.
///
/// On a 2-core machine, four end-to-end tests at once are eight debug-built child processes; each then waits
/// seconds for a core, and a check like "pauses within one second of the link going down" or "the release
/// waits for the 2 s exposure" measures the scheduler instead of hdrshoot. Taking turns keeps what those tests
/// measure the same as under `--no-parallel`, without loosening a bound.
///
/// A real-time test's time limit is `.realTime(timeLimit:)`, not `.timeLimit`: Swift Testing's clock starts
/// before the test waits for its turn, so a test far back in the line would fail before it ran.
package struct RealTimeTrait: TestTrait, SuiteTrait, TestScoping {
    /// The turns every real-time test case of the process takes.
    static let turns = ProcessSlots(count: 1)

    /// The most one case may take once its turn has begun; nil for none.
    let timeLimit: Duration?

    /// Applies to each test of a suite, and to each of their cases.
    package var isRecursive: Bool { true }

    /// A scope for each test case (a plain test has one); none around a suite or a whole parameterized test, so
    /// the turn is held only while one case runs and a suite's tests never wait for their own suite.
    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite || testCase == nil ? nil : self
    }

    /// Runs `function` in this case's turn, within `timeLimit` of the turn's start.
    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The trait given twice (on a test and on its suite) takes one turn, not two: a second acquire would
        // wait for itself.
        if Self.holdsTurn {
            try await Self.run(function, within: timeLimit)
            return
        }
        await Self.turns.acquire()
        defer { Self.turns.release() }
        try await Self.$holdsTurn.withValue(true) { try await Self.run(function, within: timeLimit) }
    }

    /// Runs `function`; past `limit` (real time) records an issue and cancels it.
    private static func run(
        _ function: @Sendable () async throws -> Void, within limit: Duration?
    ) async throws {
        guard let limit else { return try await function() }
        // The group ends before this returns, so `function` does not outlive the call.
        try await withoutActuallyEscaping(function) { function in
            try await race(function, against: limit)
        }
    }

    /// `function` against a sleep of `limit`; the sleep winning records an issue and cancels `function`.
    private static func race(
        _ function: @escaping @Sendable () async throws -> Void, against limit: Duration
    ) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await function()
                return true
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return false
            }
            let finished = try await group.next() ?? true
            group.cancelAll()
            if !finished { Issue.record("Time limit was exceeded: \(limit) after the test's turn began") }
        }
    }

    /// Whether the running test case already has its turn.
    @TaskLocal static var holdsTurn = false
}

extension Trait where Self == RealTimeTrait {
    /// The test (or every test of the suite) measures real time across processes and takes turns with the
    /// others that do; see `RealTimeTrait`.
    package static var realTime: Self { RealTimeTrait(timeLimit: nil) }

    /// `.realTime`, with a time limit counted from the start of the test's turn.
    package static func realTime(timeLimit: Duration) -> Self { RealTimeTrait(timeLimit: timeLimit) }
}
