extension ShootController {
    /// A new single bracket from `request`, up to its preparation, in the layer's one order (`run`, `run --auto`
    /// and a bracket from the phone all take it):
    ///
    /// - given readings: `plan` (a plan that cannot be made is the photographer's typing, said first), the output
    ///   `folder` refused when it holds another shoot (`OutputFolderError`), then `prepare`;
    /// - metered readings (`--auto`): the folder refused first (the probes go into it, and nothing fires into a
    ///   folder that is not free), then `meter` on the camera (the front end reaches it with its settings; its
    ///   probes in `folder`'s `probes/`), then `plan` from what it found, then `prepare`.
    ///
    /// Either way nothing reaches the camera for the shoot before the folder is known free; `prepare` is where the
    /// front end hands its `NewBracketStart` to `prepare(_:on:reach:...)`. A series (`ShootRequest.series`) has
    /// its own folder rules and is not started here.
    package nonisolated func start<Planned, Outcome>(
        _ request: BracketRequest, into folder: String,
        meter: (_ folder: String) async throws -> AutoMetering.Outcome,
        plan: (_ metering: AutoMetering.Outcome?) async throws -> Planned,
        prepare: (Planned) async throws -> Outcome
    ) async throws -> Outcome {
        switch request.readings {
        case .given:
            let planned = try await plan(nil)
            try await OutputFolder.requireFree(folder)
            return try await prepare(planned)
        case .metered:
            try await OutputFolder.requireFree(folder)
            let metering = try await meter(folder)
            return try await prepare(try await plan(metering))
        }
    }
}
