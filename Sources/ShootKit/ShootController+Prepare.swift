import Exposure
import ImageLuminance
import Shooting

extension ShootController {
    /// The steps before a shoot's first frame, in the one order every start takes (`run`, `resume`, a series and
    /// its resume): connect and check `camera` (each step to `progress`), `connected` (a front end remembers the
    /// address), match `start` to the body, propose what it will shoot, `present` it (the front end's summary
    /// lines and JSON), refuse it when something blocks it, `ask` (the front end's question: it sends confirm or
    /// decline, or with nothing proposed refuses by throwing), wait for the decision, record the journal (its lock
    /// held until `shoot` returns), and `shoot`. A step that throws lets the camera go (`CameraCheck.connect(...then:)`,
    /// which the idle check shares); the error is the caller's to word.
    package nonisolated func prepare<Start: ShootStart, Outcome>(
        _ start: Start, camera: any CommandCamera, address: String,
        progress: @escaping @Sendable (ConnectProgress) -> Void,
        connected: () async -> Void = {},
        present: (Start.Matched, CameraCheck, _ proposal: ShootUpdate.Summary?) async throws -> Void = { _, _, _ in },
        ask: (_ proposal: ShootUpdate.Summary?) async throws -> Void,
        shoot: (Start.Recorded) async throws -> Outcome
    ) async throws -> Outcome {
        try await CameraCheck.connect(camera, address: address, needing: start.shutterNeeds, progress: progress) {
            var check = $0
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
        }
    }
}

extension ShootController {
    /// `prepare(_:camera:address:...)` on the camera `target` names, reached through `reach` (the front end's
    /// settings and questions; `note` hears how it is reached, `scene` is a built-in simulator's picture,
    /// `resuming` lets a legacy body hand over a picture an earlier run left in it): from the target to the shoot's
    /// end, every step the controller's. `connected` gets the address that answered (a front end remembers it).
    package nonisolated func prepare<Start: ShootStart, Outcome: Sendable>(
        _ start: Start, on target: CameraTarget, reach: some CameraReach, scene: Scene.Name? = nil,
        resuming: Bool = false, note: @escaping @Sendable (ConnectionNote) -> Void = { _ in },
        progress: @escaping @Sendable (ConnectProgress) -> Void,
        connected: (String) async -> Void = { _ in },
        present: (Start.Matched, CameraCheck, _ proposal: ShootUpdate.Summary?) async throws -> Void = { _, _, _ in },
        ask: (_ proposal: ShootUpdate.Summary?) async throws -> Void,
        shoot: (Start.Recorded) async throws -> Outcome
    ) async throws -> Outcome {
        try await target.withCamera(reach: reach, scene: scene, resuming: resuming, note: note) { camera, address in
            try await prepare(
                start, camera: camera, address: address, progress: progress, connected: { await connected(address) },
                present: present, ask: ask, shoot: shoot)
        }
    }
}
