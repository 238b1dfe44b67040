import TestSupport
import Testing

@testable import PTPIP
@testable import PTPIPCodec

/// The TCP transport and listener over real loopback sockets.
@Suite("TCP transport", .realTime)
struct TransportTests {
    /// Connects a client (its timeouts on `clock`) to a fresh listener and returns both ends.
    static func connectedPair(
        host: String = "127.0.0.1", clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> (TCPListener, TCPTransport, TCPTransport) {
        let listener = try TCPListener.bind(host: host, port: 0)
        async let accepted = listener.accept(timeout: .seconds(5))
        let client = try await TCPTransport.connect(host: host, port: listener.port, timeout: .seconds(5), clock: clock)
        return (listener, client, try await accepted)
    }

    /// Closes a pair and its listener (each close is idempotent, so a test may have closed one end already).
    static func close(_ listener: TCPListener, _ client: TCPTransport, _ server: TCPTransport) {
        listener.close()
        client.close()
        server.close()
    }

    /// Reads exactly `count` bytes.
    static func receiveExactly(_ count: Int, from transport: any Transport) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let chunk = try await transport.receive(upTo: count - bytes.count, timeout: .seconds(5))
            if chunk.isEmpty { break }
            bytes += chunk
        }
        return bytes
    }

    @Test func listenerOnPortZeroReportsTheChosenPort() throws {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        #expect(listener.port != 0)
        #expect(listener.localAddress.description == "127.0.0.1:\(listener.port)")
    }

    @Test func bytesFlowBothWaysAndEOFIsEmpty() async throws {
        let (listener, client, server) = try await Self.connectedPair()
        defer { Self.close(listener, client, server) }
        try await client.send([[1, 2, 3], [], [4, 5]], timeout: .seconds(1))
        #expect(try await Self.receiveExactly(5, from: server) == [1, 2, 3, 4, 5])
        try await server.send([9, 8, 7], timeout: .seconds(1))
        #expect(try await Self.receiveExactly(3, from: client) == [9, 8, 7])
        server.close()
        #expect(try await client.receive(upTo: 16, timeout: .seconds(1)) == [])
    }

    @Test func largeGatheredWriteArrivesIntactThroughBackpressure() async throws {
        let (listener, client, server) = try await Self.connectedPair()
        defer { Self.close(listener, client, server) }
        // 8 MiB is far more than the socket buffers, so the sender must wait for writability.
        let payload = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        async let sent: Void = client.send([[0xAA], payload, [0xBB]], timeout: .seconds(5))
        var received: [UInt8] = []
        for try await chunk in server.chunks(idleTimeout: .seconds(5)) {
            received += chunk
            if received.count == payload.count + 2 { break }
        }
        try await sent
        #expect(received.first == 0xAA && received.last == 0xBB)
        #expect(Array(received[1..<(received.count - 1)]) == payload)
    }

    @Test func receiveTimesOutWithTheAddressWhenTheClockPassesTheTimeout() async throws {
        let clock = TestClock()
        let (listener, client, server) = try await Self.connectedPair(clock: clock)
        defer { Self.close(listener, client, server) }
        let receiving = Task { try await client.receive(upTo: 16, timeout: .seconds(2)) }
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(2))])
        clock.advance(by: .seconds(2) - .milliseconds(1))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        await #expect(throws: PTPIPError.timedOut(address: "127.0.0.1:\(listener.port)", during: "receive")) {
            _ = try await receiving.value
        }
    }

    @Test func aTimeoutRunsFromWhenTheWaitStartsOnTheClock() async throws {
        let clock = TestClock()
        let (listener, client, server) = try await Self.connectedPair(clock: clock)
        defer { Self.close(listener, client, server) }
        let first = Task { try await client.receive(upTo: 16, timeout: .seconds(2)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(1500))
        try await server.send([1], timeout: .seconds(1))
        #expect(try await first.value == [1])
        // The next wait gets the whole 2 s from now (1.5 s), not what was left of the first.
        let second = Task { try await client.receive(upTo: 16, timeout: .seconds(2)) }
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .milliseconds(3500))])
        clock.advance(by: .seconds(2))
        await #expect(throws: PTPIPError.timedOut(address: "127.0.0.1:\(listener.port)", during: "receive")) {
            _ = try await second.value
        }
    }

    @Test func readAvailableReportsNothingThenBytesThenEOF() async throws {
        let (listener, client, server) = try await Self.connectedPair()
        defer { Self.close(listener, client, server) }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try buffer.withUnsafeMutableBytes { try client.readAvailable(into: $0) } == nil)
        try await server.send([1, 2, 3], timeout: .seconds(1))
        try await client.waitUntilReadable(timeout: .seconds(5))
        #expect(try buffer.withUnsafeMutableBytes { try client.readAvailable(into: $0) } == 3)
        #expect(buffer.prefix(3) == [1, 2, 3])
        server.close()
        try await client.waitUntilReadable(timeout: .seconds(5))
        #expect(try buffer.withUnsafeMutableBytes { try client.readAvailable(into: $0) } == 0)
    }

    @Test func waitUntilReadableTimesOutWithTheAddress() async throws {
        let clock = TestClock()
        let (listener, client, server) = try await Self.connectedPair(clock: clock)
        defer { Self.close(listener, client, server) }
        let waiting = Task { try await client.waitUntilReadable(timeout: .milliseconds(100)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(100))
        await #expect(throws: PTPIPError.timedOut(address: "127.0.0.1:\(listener.port)", during: "receive")) {
            try await waiting.value
        }
    }

    @Test func aFramerReadsPacketsStraightFromTheTransport() async throws {
        let (listener, client, server) = try await Self.connectedPair()
        defer { Self.close(listener, client, server) }
        let packets = PacketSamples.all
        try await server.send(packets.flatMap { $0.encoded() }, timeout: .seconds(5))
        server.close()
        var framer = PacketFramer()
        var received: [Packet] = []
        // Small reads, so packets straddle reads and the buffer is reused and compacted.
        while try await client.receive(into: &framer, maximumCount: 7, timeout: .seconds(5)) > 0 {
            while let packet = try framer.nextPacket() { received.append(packet) }
        }
        #expect(received == packets)
        #expect(framer.isAtPacketBoundary)
    }

    @Test func aFailedFramerRefusesToReadAndRethrowsItsError() async throws {
        let (listener, client, server) = try await Self.connectedPair()
        defer { Self.close(listener, client, server) }
        var framer = PacketFramer()
        framer.append([4, 0, 0, 0])
        #expect(throws: PTPIPCodecError.packetTooShort(declaredLength: 4)) { try framer.nextPacket() }
        #expect(throws: PTPIPError.malformed(.packetTooShort(declaredLength: 4))) {
            _ = try framer.read(from: client, maximumCount: 16)
        }
    }

    @Test func closeWakesAPendingReceiveAtOnce() async throws {
        let clock = TestClock()
        let (listener, client, server) = try await Self.connectedPair(clock: clock)
        defer {
            listener.close()
            server.close()
        }
        let waiting = Task { try await client.receive(upTo: 16, timeout: .seconds(30)) }
        await clock.waitForSleepers(1)
        client.close()
        // The close ends it, not its timeout: no virtual time passes.
        await #expect(throws: PTPIPError.cancelled(during: "receive (127.0.0.1:\(listener.port))")) {
            _ = try await waiting.value
        }
        #expect(clock.now.offset == .zero)
        #expect(clock.sleeperCount == 0)
        // The peer sees EOF.
        #expect(try await server.receive(upTo: 16, timeout: .seconds(2)) == [])
    }

    @Test func cancellationWakesAPendingReceive() async throws {
        let clock = TestClock()
        let (listener, client, server) = try await Self.connectedPair(clock: clock)
        defer { Self.close(listener, client, server) }
        let task = Task { try await client.receive(upTo: 16, timeout: .seconds(30)) }
        await clock.waitForSleepers(1)
        task.cancel()
        let result = await task.result
        #expect(throws: PTPIPError.cancelled(during: "receive (127.0.0.1:\(listener.port))")) { try result.get() }
        #expect(clock.now.offset == .zero)
        // The connection itself is still usable: only the wait was cancelled.
        try await server.send([7], timeout: .seconds(1))
        #expect(try await client.receive(upTo: 16, timeout: .seconds(5)) == [7])
    }

    @Test func closingTheListenerEndsAPendingAccept() async throws {
        let clock = TestClock()
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0, clock: clock)
        let accepting = Task { try await listener.accept(timeout: .seconds(30)) }
        await clock.waitForSleepers(1)
        listener.close()
        await #expect(throws: PTPIPError.cancelled(during: "accept (127.0.0.1:\(listener.port))")) {
            _ = try await accepting.value
        }
    }

    @Test func acceptTimesOutWhenTheClockPassesTheTimeout() async throws {
        let clock = TestClock()
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0, clock: clock)
        defer { listener.close() }
        let accepting = Task { try await listener.accept(timeout: .seconds(10)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        await #expect(throws: PTPIPError.timedOut(address: "127.0.0.1:\(listener.port)", during: "accept")) {
            _ = try await accepting.value
        }
    }

    @Test func aUDPReceiveGetsNothingWhenTheClockPassesTheTimeout() async throws {
        let clock = TestClock()
        let socket = try UDPSocket.bind(host: "127.0.0.1", clock: clock)
        defer { socket.close() }
        let receiving = Task { try await socket.receive(timeout: .seconds(3)) }
        await clock.waitForSleepers(1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(3))])
        clock.advance(by: .seconds(3))
        #expect(try await receiving.value == nil)
    }

    @Test func connectingToAClosedPortIsRefused() async throws {
        // Bound but not listening: refused, and no parallel test can be handed the port meanwhile (a closed
        // listener's port could be).
        let closedPort = try LoopbackSocket()
        defer { closedPort.close() }
        let port = closedPort.port
        await #expect(throws: PTPIPError.connectionRefused(address: "127.0.0.1:\(port)")) {
            _ = try await TCPTransport.connect(host: "127.0.0.1", port: port, timeout: .seconds(2))
        }
    }

    @Test(.enabled(if: TestHost.hasIPv6Loopback, "needs IPv6: ::1 cannot be bound here"))
    func ipv6LoopbackWorksWhenAvailable() async throws {
        let listener = try TCPListener.bind(host: "::1", port: 0)
        defer { listener.close() }
        async let accepted = listener.accept(timeout: .seconds(5))
        let client = try await TCPTransport.connect(host: "::1", port: listener.port, timeout: .seconds(5))
        let server = try await accepted
        defer {
            client.close()
            server.close()
        }
        #expect(client.peerDescription == "[::1]:\(listener.port)")
        try await client.send([42], timeout: .seconds(1))
        #expect(try await server.receive(upTo: 4, timeout: .seconds(1)) == [42])
    }

    @Test func hostNamesAreResolved() async throws {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        async let accepted = listener.accept(timeout: .seconds(5))
        let client = try await TCPTransport.connect(host: "localhost", port: listener.port, timeout: .seconds(5))
        let server = try await accepted
        defer {
            client.close()
            server.close()
        }
        #expect(client.peerAddress?.port == listener.port)
    }

    @Test func unknownHostNamesFailResolution() async throws {
        await #expect {
            _ = try await TCPTransport.connect(host: "no-such-host.invalid", port: 1, timeout: .seconds(5))
        } throws: { error in
            if case .nameResolutionFailed(host: "no-such-host.invalid", _)? = error as? PTPIPError { return true }
            return false
        }
    }
}
