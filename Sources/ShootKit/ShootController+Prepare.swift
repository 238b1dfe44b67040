import Exposure
import Shooting

extension ShootController {
    /// The steps before a shoot's first frame, in the one order every start takes (`run`, `resume`, a series and
    /// its resume): connect and check `camera` (each step to `progress`), `connected` (a front end remembers the
    /// address), match `start` to the body, propose what it will shoot, `present` it (the front end's summary
    /// lines and JSON), refuse it when something blocks it, `ask` (the front end's question: it sends confirm or
    /// decline, or with nothing proposed refuses by throwing), wait for the decision, record the journal (its lock
    /// held until `shoot` returns), and `shoot`. A step that throws lets the camera go; the error is the caller's
    /// to word.
    package nonisolated func prepare<Start: ShootStart, Outcome>(
        _ start: Start, camera: any CommandCamera, address: String,
        progress: @escaping @Sendable (ConnectProgress) -> Void,
        connected: () async -> Void = {},
        present: (Start.Matched, CameraCheck, _ proposal: ShootUpdate.Summary?) async throws -> Void = { _, _, _ in },
        ask: (_ proposal: ShootUpdate.Summary?) async throws -> Void,
        shoot: (Start.Recorded) async throws -> Outcome
    ) async throws -> Outcome {
        do {
            var check = try await CameraCheck.connect(
                camera, address: address, needing: start.shutterNeeds, progress: progress)
            await connected()
            let matched = try start.match(&check, messages: messages)
            let proposal = start.proposal(of: matched, check: check)
            if let proposal { await propose(proposal) }
            try await present(matched, check, proposal)
            // Blockers are the refusal itself: nothing is asked of a shoot that cannot go.
            guard check.blockers.isEmpty else { throw ShootPreparationError.blocked(check.blockers) }
            try await ask(proposal)
            // The controller's decision, not the front end's prompt, is what lets the shoot go on.
            if proposal != nil {
                guard await decision() else { throw ShootPreparationError.declined }
            }
            let (recorded, lock) = try await start.record(matched, camera: camera, check: check)
            // Held while this process shoots, so a `resume` elsewhere cannot take the same shoot.
            defer { withExtendedLifetime(lock) {} }
            return try await shoot(recorded)
        } catch {
            await camera.disconnect()
            throw error
        }
    }
}
