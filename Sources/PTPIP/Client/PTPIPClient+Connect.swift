import PTPIPCodec
import Posix
import Timing

/// Opens one byte stream to the camera; called twice per session (command, then event connection).
package typealias TransportConnector = @Sendable (_ timeout: Duration) async throws -> any Transport

extension PTPIPClient {
    /// PTP/IP's registered TCP port (CIPA DC-005 §2.2).
    package static let defaultPort: UInt16 = 15740

    /// Connects over TCP to `host` (IPv4/IPv6 literal or name) and performs both Init handshakes; every
    /// timeout of the client and its connections is measured on `clock`.
    package static func connect(
        host: String, port: UInt16 = defaultPort, configuration: Configuration,
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> PTPIPClient {
        let address = SocketAddress(numericHost: host, port: port)?.description ?? "\(host):\(port)"
        return try await connect(address: address, configuration: configuration, clock: clock) { timeout in
            try await TCPTransport.connect(host: host, port: port, timeout: timeout, clock: clock)
        }
    }

    /// Performs both Init handshakes over streams from `connector` (a seam for other transports).
    ///
    /// Command connection: Init Command Request (our GUID and name) → Init Command Ack (the camera's
    /// connection number). Event connection: Init Event Request (that number) → Init Event Ack.
    /// Init Fail on either becomes `.initFailed(reason:)`; anything else unexpected `.protocolViolation`.
    /// The client's own timeouts (`disconnect`'s bound) run on `clock`; the streams measure theirs.
    package static func connect(
        address: String, configuration: Configuration, clock: any Clock<Duration> = ContinuousClock(),
        connector: TransportConnector
    ) async throws -> PTPIPClient {
        guard let observer = configuration.observer else {
            return try await handshake(
                address: address, configuration: configuration, clock: clock, connector: connector)
        }
        let stopwatch = Stopwatch(clock: clock)
        do {
            let client = try await handshake(
                address: address, configuration: configuration, clock: clock, connector: connector)
            observer.observeConnect(address: address, duration: stopwatch.elapsed, error: nil)
            return client
        } catch {
            observer.observeConnect(address: address, duration: stopwatch.elapsed, error: error)
            throw error
        }
    }

    /// Both Init handshakes (see `connect(address:configuration:clock:connector:)`).
    private static func handshake(
        address: String, configuration: Configuration, clock: any Clock<Duration>, connector: TransportConnector
    ) async throws -> PTPIPClient {
        let command = try await connector(configuration.connectTimeout)
        do {
            var commandFramer = PacketFramer(maximumPacketLength: configuration.maximumPacketLength)
            let request = InitCommandRequest(
                guid: configuration.identity.guid, friendlyName: configuration.identity.friendlyName)
            try await command.send(Packet.initCommandRequest(request).encoded(), timeout: configuration.connectTimeout)
            let ack: InitCommandAck
            switch try await readInitCommandAnswer(
                from: command, framer: &commandFramer, configuration: configuration, clock: clock)
            {
            case let .initCommandAck(received): ack = received
            case let .initFail(reason): throw PTPIPError.initFailed(reason: reason)
            case let other:
                throw PTPIPError.protocolViolation(expected: "Init Command Ack", received: other.type.description)
            }

            let event = try await connector(configuration.connectTimeout)
            do {
                var eventFramer = PacketFramer(maximumPacketLength: configuration.maximumPacketLength)
                try await event.send(
                    Packet.initEventRequest(connectionNumber: ack.connectionNumber).encoded(),
                    timeout: configuration.connectTimeout)
                switch try await readHandshakePacket(
                    from: event, framer: &eventFramer, timeout: configuration.connectTimeout, during: "Init Event")
                {
                case .initEventAck: break
                case let .initFail(reason): throw PTPIPError.initFailed(reason: reason)
                case let other:
                    throw PTPIPError.protocolViolation(expected: "Init Event Ack", received: other.type.description)
                }
                return PTPIPClient(
                    camera: ack, address: address, configuration: configuration, clock: clock,
                    command: command, commandFramer: commandFramer, event: event, eventFramer: eventFramer)
            } catch {
                event.close()
                throw error
            }
        } catch {
            command.close()
            throw error
        }
    }

    /// Reads the answer to Init Command Request: within `connectTimeout`, or, when the configuration listens
    /// for a pairing wait, within `pairingHint`, then (after telling `onAwaitingPairing`) within `pairingWait`,
    /// which ends as `.timedOut(during: PTPIPError.pairingApproval)`. While the photographer is waited for,
    /// `onPairingCountdown` hears the time left every `pairingTick` on `clock`.
    private static func readInitCommandAnswer(
        from transport: any Transport, framer: inout PacketFramer, configuration: Configuration,
        clock: any Clock<Duration>
    ) async throws -> Packet {
        guard let awaitingPairing = configuration.onAwaitingPairing,
            configuration.pairingHint < configuration.connectTimeout
        else {
            return try await readHandshakePacket(
                from: transport, framer: &framer, timeout: configuration.connectTimeout, during: "Init Command")
        }
        do {
            return try await readHandshakePacket(
                from: transport, framer: &framer, timeout: configuration.pairingHint, during: "Init Command")
        } catch let error as PTPIPError {
            guard case .timedOut = error else { throw error }
        }
        awaitingPairing(configuration.identity.friendlyName, configuration.pairingWait)
        do {
            let (packet, framed) = try await withCountdown(configuration: configuration, clock: clock) {
                [framer] in
                var framer = framer
                let packet = try await readHandshakePacket(
                    from: transport, framer: &framer, timeout: configuration.pairingWait, during: "Init Command")
                return (packet, framer)
            }
            framer = framed
            return packet
        } catch let PTPIPError.timedOut(address, _) {
            throw PTPIPError.timedOut(address: address, during: PTPIPError.pairingApproval)
        }
    }

    /// Runs `read` while telling `onPairingCountdown` the time left of `pairingWait` every `pairingTick`; the
    /// countdown ends with `read`, however it ends.
    private static func withCountdown<T: Sendable>(
        configuration: Configuration, clock: any Clock<Duration>, _ read: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard let tell = configuration.onPairingCountdown, configuration.pairingTick > .zero else {
            return try await read()
        }
        let (wait, tick) = (configuration.pairingWait, configuration.pairingTick)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await read() }
            group.addTask {
                try await countDown(wait, every: tick, on: clock, tell: tell)
                return nil
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw CancellationError()
        }
    }

    /// Tells `tell` the time left of `wait` every `tick`, each at its own deadline from the start (not a sleep
    /// after the last line), so late wake-ups on a loaded host do not add up and push the last lines past the
    /// end of the wait.
    private static func countDown<C: Clock<Duration>>(
        _ wait: Duration, every tick: Duration, on clock: C, tell: @Sendable (Duration) -> Void
    ) async throws {
        let start = clock.now
        var left = wait
        var elapsed = Duration.zero
        while left > tick {
            elapsed += tick
            try await clock.sleep(until: start.advanced(by: elapsed), tolerance: nil)
            left -= tick
            tell(left)
        }
    }

    /// Reads one whole packet during a handshake; EOF is `.peerClosed`.
    private static func readHandshakePacket(
        from transport: any Transport, framer: inout PacketFramer, timeout: Duration, during: String
    ) async throws -> Packet {
        let activity = "the \(during) handshake"
        let packet: Packet?
        do {
            packet = try await framer.nextPacket(
                from: transport, maximumCount: 4096, timeout: timeout, during: activity)
        } catch {
            throw withContext(error, during: activity)
        }
        guard let packet else { throw PTPIPError.peerClosed(during: activity) }
        return packet
    }
}
