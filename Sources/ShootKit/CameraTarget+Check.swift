import ImageLuminance

extension CameraTarget {
    /// Reaches this target's camera through `reach`, connects and checks it exactly as a shoot's preparation does
    /// (`CameraCheck.connect(...then:)`: the same route, connect backoff and check), and lets it go: what a front
    /// end shows while no shoot runs (the phone's Check camera: who it is, its battery and card, what would block a
    /// shoot). `scene` is a built-in simulator's picture; `note` hears how the camera is reached, `progress` each
    /// connect step. A camera that cannot be reached or checked throws the error as it is (the front end words it).
    package func check(
        reach: some CameraReach, scene: Scene.Name? = nil,
        note: @escaping @Sendable (ConnectionNote) -> Void = { _ in },
        progress: @escaping @Sendable (ConnectProgress) -> Void = { _ in }
    ) async throws -> CameraCheck {
        try await withCamera(reach: reach, scene: scene, note: note) { camera, address in
            try await CameraCheck.connect(camera, address: address, progress: progress) { check in
                await camera.disconnect()
                return check
            }
        }
    }
}
