import CameraRemoteAPI
import CameraSimulator
import Foundation
import HTTP
import PTPIP
import Posix
import Synchronization

/// A simulated Sony body speaking the legacy Camera Remote API: a real HTTP/1.1 server on loopback serving
/// the device description (`/dd.xml`), JSON-RPC at `/sony/camera`, and postview JPEGs with EXIF at
/// `/postview/...`.
///
/// Start it with `bind`, read `descriptionURL`, drive it with `run()` (until `close()` or cancellation),
/// and it behaves as `LegacySimulatorConfiguration` says, quirks included. It parses requests with the same
/// HTTP framer the client uses, so the two never hold two codecs.
package final class LegacyCameraSimulator: Sendable {
    private let listener: Socket
    /// The bound address (the kernel's port when bound to port 0).
    package let address: SocketAddress
    let camera: LegacyBody
    private let connections = Mutex<(open: [ObjectIdentifier: Socket], closed: Bool)>(([:], false))
    private let clock: any Clock<Duration>
    private let roundTripDelay: Duration
    private let captureLog: JSONLineWriter?
    private let ssdp: UDPSocket?

    /// The UDP port SSDP searches are answered on, when the body answers them.
    package var ssdpPort: UInt16? { ssdp?.localAddress.port }

    /// The SSDP search target the body answers (reference v2.10 p. 20).
    package static let scalarWebAPI = "urn:schemas-sony-com:service:ScalarWebAPI:1"

    /// The port the server listens on.
    package var port: UInt16 { address.port }

    /// The device description URL, as SSDP's LOCATION would give it.
    package var descriptionURL: String { "http://\(authority)/dd.xml" }

    private var authority: String { address.description }

    /// Binds to `host` and `port` (the configuration's unless given: a numeric address, port 0 lets the kernel
    /// choose); the body's time (exposures, delays, long polls) runs on `clock`. Throws `CameraRemoteAPIError`
    /// (the layer it serves), or `SimulatorError` when the capture log cannot be opened.
    package init(
        configuration: LegacySimulatorConfiguration = LegacySimulatorConfiguration(), host: String? = nil,
        port: UInt16? = nil, clock: any Clock<Duration> = ContinuousClock()
    ) throws {
        let host = host ?? configuration.host
        let port = port ?? configuration.port
        guard let requested = SocketAddress(numericHost: host, port: port) else {
            throw CameraRemoteAPIError.invalidURL("http://\(host):\(port)/")
        }
        let socket: Socket
        do {
            socket = try Socket(family: requested.family)
        } catch {
            throw error.remoteAPI(address: requested.description, during: "listen")
        }
        do {
            try socket.listen(on: requested, backlog: 16)
            address = try socket.localAddress() ?? requested
        } catch {
            socket.close()
            throw error.remoteAPI(address: requested.description, during: "listen")
        }
        listener = socket
        do {
            captureLog = try configuration.captureLogPath.map { path throws(SimulatorError) in
                try JSONLineWriter(path: path)
            }
        } catch {
            socket.close()
            throw error
        }
        do {
            ssdp = try configuration.ssdpPort.map { port in try UDPSocket.bind(host: host, port: port, clock: clock) }
        } catch {
            socket.close()
            throw error
        }
        self.clock = clock
        roundTripDelay = configuration.roundTripDelay
        camera = LegacyBody(
            configuration: configuration, clock: clock, postviewBase: "http://\(address.description)",
            captureLog: captureLog)
    }

    /// Every frame fired so far, in order.
    package var captures: [LegacyCaptureRecord] { get async { await camera.captures } }

    /// Writes out what the capture log still holds and closes it (after `run()` returned; call once).
    package func flushLogs() async {
        await captureLog?.close()
    }

    deinit { close() }

    /// Starts a simulator with `configuration`, runs `body` with it, then closes it and waits for its server to
    /// end (and its capture log to be written out): nothing is left running, whichever way `body` ends.
    package static func withRunning<T: Sendable>(
        configuration: LegacySimulatorConfiguration, clock: any Clock<Duration> = ContinuousClock(),
        _ body: (LegacyCameraSimulator) async throws -> T
    ) async throws -> T {
        let simulator = try LegacyCameraSimulator(configuration: configuration, clock: clock)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await simulator.run() }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(simulator))
            } catch {
                result = .failure(error)
            }
            simulator.close()
            try? await group.waitForAll()
            await simulator.flushLogs()
            return try result.get()
        }
    }

    /// How many getEvent long polls the body refused with 40402 because one was already waiting.
    package var refusedLongPolls: Int { get async { await camera.refusedLongPolls } }

    /// Every method called so far, in order.
    package var calls: [String] { get async { await camera.calls } }

    /// Accepts and serves connections until `close()` or cancellation; each connection is a child task.
    package func run() async {
        await withTaskGroup(of: Void.self) { group in
            if let ssdp { group.addTask { await self.answerSearches(on: ssdp) } }
            while let client = await accept() {
                group.addTask { await self.serve(client) }
            }
            group.cancelAll()
        }
    }

    /// Stops listening and closes every connection; `run()` then returns. Idempotent.
    package func close() {
        listener.close()
        ssdp?.close()
        let open = connections.withLock { state -> [Socket] in
            state.closed = true
            defer { state.open = [:] }
            return Array(state.open.values)
        }
        for socket in open { socket.close() }
    }

    /// Answers every M-SEARCH for ScalarWebAPI (or `ssdp:all`) with the description's LOCATION, until closed.
    private func answerSearches(on socket: UDPSocket) async {
        while let datagram = try? await socket.receive(timeout: nil) {
            let text = String(decoding: datagram.bytes, as: UTF8.self)
            guard text.hasPrefix("M-SEARCH * HTTP/1.1") else { continue }
            let target = text.split(separator: "\r\n").first { $0.uppercased().hasPrefix("ST:") }
                .map { $0.dropFirst(3).trimmingCharacters(in: .whitespaces) }
            guard let target, target == Self.scalarWebAPI || target == "ssdp:all" else { continue }
            let answer =
                "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\nLOCATION: \(descriptionURL)\r\n"
                + "SERVER: Linux/1 UPnP/1.0 SonyImagingDevice/1.0\r\nST: \(Self.scalarWebAPI)\r\n"
                + "USN: uuid:00000000-0000-0000-0000-000000000000::\(Self.scalarWebAPI)\r\n\r\n"
            try? await socket.send(Array(answer.utf8), to: datagram.sender)
        }
    }

    private func accept() async -> Socket? {
        while !Task.isCancelled {
            do {
                if let (client, _) = try listener.tryAccept() {
                    let admitted = connections.withLock { state -> Bool in
                        guard !state.closed else { return false }
                        state.open[ObjectIdentifier(client)] = client
                        return true
                    }
                    guard admitted else {
                        client.close()
                        return nil
                    }
                    return client
                }
                try await listener.wait(for: .readable)
            } catch {
                return nil
            }
        }
        return nil
    }

    private func serve(_ socket: Socket) async {
        defer {
            _ = connections.withLock { $0.open.removeValue(forKey: ObjectIdentifier(socket)) }
            socket.close()
        }
        var parser = HTTPRequestParser(limits: HTTPLimits(maximumBodyBytes: 64 * 1024))
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !Task.isCancelled {
            do {
                let count = try buffer.withUnsafeMutableBytes { try socket.tryRead(into: $0) }
                guard let count else {
                    try await socket.wait(for: .readable)
                    continue
                }
                if count == 0 { return }
                parser.append(buffer[0..<count])
                while let request = try parser.nextRequest() {
                    if roundTripDelay > .zero { try await clock.sleep(for: roundTripDelay) }
                    guard let response = await respond(to: request) else { return }
                    try await write(response.encoded(), to: socket)
                    if !response.keepsAlive { return }
                }
            } catch let error as HTTPError {
                // Malformed requests get a 400 and the connection ends, as servers do.
                let reply = HTTPResponse(
                    status: error.suggestedStatus, reason: "Bad Request", headers: HTTPHeaders(),
                    body: Array("\(error)".utf8),
                    keepsAlive: false)
                try? await write(reply.encoded(), to: socket)
                return
            } catch {
                return
            }
        }
    }

    private func write(_ bytes: [UInt8], to socket: Socket) async throws {
        var written = 0
        while written < bytes.count {
            if let count = try socket.tryWrite([bytes], skipping: written) {
                written += count
            } else {
                try await socket.wait(for: .writable)
            }
        }
    }

    /// The answer to one request; nil closes the connection without one (the drop quirk).
    private func respond(to request: HTTPRequest) async -> HTTPResponse? {
        let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.target
        switch (request.method, path) {
        case ("GET", "/dd.xml"):
            return ok(
                Array(LegacyDeviceDescription.xml(model: camera.configuration.model, authority: authority).utf8),
                type: "text/xml; charset=\"utf-8\"", keepsAlive: request.keepsAlive)
        case ("POST", "/sony/camera"):
            guard let call = try? JSONRPCRequest.decode(request.body) else {
                let failure = JSONRPCResponse(
                    id: 0, outcome: .failure(.init(code: .illegalRequest, message: "Illegal Request")))
                return ok(failure.encoded(), type: "application/json", keepsAlive: request.keepsAlive)
            }
            switch await camera.handle(call) {
            case let .answer(answer):
                return ok(answer.encoded(), type: "application/json", keepsAlive: request.keepsAlive)
            case .dropConnection:
                return nil
            }
        case ("GET", _) where path.hasPrefix("/postview/"):
            guard let image = await camera.image(at: path) else { return notFound(request) }
            return ok(image.bytes(in: 0..<image.size), type: "image/jpeg", keepsAlive: request.keepsAlive)
        default:
            return notFound(request)
        }
    }

    private func ok(_ body: [UInt8], type: String, keepsAlive: Bool) -> HTTPResponse {
        HTTPResponse(
            status: 200, reason: "OK", headers: HTTPHeaders([("Content-Type", type)]), body: body,
            keepsAlive: keepsAlive)
    }

    private func notFound(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(
            status: 404, reason: "Not Found", headers: HTTPHeaders(), body: [], keepsAlive: request.keepsAlive)
    }
}
