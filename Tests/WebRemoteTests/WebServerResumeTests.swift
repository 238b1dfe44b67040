import Foundation
import HTTP
import Posix
import TestSupport
import Testing

@testable import WebRemote

/// Resuming an unfinished shoot from the page, over real sockets: what `GET /api/resumable` offers and what
/// `POST /api/shoot` with `{"resume": true}` hands to the shoot.
@Suite(.realTime(timeLimit: .seconds(60))) struct WebServerResumeTests {
    private func get(_ path: String, server: WebServer) async throws -> HTTPResponse {
        let client = try await RawClient(port: server.address.port)
        try await client.send(request("GET", path, port: server.address.port))
        return try #require(try await client.response())
    }

    @Test func theOfferIsReadWithoutATokenAndIsNullWhenThereIsNone() async throws {
        try await withServer { server, shoot in
            let none = try await get("/api/resumable", server: server)
            #expect(none.status == 200)
            #expect(String(decoding: none.body, as: UTF8.self) == #"{"shoot":null}"#)

            let offer = ResumableShoot(id: "20261126-190000-ab12", folder: "hdr-20261126-190000", saved: 7, total: 15)
            shoot.offer.withLock { $0 = offer }
            let some = try await get("/api/resumable", server: server)
            #expect(some.status == 200)
            #expect(some.headers.fields.contains { $0.name == "Content-Type" && $0.value == "application/json" })
            struct Answer: Decodable { var shoot: ResumableShoot? }
            #expect(try JSONDecoder().decode(Answer.self, from: Data(some.body)).shoot == offer)
        }
    }

    @Test func resumeWithAnIdReachesTheShootAsItsForm() async throws {
        try await withServer { server, shoot in
            let client = try await RawClient(port: server.address.port)
            try await client.send(
                request(
                    "POST", "/api/shoot", port: server.address.port,
                    headers: [
                        "Authorization: Bearer \(server.configuration.token.text)", "Content-Type: application/json"
                    ],
                    body: #"{"resume": true, "id": "20261126-190000-ab12"}"#))
            #expect(try await client.response()?.status == 200)
            #expect(shoot.commands == [.shoot(ShootForm(resume: true, id: "20261126-190000-ab12"))])
        }
    }

    @Test func aRefusedResumeSaysWhyWith409() async throws {
        try await withServer { server, shoot in
            shoot.refusal.withLock { $0 = RemoteCommandRefusal("No unfinished shoot in this folder to resume.") }
            let client = try await RawClient(port: server.address.port)
            try await client.send(
                request(
                    "POST", "/api/shoot", port: server.address.port,
                    headers: [
                        "Authorization: Bearer \(server.configuration.token.text)", "Content-Type: application/json"
                    ],
                    body: #"{"resume": true}"#))
            let response = try #require(try await client.response())
            #expect(response.status == 409)
            #expect(
                String(decoding: response.body, as: UTF8.self)
                    == #"{"ok":false,"message":"No unfinished shoot in this folder to resume."}"#)
            #expect(shoot.commands.isEmpty)
        }
    }

    @Test func theLinksHealthIsReadWithoutATokenAndIsNullWithoutALog() async throws {
        try await withServer { server, shoot in
            let none = try await get("/api/link", server: server)
            #expect(none.status == 200)
            #expect(String(decoding: none.body, as: UTF8.self) == #"{"link":null}"#)
            shoot.health.withLock {
                $0 = LinkHealth(lastRoundTripMilliseconds: 3.5, reconnects: 2, lines: ["4.0 s runner reconnected"])
            }
            let some = try await get("/api/link", server: server)
            #expect(
                String(decoding: some.body, as: UTF8.self)
                    == #"{"link":{"lastRoundTripMilliseconds":3.5,"lines":["4.0 s runner reconnected"],"reconnects":2}}"#
            )
        }
    }
}
