import HTTP
import Posix
import Synchronization
import Timing

/// The phone remote's HTTP/1.1 server: the page, the state, Server-Sent Events, the commands and the
/// thumbnails, over Posix sockets and the one HTTP codec.
///
/// Every request is bounded: its head in size (431), its body in size (413), its shape (400), and the time its
/// head may take to arrive (15 s from the connection's start, however slowly it trickles: the connection is
/// dropped). Connections are capped, and at the cap a new client is still served: the connection that has
/// waited longest for a request (an idle keep-alive or a slow trickle) is closed to make room, and failing that
/// the oldest event stream. The shoot never waits on a page: states go through `EventHub`'s one-slot mailboxes.
package final class WebServer: Sendable {
    /// How the server listens and what it accepts.
    package struct Configuration: Sendable {
        /// The address to listen on (port 0: any free port; `address` says which).
        package var address: SocketAddress
        /// The interface the address was named by (`--listen wlan0:8080`), accepted in `Host` too.
        package var interfaceName: String?
        /// The commands' secret.
        package var token: RemoteToken
        /// Whether the camera is the simulator (the page shows it in another colour).
        package var simulated = false
        /// How long a request's head may take to arrive, from the connection's start (or the previous answer).
        package var headTimeout: Duration = .seconds(15)
        /// How long one answer may take to leave (a client that stops reading is dropped).
        package var writeTimeout: Duration = .seconds(15)
        /// The longest silence on an event stream before a comment keeps it alive.
        package var keepAliveInterval: Duration = .seconds(15)
        /// Open connections at most; a new one past this closes the longest-waiting one.
        package var maximumConnections = 32
        /// Head 16 KiB, body 64 KiB.
        package var limits = HTTPLimits(
            maximumHeadBytes: 16 * 1024, maximumHeaderCount: 100, maximumBodyBytes: 64 * 1024)

        /// A configuration with the defaults of issue 34.
        package init(address: SocketAddress, interfaceName: String? = nil, token: RemoteToken) {
            self.address = address
            self.interfaceName = interfaceName
            self.token = token
        }
    }

    /// What a connection is doing, for choosing which one to close at the cap.
    private enum Phase {
        /// Waiting for (or reading) a request: idle keep-alives and slow trickles.
        case awaitingRequest
        /// Answering.
        case answering
        /// An event stream.
        case streaming
    }

    private struct Connection {
        var socket: Socket
        var phase: Phase
        /// Admission order (smaller: older).
        var order: Int
    }

    private struct Registry {
        var connections: [Int: Connection] = [:]
        var nextID = 0
        var stopped = false
    }

    /// The address the server listens on (with the port the kernel chose for port 0).
    package let address: SocketAddress
    /// The configuration.
    package let configuration: Configuration
    /// Where the shoot's states fan out.
    package let hub = EventHub()
    private let listener: Socket
    let shoot: any RemoteShoot
    private let clock: any Clock<Duration>
    let gate: RequestGate
    private let registry = Mutex(Registry())

    /// Binds and listens at once (so the URL can be printed before `run`); throws when the address is taken.
    package init(
        configuration: Configuration, shoot: any RemoteShoot, clock: any Clock<Duration> = ContinuousClock()
    ) throws(SocketFailure) {
        let listener = try Socket(family: configuration.address.family)
        do {
            try listener.listen(on: configuration.address, backlog: 64)
            address = try listener.localAddress() ?? configuration.address
        } catch {
            listener.close()
            throw error
        }
        self.listener = listener
        self.configuration = configuration
        self.shoot = shoot
        self.clock = clock
        let isLoopback = address.host == "::1" || address.host.hasPrefix("127.")
        gate = RequestGate(
            host: address.host, port: address.port, interfaceName: configuration.interfaceName,
            isLoopback: isLoopback, token: configuration.token)
    }

    /// The URL to open on the phone: the page, with the token in the fragment.
    package var url: String { "http://\(address)/#token=\(configuration.token.text)" }

    /// How many connections are open now.
    package var connectionCount: Int { registry.withLock { $0.connections.count } }

    /// Serves until cancelled; then every connection is closed and the listener with them.
    package func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followStates() }
            while !Task.isCancelled {
                do {
                    guard let (socket, _) = try listener.tryAccept() else {
                        try await listener.wait(for: .readable)
                        continue
                    }
                    guard let id = admit(socket) else {
                        socket.close()
                        break
                    }
                    group.addTask { await self.serve(socket, id: id) }
                } catch {
                    break
                }
            }
            stopAll()
            group.cancelAll()
        }
    }

    /// Publishes every state the shoot gives.
    private func followStates() async {
        for await state in await shoot.states() { hub.publish(state) }
    }

    // MARK: - Connections

    /// Registers a new connection, closing the longest-waiting one when at the cap; nil once stopped.
    private func admit(_ socket: Socket) -> Int? {
        let (id, victim) = registry.withLock { registry -> (Int?, Socket?) in
            guard !registry.stopped else { return (nil, nil) }
            var victim: Socket?
            if registry.connections.count >= configuration.maximumConnections {
                let byAge = registry.connections.sorted { $0.value.order < $1.value.order }
                let chosen =
                    byAge.first { $0.value.phase == .awaitingRequest } ?? byAge.first { $0.value.phase == .streaming }
                    ?? byAge.first
                if let chosen {
                    victim = chosen.value.socket
                    registry.connections.removeValue(forKey: chosen.key)
                }
            }
            let id = registry.nextID
            registry.nextID += 1
            registry.connections[id] = Connection(socket: socket, phase: .awaitingRequest, order: id)
            return (id, victim)
        }
        victim?.close()
        return id
    }

    private func setPhase(_ phase: Phase, of id: Int) {
        registry.withLock { $0.connections[id]?.phase = phase }
    }

    private func stopAll() {
        let sockets = registry.withLock { registry in
            registry.stopped = true
            return registry.connections.values.map(\.socket)
        }
        for socket in sockets { socket.close() }
        listener.close()
    }

    /// Answers requests on one connection until it closes, misbehaves, idles past the head timeout, or the
    /// server stops.
    private func serve(_ socket: Socket, id: Int) async {
        defer {
            _ = registry.withLock { $0.connections.removeValue(forKey: id) }
            socket.close()
        }
        var parser = HTTPRequestParser(limits: configuration.limits)
        while !Task.isCancelled {
            setPhase(.awaitingRequest, of: id)
            let request: HTTPRequest
            do {
                let (next, rest) = try await withTimeout(
                    after: configuration.headTimeout, on: clock, throwing: SocketFailure.timedOut
                ) { [parser] in
                    var parser = parser
                    let request = try await Self.readRequest(from: socket, parser: &parser)
                    return (request, parser)
                }
                guard let next else { return }
                request = next
                parser = rest
            } catch let error as HTTPError {
                let response = WebResponse.text(
                    status: error.suggestedStatus, "The request was refused: \(error).", keepsAlive: false)
                try? await write(response.encoded(), to: socket)
                return
            } catch {
                return // the head timed out, the peer reset, or the server stops
            }
            setPhase(.answering, of: id)
            switch await answer(request) {
            case let .response(response):
                do {
                    try await write(response.encoded(), to: socket)
                } catch {
                    return
                }
                if !response.keepsAlive { return }
            case .events:
                setPhase(.streaming, of: id)
                await stream(to: socket)
                return
            }
        }
    }

    /// Reads until one whole request is parsed; nil when the peer closed first.
    private static func readRequest(from socket: Socket, parser: inout HTTPRequestParser) async throws -> HTTPRequest? {
        if let request = try parser.nextRequest() { return request }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try socket.tryRead(into: $0) }
            guard let count else {
                try await socket.wait(for: .readable)
                continue
            }
            if count == 0 {
                try parser.finishAtEndOfStream()
                return nil
            }
            parser.append(buffer[0..<count])
            if let request = try parser.nextRequest() { return request }
        }
    }

    /// Writes all of `bytes` within the write timeout.
    private func write(_ bytes: [UInt8], to socket: Socket) async throws {
        try await withTimeout(after: configuration.writeTimeout, on: clock, throwing: SocketFailure.timedOut) {
            var written = 0
            while written < bytes.count {
                if let count = try socket.tryWrite([bytes], skipping: written) {
                    written += count
                } else {
                    try await socket.wait(for: .writable)
                }
            }
        }
    }

    // MARK: - Event streams

    /// Sends the latest state at once, then every new one (the latest when several came while the page was
    /// slow), with a comment after each silence of the keep-alive interval; ends when the page goes away.
    private func stream(to socket: Socket) async {
        let head = Array(
            ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-store\r\n"
                + "X-Content-Type-Options: nosniff\r\nConnection: keep-alive\r\n\r\nretry: 2000\n\n").utf8)
        guard (try? await write(head, to: socket)) != nil else { return }
        let mailbox = hub.subscribe()
        defer { hub.unsubscribe(mailbox) }
        let (clock, interval) = (clock, configuration.keepAliveInterval)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while (try? await clock.sleep(for: interval)) != nil { mailbox.keepAliveDue() }
            }
            while let item = await mailbox.next() {
                let bytes: [UInt8]
                switch item {
                case let .event(event): bytes = event.encoded
                case .keepAlive: bytes = Array(": keep-alive\n\n".utf8)
                }
                guard (try? await write(bytes, to: socket)) != nil else { break }
            }
            group.cancelAll()
        }
    }
}
