/// Upper bounds for tests that prove something does not hang.
///
/// Such a test checks that a 200 ms timeout fires or that a close returns; it is not a speed target
/// (those are benchmark figures). Under `swift test` the suites run in parallel on a 2-core machine, and a
/// task woken by the I/O thread may wait seconds for a cooperative-pool thread, so the bound only
/// separates "returned" from "hung".
package enum TimingBounds {
    /// The most a bounded operation may take in a test before it counts as a hang.
    package static let notAHang: Duration = .seconds(10)
}
