import ByteCoding

@testable import PTPIP
@testable import PTPIPCodec

/// One side of a PTP/IP connection inside a test peer: whole packets in, packets out.
actor PeerConnection {
    /// The accepted TCP connection.
    let transport: TCPTransport
    private var framer = PacketFramer()

    /// Wraps an accepted connection.
    init(_ transport: TCPTransport) { self.transport = transport }

    /// The next whole packet, or nil at EOF between packets.
    func readPacket(timeout: Duration = .seconds(5)) async throws -> Packet? {
        // Actor state cannot be lent across a wait: the framer is taken out for the read and put back.
        var reading = framer
        framer = PacketFramer()
        defer { framer = reading }
        // The framer's default read size: a packet larger than one read is still buffered whole, and a 1 MiB
        // read window cost each fresh connection a 1 MiB zero-fill, about 0.25 s in a debug build.
        return try await reading.nextPacket(from: transport, timeout: timeout)
    }

    /// The next packet, which must be an Operation Request, with its data-out payload if it has one.
    func readRequest(timeout: Duration = .seconds(5)) async throws -> (OperationRequest, [UInt8]?)? {
        guard let packet = try await readPacket(timeout: timeout) else { return nil }
        guard case let .operationRequest(request) = packet else { throw PeerError.unexpected(packet) }
        guard request.dataPhase == .dataOut else { return (request, nil) }
        var payload: [UInt8] = []
        while let packet = try await readPacket(timeout: timeout) {
            switch packet {
            case .startData: continue
            case let .data(_, bytes): payload += bytes
            case let .endData(_, bytes): return (request, payload + bytes)
            default: throw PeerError.unexpected(packet)
            }
        }
        return nil
    }

    /// Sends `packets` in one write.
    func send(_ packets: [Packet]) async throws {
        var writer = ByteWriter()
        for packet in packets { packet.encode(into: &writer) }
        try await transport.send(writer.bytes, timeout: .seconds(5))
    }

    /// Reads raw bytes (bypassing the framer, which must be empty).
    func receiveRaw(upTo count: Int) async throws -> [UInt8] {
        try await transport.receive(upTo: count, timeout: .seconds(5))
    }

    /// Whether nothing more has arrived from the client: no buffered bytes and nothing waiting in the socket.
    func hasNothingPending() throws -> Bool {
        if framer.bufferedByteCount > 0 { return false }
        var probe = [UInt8](repeating: 0, count: 1 << 16)
        let count = try probe.withUnsafeMutableBytes { try transport.readAvailable(into: $0) }
        // End of stream is not a second request.
        guard let count, count > 0 else { return true }
        framer.append(Array(probe[..<count]))
        return false
    }

    /// Closes the connection.
    nonisolated func close() { transport.close() }
}

/// Something the test peer did not expect.
enum PeerError: Error {
    case unexpected(Packet)
    case closedEarly
}

/// An in-process PTP/IP responder on a loopback port, driven by a per-test script.
///
/// It accepts the command connection, answers the Init Command Request (or fails it), accepts the event
/// connection, answers the Init Event Request, then runs the script. `stop()` closes everything and waits
/// for the script; every test calls it (via `withPeer`).
final class TestPeer: Sendable {
    /// How the peer answers the two Init requests.
    enum Handshake: Sendable {
        case accept
        case failCommand(InitFailReason)
        case failEvent(InitFailReason)
    }

    /// The two connections handed to a script, and what the client sent during the handshake.
    struct Session: Sendable {
        let command: PeerConnection
        let event: PeerConnection
        let initCommand: InitCommandRequest
        let eventConnectionNumber: UInt32
    }

    static let connectionNumber: UInt32 = 7
    static let cameraGUID = PTPIPGUID(bytes: Array(0xA0...0xAF))!

    let listener: TCPListener
    private let task: Task<Void, any Error>

    /// The loopback port to connect to.
    var port: UInt16 { listener.port }

    private init(listener: TCPListener, task: Task<Void, any Error>) {
        self.listener = listener
        self.task = task
    }

    /// Starts listening on `host` port 0 and serving one client.
    static func start(
        host: String = "127.0.0.1", handshake: Handshake = .accept,
        script: @escaping @Sendable (Session) async throws -> Void
    ) throws -> TestPeer {
        let listener = try TCPListener.bind(host: host, port: 0)
        let task = Task {
            let command = PeerConnection(try await listener.accept(timeout: .seconds(10)))
            defer { command.close() }
            guard case let .initCommandRequest(request)? = try await command.readPacket() else {
                throw PeerError.closedEarly
            }
            if case let .failCommand(reason) = handshake {
                try await command.send([.initFail(reason: reason)])
                return
            }
            let ack = InitCommandAck(
                connectionNumber: connectionNumber, guid: cameraGUID, friendlyName: "TestCam",
                protocolVersion: 0x0001_0000)
            try await command.send([.initCommandAck(ack)])
            let event = PeerConnection(try await listener.accept(timeout: .seconds(10)))
            defer { event.close() }
            guard case let .initEventRequest(number)? = try await event.readPacket() else {
                throw PeerError.closedEarly
            }
            if case let .failEvent(reason) = handshake {
                try await event.send([.initFail(reason: reason)])
                return
            }
            try await event.send([.initEventAck])
            try await script(
                Session(command: command, event: event, initCommand: request, eventConnectionNumber: number))
        }
        return TestPeer(listener: listener, task: task)
    }

    /// Waits for the script to end by itself and returns its error, if any; then closes everything.
    func finish() async -> (any Error)? {
        let result = await task.result
        listener.close()
        if case let .failure(error) = result { return error }
        return nil
    }

    /// Stops the peer now: closes the listener, cancels the script and waits for it.
    func stop() async {
        listener.close()
        task.cancel()
        _ = await task.result
    }
}

/// Runs `body` against a fresh peer and stops the peer afterwards, whatever happens.
@discardableResult
func withPeer<Result>(
    host: String = "127.0.0.1", handshake: TestPeer.Handshake = .accept,
    script: @escaping @Sendable (TestPeer.Session) async throws -> Void,
    _ body: (TestPeer) async throws -> Result
) async throws -> Result {
    let peer = try TestPeer.start(host: host, handshake: handshake, script: script)
    do {
        let result = try await body(peer)
        await peer.stop()
        return result
    } catch {
        await peer.stop()
        throw error
    }
}

/// Yields until `condition` holds (the test's time limit ends a wait that never does).
func waitUntil(_ condition: () async -> Bool) async {
    while await !condition() { await Task.yield() }
}

/// A one-shot signal between a test and its peer script.
final class Signal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Void.self) }

    /// Fires the signal.
    func fire() {
        continuation.yield()
        continuation.finish()
    }

    /// Waits until the signal fires (or the waiting task is cancelled).
    func wait() async { for await _ in stream { return } }
}

extension PTPIPClient.Configuration {
    /// A configuration with a fixed identity and short timeouts for tests.
    ///
    /// The handshake's bound is generous: a parallel `swift test` on 2 cores delayed it past 5 s on the real
    /// clock; tests of the timeout itself run on a `TestClock`.
    static func testing(operationTimeout: Duration = .seconds(5)) -> Self {
        var configuration = Self(
            identity: HostIdentity(guid: PTPIPGUID(bytes: Array(0x10...0x1F))!, friendlyName: "hdrshoot-test"))
        configuration.connectTimeout = .seconds(30)
        configuration.operationTimeout = operationTimeout
        configuration.disconnectTimeout = .milliseconds(300)
        return configuration
    }
}
