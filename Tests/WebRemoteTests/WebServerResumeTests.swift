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
                $0 = LinkHealth(
                    lastOperation: "GetObject", lastOperationMilliseconds: 3.5, reconnects: 2,
                    lines: ["4.0 s runner reconnected"], notes: ["Network watch: ..."])
            }
            let some = try await get("/api/link", server: server)
            #expect(
                String(decoding: some.body, as: UTF8.self)
                    == #"{"link":{"lastOperation":"GetObject","lastOperationMilliseconds":3.5,"lines":["4.0 s runner reconnected"],"notes":["Network watch: ..."],"reconnects":2}}"#
            )
        }
    }

    @Test func aFramesLumaIsServedAsTheShootMeasuredItByNumberOnly() async throws {
        try await withServer { server, shoot in
            #expect(try await get("/api/frames/1/2.json", server: server).status == 404)
            let histogram = (0..<64).map { $0 == 63 ? 5 : 1 }
            shoot.luma.withLock {
                $0 = FrameLuminanceReading(
                    histogram: histogram, clippedPercent: 0.0123, blockedPercent: 8.25, highlightLevel: 235,
                    shadowLevel: 50)
            }
            let answer = try await get("/api/frames/1/2.json", server: server)
            #expect(answer.status == 200)
            #expect(answer.headers["Content-Type"] == "application/json")
            let decoded = try JSONDecoder().decode(FrameLuminanceReading.self, from: Data(answer.body))
            #expect(
                decoded.histogram == histogram && decoded.clippedPercent == 0.0123 && decoded.blockedPercent == 8.25)
            #expect(decoded.highlightLevel == 235 && decoded.shadowLevel == 50)
            for target in [
                "/api/frames/1/3.json", "/api/frames/1/2.jsonx", "/api/frames/1/..json", "/api/frames/1/2.js"
            ] {
                #expect(try await get(target, server: server).status == 404, "\(target)")
            }
        }
    }
}
