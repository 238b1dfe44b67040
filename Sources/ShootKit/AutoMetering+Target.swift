import Foundation
import ImageLuminance

extension AutoMetering {
    /// Reaches `target`'s camera through `reach`, connects and checks it (each step to `progress`), meters the
    /// scene with probes in `folder/probes` and lets the camera go: what `hdrshoot meter` and `run --auto` share.
    /// A Camera Remote API body is refused (its probes cannot be made small, and it reports no meter), before
    /// anything fires. `note` hears how the camera is reached, `say` the metering's own lines.
    package static func measure(
        with target: CameraTarget, reach: some CameraReach, scene: Scene.Name?, folder: String,
        note: @escaping @Sendable (ConnectionNote) -> Void = { _ in },
        progress: @escaping @Sendable (ConnectProgress) -> Void, say: @escaping @Sendable (String) -> Void
    ) async throws -> Outcome {
        try await target.withCamera(reach: reach, scene: scene, note: note) { camera, address in
            guard camera.remoteProtocol.meters else {
                await camera.disconnect()
                throw ShootPreparationError.blocked([.meteringUnavailable])
            }
            return try await CameraCheck.connect(camera, address: address, progress: progress) { check in
                let probes = URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent("probes")
                let outcome = try await measure(camera, check: check, probes: probes, say: say)
                await camera.disconnect()
                return outcome
            }
        }
    }
}
