import Foundation
import TestSupport
import Testing

/// The idle page's Check camera on the built binary: `hdrshoot serve` checks the camera its shoots would use,
/// reached as they reach it. With `--camera simulator --replay-session LOG` that is the logged body: the recorded
/// RX100M7 (../shared/fixtures), not the simulator's default ILCE-7M3, which the check answered before it went
/// through the layer's `CameraTarget.check`.
@Suite(
    "serve: Check camera is the shoots' camera (built binary)", .realTime,
    .enabled(if: Fixtures.available, Fixtures.skipReason))
struct ServeCheckCameraTests {
    @Test func theCheckOfAReplayedBodyAnswersWithTheLoggedBodyAndLetsItGo() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let log = sandbox.root.appendingPathComponent("rx100m7.jsonl").path
        try FixtureSessionLog.write(body: "rx100m7", to: log)
        let arguments =
            ["--listen", "127.0.0.1:0", "--camera", "simulator", "--replay-session", log] + sandbox.shootArguments
        try await ServedRemote.with(arguments, environment: sandbox.environment) { remote, _ in
            // Twice: the first check let the body go, so the second is answered by the same body.
            for _ in 0..<2 {
                let answer = try await remote.send("POST", "/api/check-camera", body: "{}")
                #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
                let object = try #require(
                    (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any])
                #expect(object["ok"] as? Bool == true)
                #expect(object["blockers"] as? [String] == [])
                let camera = try #require(object["camera"] as? [String: Any])
                #expect(camera["model"] as? String == "DSC-RX100M7")
                #expect(camera["address"] as? String == "simulator")
            }
        }
    }
}
