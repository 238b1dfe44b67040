import CameraRemoteAPI
import Glibc
import HTTP
import LegacyCameraSimulator
import Posix
import Testing

/// The legacy simulator's HTTP side as a server: paths, malformed requests, keep-alive, the description.
@Suite struct LegacyCameraSimulatorTests {
    /// Runs `body` with a simulator on 127.0.0.1 (port 0) and a bare HTTP client to it; stops both after.
    private func withServer(
        _ configuration: LegacySimulatorConfiguration = LegacySimulatorConfiguration(),
        _ body: @Sendable (LegacyCameraSimulator, HTTPClient) async throws -> Void
    ) async throws {
        let simulator = try LegacyCameraSimulator(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await simulator.run() }
            defer { simulator.close() }
            let client = try HTTPClient(host: "127.0.0.1", port: simulator.port)
            defer { client.close() }
            try await body(simulator, client)
        }
    }

    @Test func servesADescriptionWhoseCameraServiceIsOnItsOwnPort() async throws {
        try await withServer { simulator, client in
            let response = try await client.send(HTTPRequest(method: "GET", target: "/dd.xml"), timeout: .seconds(5))
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"]?.hasPrefix("text/xml") == true)
            let description = try DeviceDescription(xml: response.body)
            #expect(
                try description.cameraEndpoint()
                    == RemoteURL(host: "127.0.0.1", port: simulator.port, path: "/sony/camera"))
            #expect(description.actionListURLs.keys.sorted() == ["accessControl", "camera", "guide"])
        }
    }

    @Test func unknownPathsAndPostviewsNotTakenAre404() async throws {
        try await withServer { _, client in
            for target in ["/", "/sony/unknown", "/postview/pict1.JPG"] {
                let response = try await client.send(HTTPRequest(method: "GET", target: target), timeout: .seconds(5))
                #expect(response.status == 404, "\(target)")
            }
        }
    }

    @Test func aBodyThatIsNotJSONRPCIsAnIllegalRequest() async throws {
        try await withServer { _, client in
            let response = try await client.send(
                HTTPRequest(method: "POST", target: "/sony/camera", body: Array("{\"method\":1}".utf8)),
                timeout: .seconds(5))
            let answer = try JSONRPCResponse.decode(response.body, method: "?")
            #expect(answer.outcome == .failure(.init(code: .illegalRequest, message: "Illegal Request")))
        }
    }

    @Test func malformedHTTPGetsA400AndTheConnectionEnds() async throws {
        let simulator = try LegacyCameraSimulator()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await simulator.run() }
            defer { simulator.close() }
            let socket = try Socket(family: AF_INET)
            defer { socket.close() }
            try await socket.connect(to: simulator.address)
            let garbage = Array("GET /dd.xml HTTP/9.9\r\n\r\n".utf8)
            var written = 0
            while written < garbage.count { written += try socket.tryWrite([garbage], skipping: written) ?? 0 }
            var parser = HTTPResponseParser()
            var buffer = [UInt8](repeating: 0, count: 4096)
            var response: HTTPResponse?
            while response == nil {
                guard let count = try buffer.withUnsafeMutableBytes({ try socket.tryRead(into: $0) }) else {
                    try await socket.wait(for: .readable)
                    continue
                }
                if count == 0 {
                    response = try parser.finishAtEndOfStream()
                    break
                }
                parser.append(buffer[0..<count])
                response = try parser.nextResponse()
            }
            #expect(response?.status == 400)
            #expect(response?.keepsAlive == false)
        }
    }

    @Test func manyCallsShareOneKeptAliveConnection() async throws {
        var configuration = LegacySimulatorConfiguration()
        configuration.needsStartRecMode = false
        try await withServer(configuration) { simulator, client in
            for id in 1...20 {
                let call = JSONRPCRequest(method: "getShutterSpeed", id: id)
                let response = try await client.send(
                    HTTPRequest(method: "POST", target: "/sony/camera", body: call.encoded()), timeout: .seconds(5))
                #expect(try JSONRPCResponse.decode(response.body, method: "getShutterSpeed").id == id)
                #expect(response.keepsAlive)
            }
            #expect(await simulator.calls.count == 20)
        }
    }
}
