import Exposure
import Shooting

extension ShootController {
    /// The steps before a shoot's first frame, in the one order every start takes (`run`, `resume`, a series and
    /// its resume): connect and check `camera` (each step to `progress`), `connected` (a front end remembers the
    /// address), `match` the shoot to the body (it adds what stops it to the check's blockers and returns the
    /// summary to propose; nil proposes nothing), propose it (then `proposed`: a front end that prints the summary
    /// as JSON), `ask` (the front end's question; it leaves the proposal decided, or throws), `record` the journal
    /// (its lock held until `shoot` returns), and `shoot`. A step that throws lets the camera go; the error is
    /// the caller's to word.
    package nonisolated func prepare<Matched, Recorded, Outcome>(
        _ camera: any CommandCamera, address: String, needing needs: ClosedRange<ShutterSpeed>? = nil,
        progress: @escaping @Sendable (ConnectProgress) -> Void,
        connected: () async -> Void = {},
        match: (inout CameraCheck) async throws -> (Matched, ShootUpdate.Summary?),
        proposed: (ShootUpdate.Summary) -> Void = { _ in },
        ask: (CameraCheck, _ proposal: ShootUpdate.Summary?) async throws -> Void,
        record: (Matched, CameraCheck) async throws -> (Recorded, JournalLock?),
        shoot: (Recorded) async throws -> Outcome
    ) async throws -> Outcome {
        do {
            var check = try await CameraCheck.connect(camera, address: address, needing: needs, progress: progress)
            await connected()
            let (matched, proposal) = try await match(&check)
            if let proposal {
                await propose(proposal)
                proposed(proposal)
            }
            try await ask(check, proposal)
            let (recorded, lock) = try await record(matched, check)
            // Held while this process shoots, so a `resume` elsewhere cannot take the same shoot.
            defer { withExtendedLifetime(lock) {} }
            return try await shoot(recorded)
        } catch {
            await camera.disconnect()
            throw error
        }
    }
}
