import PTPIPCodec
import Posix
import Timing

/// A PTP/IP session with one camera (CIPA DC-005): a command connection and an event connection.
///
/// `connect` performs both Init handshakes; then `openSession`, `execute` (one transaction at a time,
/// concurrent callers served first-come first-served, never interleaved), `closeSession` and
/// `disconnect`. Events from the event connection arrive on `events`; Probe Requests are answered.
///
/// A transaction that fails in the middle (timeout, peer closed, protocol violation, cancellation)
/// leaves the command connection out of step, so the client closes both connections and every later
/// call throws that first error: reconnect to continue. A response code other than OK is thrown as
/// `PTPIPError.response(code:operation:)` and leaves the session usable.
///
/// Every timeout (connect, each wait for the camera, the bound of `disconnect`) is measured on the clock
/// given to `connect` (`ContinuousClock` unless a test injects its own).
package actor PTPIPClient {
    /// Timeouts and limits of a client.
    package struct Configuration: Sendable {
        /// The GUID and name sent in the Init Command Request.
        package var identity: HostIdentity
        /// Longest time for TCP connect plus each Init handshake.
        package var connectTimeout: Duration = .seconds(10)
        /// Longest the camera may stay silent within one operation (per wait, so long transfers that keep
        /// moving never time out).
        package var operationTimeout: Duration = .seconds(10)
        /// Upper bound of `disconnect()`, however silent the camera is.
        package var disconnectTimeout: Duration = .seconds(2)
        /// Largest packet buffered whole; Data payloads are streamed and not bound by this.
        package var maximumPacketLength: Int = PacketFramer.defaultMaximumPacketLength
        /// Largest data-in phase `execute` collects into memory; larger ones need a sink.
        package var maximumCollectedDataLength: Int = 64 << 20
        /// Largest chunk read from the socket at once (and so the largest chunk a sink receives).
        package var receiveChunkSize: Int = 256 << 10
        /// Events kept for a slow consumer of `events`; older ones are dropped beyond this.
        package var eventBufferLimit: Int = 1024
        /// Hears of every transaction, event and connection attempt (a session log); nil hears nothing.
        package var observer: (any PTPIPObserver)?
        /// Told once when the Init Command Ack has not come within `pairingHint`: a body that needs pairing
        /// shows "Allow pairing with the device? '<Friendly Name>'" and acknowledges only after its OK (Camera
        /// Control PTP 3 reference pp. 40-41). With it set, the ack may take `pairingWait` instead of
        /// `connectTimeout`; nil waits `connectTimeout` as for any handshake.
        package var onAwaitingPairing: (@Sendable (_ friendlyName: String, _ wait: Duration) -> Void)?
        /// How long a body that needs no pairing takes at most to acknowledge, before the wait is for a person.
        package var pairingHint: Duration = .seconds(2)
        /// How long the photographer has to press OK on the body once told (generous: they may have to find
        /// the pairing menu first).
        package var pairingWait: Duration = .seconds(120)
        /// Told the time left of `pairingWait` every `pairingTick` while the photographer is waited for (a live
        /// countdown: "1:45 left"); nil tells nothing.
        package var onPairingCountdown: (@Sendable (_ left: Duration) -> Void)?
        /// How often `onPairingCountdown` is told.
        package var pairingTick: Duration = .seconds(15)

        /// A configuration with default timeouts for `identity`.
        package init(identity: HostIdentity) {
            self.identity = identity
        }
    }

    /// Largest read on the event connection: events are a few dozen bytes, and the event framer's
    /// buffer (allocated to the read size) need not match the command connection's.
    static let eventReadSize = 16 << 10

    /// Where the session stands; re-checked after every `await`.
    enum State: Sendable {
        /// Both connections are up, no session is open.
        case connected
        /// A session is open.
        case inSession(id: UInt32)
        /// A transaction broke the connection; both sockets are closed.
        case failed(PTPIPError)
        /// `disconnect()` ran.
        case disconnected
    }

    /// What the camera said about itself in the Init Command Ack.
    package nonisolated let camera: InitCommandAck
    /// The camera's address ("192.168.122.1:15740").
    package nonisolated let address: String
    /// Events from the event connection, in arrival order. One consumer. Finishes after `disconnect()`,
    /// or throws the error that ended the event connection.
    package nonisolated let events: AsyncThrowingStream<PTPEvent, any Error>

    let configuration: Configuration
    /// The clock the client's own timeouts run on (the transports measure theirs on the one they were given).
    let clock: any Clock<Duration>
    let command: any Transport
    let event: any Transport
    let gate = TransactionGate()
    var state: State = .connected
    /// Framing state of the command connection (bytes that arrived after the last packet stay here).
    var commandFramer: PacketFramer
    /// The id the next in-session transaction uses (ISO 15740 §9.3.1: 1 after OpenSession, never 0 or ~0).
    var nextTransactionID: UInt32 = 1
    private let eventReader: Task<Void, Never>

    init(
        camera: InitCommandAck, address: String, configuration: Configuration, clock: any Clock<Duration>,
        command: any Transport, commandFramer: PacketFramer, event: any Transport, eventFramer: PacketFramer
    ) {
        self.camera = camera
        self.address = address
        self.configuration = configuration
        self.clock = clock
        self.command = command
        self.commandFramer = commandFramer
        self.event = event
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: PTPEvent.self, bufferingPolicy: .bufferingNewest(configuration.eventBufferLimit))
        self.events = stream
        // Owned, not fire-and-forget: `disconnect()` cancels this task and waits for it.
        // Inside a deterministic world, on its executor like every task of the process (`TaskPlacement`).
        self.eventReader = Task(executorPreference: TaskPlacement.preferred) { [event, configuration] in
            await Self.readEvents(
                from: event, framer: eventFramer, into: continuation, observer: configuration.observer,
                chunkSize: min(configuration.receiveChunkSize, Self.eventReadSize),
                sendTimeout: configuration.operationTimeout)
        }
    }

    deinit {
        command.close()
        event.close()
        eventReader.cancel()
    }

    /// The open session's id, if any.
    package var sessionID: UInt32? {
        if case let .inSession(id) = state { return id }
        return nil
    }

    // MARK: - Disconnect

    /// Closes the session if one is open, then both connections; returns within `disconnectTimeout`.
    ///
    /// A transaction still running gets until the deadline to finish; after that its sockets are closed
    /// under it (it throws `.cancelled`). CloseSession is best effort: a silent or failing camera does not
    /// stop the sockets from closing. Calls waiting for their turn throw once they get it. Idempotent.
    package func disconnect() async {
        let bound = configuration.disconnectTimeout
        let stopwatch = Stopwatch(clock: clock)
        let entered = await gate.enter(within: bound, on: clock)
        if entered, case .inSession = state {
            let remaining = stopwatch.remaining(of: bound)
            _ = try? await runTransaction(.closeSession, parameters: [], dataOut: nil, sink: nil, timeout: remaining)
        }
        state = .disconnected
        // The event reader is cancelled first: a camera that answers the command connection's close by closing
        // the event connection must not reach the reader as an error ("the camera closed the connection").
        eventReader.cancel()
        event.close()
        command.close()
        await eventReader.value
        if entered { gate.leave() }
    }
}

extension TransactionGate {
    /// Enters unless `timeout` passes on `clock` first; returns whether it entered.
    func enter(within timeout: Duration, on clock: any Clock<Duration>) async -> Bool {
        if tryEnter() { return true }
        do {
            // If the gate comes our way just as the timeout passes, `withTimeout` keeps the entry: it is ours.
            try await withTimeout(after: timeout, on: clock, throwing: CancellationError()) { try await self.enter() }
            return true
        } catch {
            return false
        }
    }
}
