import CameraSimulator
import Foundation
import Shooting
import SonyCamera
import TestSupport

/// Runs a simulated body and a `SonyCamera` each on a virtual clock and moves both clocks together, so field
/// behaviours that take seconds (idle drops, ignored releases, focus) are tested in milliseconds.
enum Lockstep {
    /// Runs `operation` while both clocks move on by `step` at a time (with a moment of real time between steps
    /// for the loopback traffic they cause), until it finishes or `limit` of virtual time has passed.
    static func drive<T: Sendable>(
        _ clocks: (camera: TestClock, body: TestClock), step: Duration = .milliseconds(50),
        limit: Duration = .seconds(120),
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let task = Task { try await operation() }
        let done = Flag()
        let watcher = Task {
            _ = try? await task.value
            done.set()
        }
        var elapsed = Duration.zero
        while !done.isSet, elapsed < limit {
            clocks.body.advance(by: step)
            clocks.camera.advance(by: step)
            elapsed += step
            try await Task.sleep(for: .milliseconds(2))
        }
        if !done.isSet { task.cancel() }
        _ = await watcher.value
        return try await task.value
    }

    /// Moves both clocks on by `duration`, `step` at a time.
    static func pass(
        _ duration: Duration, _ clocks: (camera: TestClock, body: TestClock), step: Duration = .milliseconds(100)
    ) async throws {
        var elapsed = Duration.zero
        while elapsed < duration {
            clocks.body.advance(by: step)
            clocks.camera.advance(by: step)
            elapsed += step
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
