import CameraRemoteAPI
import Foundation
import HTTP
import TestSupport
import Testing

/// `hdrshoot serve` (the built binary) as a test reaches it: started with `arguments` in a sandbox's environment on
/// scaled time, its `Remote: http://127.0.0.1:PORT/#token=TOKEN` line read, and an HTTP client that sends the token
/// with every POST.
struct ServedRemote {
    /// The client, connected to serve's port.
    let client: HTTPClient
    /// The token from serve's line.
    let token: String

    /// Sends `method target` (with `body` as JSON and the token on a POST); returns serve's answer.
    func send(_ method: String, _ target: String, body: String = "") async throws -> HTTPResponse {
        var headers: [(name: String, value: String)] = []
        if method == "POST" {
            headers = [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")]
        }
        return try await client.send(
            HTTPRequest(method: method, target: target, headers: HTTPHeaders(headers), body: Array(body.utf8)),
            limits: HTTPLimits(maximumBodyBytes: 4 << 20), timeout: .seconds(30))
    }

    /// Runs `serve` with `arguments` (after `serve` itself) and `environment`, and `body` with the remote and the
    /// process once it listens; the process is ended when `body` returns.
    static func with<T>(
        _ arguments: [String], environment: [String: String],
        _ body: (ServedRemote, BackgroundProcess) async throws -> T
    ) async throws -> T {
        try await BackgroundProcess.with(
            try ProcessRunner.hdrshootBinary(), arguments: ["serve"] + arguments,
            environment: environment.merging(ScaledTime.environment) { $1 }
        ) { serve in
            let line = try await serve.waitForLine { $0.hasPrefix("Remote: http://127.0.0.1:") }
            let address = try #require(line.split(separator: "/").dropFirst().first)
            let port = try #require(address.split(separator: ":").last.flatMap { UInt16($0) })
            let token = try #require(line.components(separatedBy: "#token=").last)
            let client = try HTTPClient(host: "127.0.0.1", port: port)
            defer { client.close() }
            return try await body(ServedRemote(client: client, token: token), serve)
        }
    }
}
