import Synchronization
import TestSupport
import Testing

/// `RealTimeTrait`: the cases that carry it take turns even when the run is parallel.
@Suite("Real-time tests take turns")
struct RealTimeTraitTests {
    /// How many real-time cases are inside their turn now.
    static let inside = Atomic<Int>(0)

    @Test(.realTime, arguments: 0..<4)
    func eachCaseRunsAloneInItsTurn(index: Int) async throws {
        let before = Self.inside.add(1, ordering: .sequentiallyConsistent).newValue
        try await Task.sleep(for: .milliseconds(30))
        let after = Self.inside.subtract(1, ordering: .sequentiallyConsistent).newValue
        #expect(before == 1, "case \(index) found \(before - 1) other real-time case(s) running")
        #expect(after == 0)
    }

    @Suite(.realTime)
    struct ASuiteOfThem {
        @Test(arguments: 0..<2)
        func aSuitesTestsTakeTurnsWithTheOthers(index: Int) async throws {
            let before = RealTimeTraitTests.inside.add(1, ordering: .sequentiallyConsistent).newValue
            try await Task.sleep(for: .milliseconds(30))
            RealTimeTraitTests.inside.subtract(1, ordering: .sequentiallyConsistent)
            #expect(before == 1, "case \(index) found \(before - 1) other real-time case(s) running")
        }
    }
}
