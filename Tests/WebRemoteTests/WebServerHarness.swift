import Glibc
import HTTP
import Posix
import ShootKit
import Synchronization
import TestSupport
import Testing

@testable import WebRemote

/// A shoot the server tests drive: it records the commands it gets and publishes the states a test gives it.
/// Only the server is under test here; the real controller is the one `hdrshoot serve` drives.
final class RecordingShoot: RemoteShoot {
    private let recorded = Mutex<[RemoteCommand]>([])
    private let stream: AsyncStream<[UInt8]>
    private let sink: AsyncStream<[UInt8]>.Continuation
    /// The refusal every command gets (nil: accepted).
    let refusal = Mutex<RemoteCommandRefusal?>(nil)

    init(initialState: String = #"{"event":"snapshot","schema":1,"state":"idle"}"#) {
        (stream, sink) = AsyncStream.makeStream(of: [UInt8].self)
        sink.yield(Array(initialState.utf8))
    }

    var commands: [RemoteCommand] { recorded.withLock { $0 } }

    /// Publishes a state.
    func publish(_ json: String) { sink.yield(Array(json.utf8)) }

    func states() async -> AsyncStream<[UInt8]> { stream }

    func perform(_ command: RemoteCommand) async throws(RemoteCommandRefusal) {
        if let refusal = refusal.withLock({ $0 }) { throw refusal }
        recorded.withLock { $0.append(command) }
    }

    func thumbnail(set: Int, frame: Int) async -> [UInt8]? {
        set == 1 && frame == 2 ? [0xFF, 0xD8, 0xFF, 0xD9] : nil
    }

    /// What `GET /api/frames/1/2.json` answers (other frames: none).
    let luma = Mutex<FrameLuminanceReading?>(nil)

    func luminance(set: Int, frame: Int) async -> FrameLuminanceReading? {
        set == 1 && frame == 2 ? luma.withLock { $0 } : nil
    }

    /// What `GET /api/resumable` offers.
    let offer = Mutex<ResumableShoot?>(nil)

    func resumable() async -> ResumableShoot? { offer.withLock { $0 } }

    /// What `GET /api/link` answers.
    let health = Mutex<LinkHealth?>(nil)

    func link() async -> LinkHealth? { health.withLock { $0 } }

    /// What `POST /api/check-camera` answers (nil: a refusal).
    let cameraStatus = Mutex<IdleCameraStatus?>(nil)

    func checkCamera() async throws(RemoteCommandRefusal) -> IdleCameraStatus {
        guard let status = cameraStatus.withLock({ $0 }) else { throw RemoteCommandRefusal("No camera answered.") }
        return status
    }
}

/// A server on 127.0.0.1 (a free port) for the length of `body`; stopped and awaited before returning.
func withServer<T: Sendable>(
    token: RemoteToken = RemoteToken("abcdefghijklmnopqrstuvwxyz012345")!,
    clock: any Clock<Duration> = ContinuousClock(),
    configure: (inout WebServer.Configuration) -> Void = { _ in },
    _ body: (WebServer, RecordingShoot) async throws -> T
) async throws -> T {
    var configuration = WebServer.Configuration(
        address: SocketAddress(numericHost: "127.0.0.1", port: 0)!, token: token)
    configure(&configuration)
    let shoot = RecordingShoot()
    let server = try WebServer(configuration: configuration, shoot: shoot, clock: clock)
    let running = Task { await server.run() }
    defer { running.cancel() }
    // The first state is there before the test's first request.
    _ = try await eventually { server.hub.latest != nil }
    do {
        let result = try await body(server, shoot)
        running.cancel()
        await running.value
        return result
    } catch {
        running.cancel()
        await running.value
        throw error
    }
}

/// A raw TCP client for the server tests: sends exactly the bytes given, reads what comes back.
final class RawClient: Sendable {
    let socket: Socket

    init(port: UInt16) async throws {
        socket = try Socket(family: AF_INET)
        try await socket.connect(to: SocketAddress(numericHost: "127.0.0.1", port: port)!)
    }

    deinit { socket.close() }

    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) async throws {
        var written = 0
        while written < bytes.count {
            if let count = try socket.tryWrite([bytes], skipping: written) {
                written += count
            } else {
                try await socket.wait(for: .writable)
            }
        }
    }

    /// Whatever arrives next (at least one byte), or [] at EOF.
    func receiveSome() async throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try socket.tryRead(into: $0) }
            guard let count else {
                try await socket.wait(for: .readable)
                continue
            }
            return Array(buffer[0..<count])
        }
    }

    /// One whole response (or nil if the server closed without one).
    func response(expectNoBody: Bool = false) async throws -> HTTPResponse? {
        var parser = HTTPResponseParser(limits: HTTPLimits(maximumBodyBytes: 1 << 20))
        if expectNoBody { parser.expectNoBody() }
        while true {
            let bytes = try await receiveSome()
            if bytes.isEmpty { return try parser.finishAtEndOfStream() }
            parser.append(bytes)
            if let response = try parser.nextResponse() { return response }
        }
    }

    /// Reads until the server closes the connection; returns everything that came.
    func readUntilClosed() async throws -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let bytes = try await receiveSome()
            if bytes.isEmpty { return all }
            all += bytes
        }
    }

    /// Reads until `marker` has arrived; returns everything so far.
    func read(until marker: String, into all: inout [UInt8]) async throws {
        let wanted = Array(marker.utf8)
        while all.firstRange(of: wanted) == nil {
            let bytes = try await receiveSome()
            if bytes.isEmpty { throw RawClientError.closedEarly(String(decoding: all, as: UTF8.self)) }
            all += bytes
        }
    }
}

enum RawClientError: Error {
    case closedEarly(String)
}

/// A request's bytes with the Host the test server answers for.
func request(
    _ method: String, _ target: String, port: UInt16, headers: [String] = [], body: String = ""
) -> String {
    var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    for header in headers { head += header + "\r\n" }
    if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
    return head + "\r\n" + body
}
