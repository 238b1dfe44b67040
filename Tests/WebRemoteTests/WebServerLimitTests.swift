import HTTP
import Posix
import TestSupport
import Testing

@testable import WebRemote

/// The server's bounds, over raw sockets on 127.0.0.1: sizes, shapes, slow heads, the connection cap, paths.
@Suite(.realTime(timeLimit: .seconds(60))) struct WebServerLimitTests {
    @Test func aHeadOver16KiBGets431() async throws {
        try await withServer { server, shoot in
            let client = try await RawClient(port: server.address.port)
            let padding = String(repeating: "a", count: 17 * 1024)
            try await client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(padding)\r\n\r\n")
            let response = try #require(try await client.response())
            #expect(response.status == 431)
            #expect(try await client.readUntilClosed().isEmpty)
        }
    }

    @Test func aBodyOver64KiBGets413BeforeItIsSent() async throws {
        try await withServer { server, shoot in
            let client = try await RawClient(port: server.address.port)
            try await client.send(
                "POST /api/shoot HTTP/1.1\r\nHost: 127.0.0.1:\(server.address.port)\r\nAuthorization: Bearer "
                    + "\(server.configuration.token.text)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 70000\r\n\r\n")
            let response = try #require(try await client.response())
            #expect(response.status == 413)
            #expect(shoot.commands.isEmpty)
        }
    }

    /// Malformed requests, each refused with 400 and nothing done.
    static let malformed: [String] = [
        "GET\r\n\r\n",
        "GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n",
        "GET / HTTP/1.1\nHost: 127.0.0.1\n\n",
        "GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n",
        "G(T / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    ]

    @Test(arguments: malformed)
    func aMalformedRequestGets400(text: String) async throws {
        try await withServer { server, shoot in
            let client = try await RawClient(port: server.address.port)
            try await client.send(text)
            let response = try #require(try await client.response())
            #expect(response.status == 400)
            #expect(shoot.commands.isEmpty)
        }
    }

    @Test func aHeaderValueThatIsNotUTF8Gets400() async throws {
        try await withServer { server, shoot in
            let client = try await RawClient(port: server.address.port)
            try await client.send(
                Array("POST /api/pause HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Name: ".utf8) + [0xC3, 0x28]
                    + Array("\r\nContent-Length: 0\r\n\r\n".utf8))
            #expect(try await client.response()?.status == 400)
            #expect(shoot.commands.isEmpty)
        }
    }

    @Test func aHeadTricklingPast15SecondsIsDroppedWhileOthersAreServed() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { server, _ in
            let slow = try await RawClient(port: server.address.port)
            try await slow.send("GET / HTTP/1.1\r\n")
            // Its head timeout is armed; one more byte a "second" does not restart it.
            await clock.waitForSleepers(1)
            for _ in 0..<14 {
                try await slow.send("X")
                clock.advance(by: .seconds(1))
            }
            let other = try await RawClient(port: server.address.port)
            try await other.send(request("GET", "/api/state", port: server.address.port))
            #expect(try await other.response()?.status == 200)
            clock.advance(by: .seconds(1))
            #expect(try await slow.readUntilClosed().isEmpty, "the slow head got an answer instead of a close")
        }
    }

    @Test func atTheConnectionCapANewClientIsStillServed() async throws {
        try await withServer(configure: { $0.maximumConnections = 4 }) { server, _ in
            var idle: [RawClient] = []
            for _ in 0..<4 {
                let client = try await RawClient(port: server.address.port)
                idle.append(client)
            }
            #expect(try await eventually { server.connectionCount == 4 })
            let fresh = try await RawClient(port: server.address.port)
            try await fresh.send(request("GET", "/api/state", port: server.address.port))
            #expect(try await fresh.response()?.status == 200)
            // The longest-waiting idle connection made room.
            #expect(try await idle[0].readUntilClosed().isEmpty)
            #expect(server.connectionCount <= 4)
        }
    }

    /// Paths that try to leave the shoot's folder: none reaches a file.
    static let escapes = [
        "/api/frames/../../../etc/passwd", "/api/frames/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd",
        "/api/frames/1/../2.jpg", "/api/frames/1/2.jpg/..", "/api/frames/-1/2.jpg", "/api/frames/1/0x2.jpg",
        "http://127.0.0.1/etc/passwd", "/etc/passwd", "/api/frames/1/99999.jpg"
    ]

    @Test(arguments: escapes)
    func pathsOutsideTheRoutesAreNotFound(target: String) async throws {
        try await withServer { server, _ in
            let client = try await RawClient(port: server.address.port)
            try await client.send(request("GET", target, port: server.address.port))
            let response = try #require(try await client.response())
            #expect(response.status == 404)
            #expect(!String(decoding: response.body, as: UTF8.self).contains("root:"))
        }
    }

    @Test func aThumbnailIsServedBySetAndFrameNumber() async throws {
        try await withServer { server, _ in
            let client = try await RawClient(port: server.address.port)
            try await client.send(request("GET", "/api/frames/1/2.jpg", port: server.address.port))
            let response = try #require(try await client.response())
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "image/jpeg")
            #expect(response.body == [0xFF, 0xD8, 0xFF, 0xD9])
        }
    }

    @Test func keepAliveCarriesSeveralRequestsOnOneConnection() async throws {
        try await withServer { server, _ in
            let client = try await RawClient(port: server.address.port)
            for _ in 0..<3 {
                try await client.send(request("GET", "/api/state", port: server.address.port))
                let response = try #require(try await client.response())
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self).contains(#""state":"idle""#))
            }
        }
    }
}
