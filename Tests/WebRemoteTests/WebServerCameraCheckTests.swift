import Foundation
import HTTP
import Posix
import ShootKit
import TestSupport
import Testing

@testable import WebRemote

/// The idle page's Check camera over real sockets: a command (it makes the host connect to the camera), so it
/// needs the token; its answer carries the camera and what would block a shoot.
@Suite(.realTime(timeLimit: .seconds(60))) struct WebServerCameraCheckTests {
    private func check(server: WebServer, token: String?) async throws -> HTTPResponse {
        let client = try await RawClient(port: server.address.port)
        var headers = ["Content-Type: application/json"]
        if let token { headers.append("Authorization: Bearer \(token)") }
        try await client.send(
            request("POST", "/api/check-camera", port: server.address.port, headers: headers, body: "{}"))
        return try #require(try await client.response())
    }

    @Test func theCameraAndItsBlockersComeBackWithTheToken() async throws {
        try await withServer { server, shoot in
            shoot.cameraStatus.withLock {
                $0 = IdleCameraStatus(
                    camera: ShootUpdate.Camera(
                        model: "ILCE-7M3", address: "192.168.4.2", serialNumber: "", batteryPercent: 18,
                        remainingShots: 412),
                    blockers: ["The mode dial is on Intelligent Auto; set it to M or S."])
            }
            let response = try await check(server: server, token: server.configuration.token.text)
            #expect(response.status == 200)
            #expect(
                String(decoding: response.body, as: UTF8.self)
                    == #"{"ok":true,"blockers":["The mode dial is on Intelligent Auto; set it to M or S."],"#
                    + #""camera":{"address":"192.168.4.2","batteryPercent":18,"model":"ILCE-7M3","#
                    + #""remainingShots":412,"serialNumber":""}}"#)
        }
    }

    @Test func withoutTheTokenNothingConnects() async throws {
        try await withServer { server, shoot in
            shoot.cameraStatus.withLock {
                $0 = IdleCameraStatus(
                    camera: ShootUpdate.Camera(model: "ILCE-7M3", address: "a", serialNumber: ""), blockers: [])
            }
            let response = try await check(server: server, token: nil)
            #expect(response.status == 401)
        }
    }

    @Test func aCameraThatDoesNotAnswerIsA409WithItsSentence() async throws {
        try await withServer { server, _ in
            let response = try await check(server: server, token: server.configuration.token.text)
            #expect(response.status == 409)
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":false,"message":"No camera answered."}"#)
        }
    }
}
