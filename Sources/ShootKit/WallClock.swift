import Foundation

/// The time of day, injected: the one place hdrshoot reads the wall clock is `WallClock.system`, so a series'
/// schedule, its folder names and its start lines follow whatever clock a test or a front end hands in.
package struct WallClock: Sendable {
    /// The time now.
    package var now: @Sendable () -> Date

    /// A clock that reads `now`.
    package init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system's clock: the edge.
    package static let system = WallClock { Date() }

    /// A clock stopped at `date` (tests).
    package static func fixed(_ date: Date) -> WallClock { WallClock { date } }
}
