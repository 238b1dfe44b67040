import HTTP
import Posix
import TestSupport
import Testing

@testable import WebRemote

/// Who may command the shoot, over real sockets: the token, Origin, Host and Content-Type rules, and nothing
/// changed by a refused request.
@Suite(.realTime(timeLimit: .seconds(60))) struct WebServerAccessTests {
    /// A command with the given headers; returns the status and what the shoot received.
    private func command(
        _ path: String = "/api/pause", body: String = "{}", host: String? = nil, headers: (String) -> [String]
    ) async throws -> (status: Int, commands: [RemoteCommand], response: HTTPResponse) {
        try await withServer { server, shoot in
            let client = try await RawClient(port: server.address.port)
            var text = request(
                "POST", path, port: server.address.port, headers: headers(server.configuration.token.text), body: body)
            if let host { text = text.replacingFirst("Host: 127.0.0.1:\(server.address.port)", with: host) }
            try await client.send(text)
            let response = try #require(try await client.response())
            return (response.status, shoot.commands, response)
        }
    }

    @Test func aCommandWithTheTokenIsCarriedOut() async throws {
        let result = try await command { ["Authorization: Bearer \($0)", "Content-Type: application/json"] }
        #expect(result.status == 200)
        #expect(result.commands == [.pause])
    }

    @Test func thePagesOwnOriginIsAccepted() async throws {
        try await withServer { server, shoot in
            let client = try await RawClient(port: server.address.port)
            let port = server.address.port
            try await client.send(
                request(
                    "POST", "/api/stop", port: port,
                    headers: [
                        "Authorization: Bearer \(server.configuration.token.text)", "Origin: http://127.0.0.1:\(port)",
                        "Content-Type: application/json"
                    ], body: "{}"))
            #expect(try await client.response()?.status == 200)
            #expect(shoot.commands == [.stop])
        }
    }

    @Test func noTokenOrAWrongOneIs401AndNothingHappens() async throws {
        for headers in [
            ["Content-Type: application/json"], ["Authorization: Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
            ["Authorization: Basic Zm9vOmJhcg=="]
        ] {
            let result = try await command { _ in headers }
            #expect(result.status == 401, "\(headers)")
            #expect(result.commands.isEmpty)
        }
    }

    /// Origins of other sites, other ports, and the opaque `null`.
    static let foreignOrigins = [
        "Origin: http://evil.example", "Origin: http://127.0.0.1:1", "Origin: null", "Origin: https://127.0.0.1"
    ]

    @Test(arguments: foreignOrigins)
    func anotherOriginIs403EvenWithTheToken(origin: String) async throws {
        let result = try await command { ["Authorization: Bearer \($0)", origin, "Content-Type: application/json"] }
        #expect(result.status == 403)
        #expect(result.commands.isEmpty)
    }

    @Test func aBodyThatIsNotJSONIs415() async throws {
        let result = try await command(body: "shadow=1/4") {
            ["Authorization: Bearer \($0)", "Content-Type: application/x-www-form-urlencoded"]
        }
        #expect(result.status == 415)
        #expect(result.commands.isEmpty)
    }

    @Test(arguments: ["Host: evil.example", "Host: evil.example:8080", "Host: 10.0.0.1"])
    func aForeignHostIsRefused(host: String) async throws {
        let result = try await command(host: host) { ["Authorization: Bearer \($0)"] }
        #expect(result.status == 421)
        #expect(result.commands.isEmpty)
    }

    @Test func localhostIsAcceptedOnLoopbackAndAMissingHostIsNot() async throws {
        try await withServer { server, _ in
            let client = try await RawClient(port: server.address.port)
            try await client.send("GET /api/state HTTP/1.1\r\nHost: localhost:\(server.address.port)\r\n\r\n")
            #expect(try await client.response()?.status == 200)
            try await client.send("GET /api/state HTTP/1.1\r\n\r\n")
            #expect(try await client.response()?.status == 400)
        }
    }

    @Test func theShootRequestBodyReachesTheController() async throws {
        let result = try await command(
            "/api/shoot", body: #"{"shadow": "1/4", "highlight": "1/1000", "frames": 5, "confirm": true}"#
        ) { ["Authorization: Bearer \($0)", "Content-Type: application/json"] }
        #expect(result.status == 200)
        #expect(result.commands == [.shoot(ShootForm(shadow: "1/4", highlight: "1/1000", frames: 5, confirm: true))])
    }

    @Test func noResponseCarriesAllowOrigin() async throws {
        try await withServer { server, _ in
            let port = server.address.port
            for target in ["/", "/api/state", "/api/frames/1/2.jpg", "/nothing"] {
                let client = try await RawClient(port: port)
                try await client.send(request("GET", target, port: port, headers: ["Origin: http://evil.example"]))
                let response = try #require(try await client.response())
                #expect(response.headers["Access-Control-Allow-Origin"] == nil, "\(target)")
            }
        }
    }

    @Test func thePageIsSelfContainedAndSmall() async throws {
        try await withServer { server, _ in
            let client = try await RawClient(port: server.address.port)
            try await client.send(request("GET", "/", port: server.address.port))
            let response = try #require(try await client.response())
            let page = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == 200)
            #expect(response.body.count <= 100_000)
            #expect(response.headers["Content-Security-Policy"]?.contains("default-src 'none'") == true)
            // Nothing from another origin: no absolute URL, no protocol-relative one.
            #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("src=\"//"))
            #expect(!page.contains(server.configuration.token.text))
        }
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
