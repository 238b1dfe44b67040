import PTPIP
import PTPIPCodec
import Posix
import SonyProtocol
import Timing

/// A simulated Sony Alpha serving PTP/IP on TCP: the `SimulatedCamera` state machine behind a real socket.
///
/// One client at a time (a second one gets Init Fail "busy"); after a client leaves or the link drops,
/// the next may connect. Start it with `withRunning(configuration:clock:_:)` (tests, on port 0) or
/// `run()` in a task you cancel (the CLI); read what it shot from `captures` and how many operations
/// it answered from `operationCount`.
package actor CameraSimulator {
    /// The address it listens on.
    package nonisolated let host: String
    /// The port it listens on (the kernel's choice when the configuration said 0).
    package nonisolated let port: UInt16

    let configuration: SimulatorConfiguration
    /// The clock the camera's time runs on (a test clock in virtual-time tests).
    let clock: any Clock<Duration>
    /// The camera's time: how long ago the simulator started, on `clock`.
    let started: Stopwatch
    /// Sleeps on `clock` until the given time since the simulator started.
    let sleep: @Sendable (_ untilElapsed: Duration) async throws -> Void
    private let listener: TCPListener
    var camera: SimulatedCamera
    private var link: LinkState = .idle
    private var nextConnectionNumber: UInt32 = 1
    private var capturesSoFar: [CaptureRecord] = []
    private var answeredOperations = 0
    private var eventsSentSoFar = 0
    /// Added before each reply (`SimulatorConfiguration.roundTripDelay` until `setRoundTripDelay(_:)` changes it).
    var roundTripDelay: Duration
    /// The data phases' throughput limit (`SimulatorConfiguration.bandwidth` until `setBandwidth(_:)` changes it).
    var bandwidth: Int?
    private let captureLog: JSONLineWriter?
    private let operationLog: JSONLineWriter?
    /// The Init Command Requests waiting at the pairing screen (`--pairing`).
    nonisolated let pairingScreen = PairingScreen()
    /// The friendly name of each computer that asks to pair, as it asks (for `simulate`'s control lines).
    package nonisolated let pairingAsks: AsyncStream<String>
    let pairingNotices: AsyncStream<String>.Continuation

    /// Who is connected.
    enum LinkState {
        /// Nobody: the next Init Command Request is accepted.
        case idle
        /// A client holds the camera.
        case active(Session)
    }

    /// One client's pair of connections.
    struct Session {
        let number: UInt32
        let command: any Transport
        var event: (any Transport)?
        let events: AsyncStream<PTPEvent>.Continuation
        /// Rung on every request, so the timer plans its sleep again.
        let wake: Doorbell
        /// The doorbell generation the timer last planned its sleep at (nil before it first did).
        var plannedAt: UInt64?
        /// Events handed to `events`, and those the event connection then sent or dropped.
        var eventsQueued = 0
        var eventsForwarded = 0
    }

    /// What the timer of a session does next.
    enum TimerPlan {
        /// The session is over: the timer stops.
        case stop
        /// Sleep until the camera's next deadline (time since the simulator started), or until a request
        /// when nil.
        case sleep(Duration?)
    }

    /// Binds the listening socket at once (so `port` is known) and loads replay files; serve with `run()`.
    package init(
        configuration: SimulatorConfiguration, clock: any Clock<Duration> = ContinuousClock()
    ) throws(SimulatorError) {
        self.configuration = configuration
        self.clock = clock
        roundTripDelay = configuration.roundTripDelay
        bandwidth = configuration.bandwidth
        (pairingAsks, pairingNotices) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(16))
        started = Stopwatch(clock: clock)
        sleep = Self.sleeper(on: clock)
        camera = SimulatedCamera(
            configuration: configuration.withCameraClockSet(),
            datasets: try SimulatorDatasets(configuration: configuration))
        captureLog = try configuration.captureLogPath.map { path throws(SimulatorError) in
            try JSONLineWriter(path: path)
        }
        operationLog = try configuration.operationLogPath.map { path throws(SimulatorError) in
            try JSONLineWriter(path: path)
        }
        do {
            listener = try TCPListener.bind(host: configuration.host, port: configuration.port)
        } catch {
            if case let .systemCallFailed(_, code)? = error as? PTPIPError, code == .addressNotAvailable {
                throw .addressNotLocal(host: configuration.host)
            }
            throw .cannotListen(host: configuration.host, port: configuration.port, reason: "\(error)")
        }
        host = configuration.host
        port = listener.port
    }

    /// Starts a simulator, runs `body` with it, then stops it and waits until every connection is closed.
    package static func withRunning<T: Sendable>(
        configuration: SimulatorConfiguration, clock: any Clock<Duration> = ContinuousClock(),
        _ body: (CameraSimulator) async throws -> T
    ) async throws -> T {
        let simulator = try CameraSimulator(configuration: configuration, clock: clock)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await simulator.run() }
            do {
                let result = try await body(simulator)
                group.cancelAll()
                try await group.waitForAll()
                return result
            } catch {
                group.cancelAll()
                try? await group.waitForAll()
                throw error
            }
        }
    }

    /// Serves clients until the calling task is cancelled, then closes every connection and the logs.
    package func run() async {
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                guard let transport = try? await listener.accept() else { break }
                group.addTask { await self.serve(transport) }
            }
            group.cancelAll()
        }
        listener.close()
        answerPairing(allow: false)
        pairingNotices.finish()
        endSession(number: nil)
        await captureLog?.close()
        await operationLog?.close()
    }

    /// Every frame fired so far, in order.
    package var captures: [CaptureRecord] { capturesSoFar }

    /// Operation requests received so far (answered, dropped or hung), across all clients.
    package var operationCount: Int { camera.operationCount }

    /// Shutter releases that fired so far (a frame counts from S2, before its exposure ends).
    package var framesFired: Int { camera.frameCount }

    /// Files waiting in the body's buffer now (processed, not fetched yet).
    package var filesWaiting: Int { camera.buffer.count }

    /// Operation requests answered so far.
    package var answeredOperationCount: Int { answeredOperations }

    /// Events sent on event connections so far (what a client that saw them all has received).
    package var eventsSent: Int { eventsSentSoFar }

    /// When the camera's next deadline falls, as time since the simulator started; nil when nothing is due.
    package var nextDeadline: Duration? { camera.nextDeadline }

    /// Whether the body waits for nothing but time or a request: no client, or the timer has planned its
    /// sleep since the last request, its deadline is still ahead (one that has come means the timer is awake
    /// or about to be) and every event produced so far has left. A virtual-time test moves the clock only
    /// then (and once the timer's sleep is on the clock when there is a `nextDeadline`).
    package var isWaiting: Bool {
        guard case let .active(session) = link else { return true }
        if let deadline = camera.nextDeadline, deadline <= started.elapsed { return false }
        return session.eventsForwarded == session.eventsQueued && session.plannedAt == session.wake.generation
    }

    /// Whether a client currently holds the camera.
    package var isClientConnected: Bool {
        if case .active = link { return true }
        return false
    }

    // MARK: - State changes (no I/O while isolated except closing sockets, which never blocks)

    /// Admits a new client unless one is connected or the refusal fault says no.
    func admit(command: any Transport) -> (number: UInt32, events: AsyncStream<PTPEvent>, wake: Doorbell)? {
        guard case .idle = link, !camera.shouldRefuseConnection() else { return nil }
        let number = nextConnectionNumber
        nextConnectionNumber += 1
        let (stream, continuation) = AsyncStream<PTPEvent>.makeStream(bufferingPolicy: .unbounded)
        let wake = Doorbell()
        link = .active(Session(number: number, command: command, event: nil, events: continuation, wake: wake))
        camera.linkOpened(now: started.elapsed)
        return (number, stream, wake)
    }

    /// Whether a refused client should wait a moment: the previous one may be leaving right now.
    var isBusy: Bool { isClientConnected }

    /// Attaches the event connection of session `number`; false when there is no such session.
    func attachEvent(_ transport: any Transport, number: UInt32) -> Bool {
        guard case var .active(session) = link, session.number == number, session.event == nil else { return false }
        session.event = transport
        link = .active(session)
        return true
    }

    /// The event connection of session `number`, once attached.
    func eventTransport(number: UInt32) -> (any Transport)? {
        guard case let .active(session) = link, session.number == number else { return nil }
        return session.event
    }

    /// Ends session `number` (or whichever is active when nil): closes both connections, releases the camera.
    func endSession(number: UInt32?) {
        guard case let .active(session) = link, number == nil || session.number == number else { return }
        link = .idle
        session.command.close()
        session.event?.close()
        session.events.finish()
        camera.connectionClosed(now: started.elapsed)
        collect(session: nil)
    }

    /// How long session `number`'s timer sleeps: until the camera's next deadline; noted as planned at
    /// `generation` of its doorbell (see `isWaiting`).
    func planSleep(number: UInt32, generation: UInt64) -> TimerPlan {
        guard case var .active(session) = link, session.number == number else { return .stop }
        session.plannedAt = generation
        link = .active(session)
        return .sleep(camera.nextDeadline)
    }

    /// Lets time pass for the camera and forwards what it produced.
    func tick(number: UInt32) {
        // A leaving session's timer may tick once more; only the active one lets time pass.
        guard case let .active(session) = link, session.number == number else { return }
        camera.advance(to: started.elapsed)
        collect(session: number)
        // The idle-drop quirk: the body closes both connections on its own.
        if camera.takeLinkDrop() { endSession(number: number) }
    }

    /// The camera's answer to one request, at the current time.
    /// Also returns the request's index (1, 2, ... across all clients) for the operation log, and the link its
    /// reply goes out on (`roundTripDelay` and `bandwidth`, read here so a change reaches the next request).
    func handle(
        _ request: OperationRequest, dataOut: [UInt8], number: UInt32
    ) -> (action: CameraAction, index: Int, link: LinkPace) {
        let action = camera.handle(request, dataOut: dataOut, now: started.elapsed)
        let index = camera.operationCount
        collect(session: number)
        if case let .active(session) = link, session.number == number { session.wake.ring() }
        // A drop ends the session before the client can see the EOF, so its reconnect is never refused.
        if action == .drop { endSession(number: number) }
        return (action, index, LinkPace(roundTrip: roundTripDelay, bandwidth: bandwidth))
    }

    /// How a reply goes out: after `roundTrip`, its data phase at most `bandwidth` bytes a second (nil: unlimited).
    struct LinkPace: Sendable {
        let roundTrip: Duration
        let bandwidth: Int?
    }

    /// Notes one handled operation for the count and the operation log.
    func record(_ request: OperationRequest, arrived: Duration, index: Int, reply: CameraReply?, dataOut: Int) {
        if reply != nil { answeredOperations += 1 }
        operationLog?.append(
            OperationRecord(
                index: index, time: Self.seconds(arrived), code: hex(request.code.rawValue), name: request.code.logName,
                parameters: request.parameters, response: reply.map { hex($0.code.rawValue) },
                dataInBytes: reply?.data?.count ?? 0, dataOutBytes: dataOut))
    }

    private func collect(session number: UInt32?) {
        for record in camera.takeFinishedCaptures() {
            capturesSoFar.append(record)
            captureLog?.append(record)
        }
        let events = camera.takeEvents()
        guard let number, case var .active(session) = link, session.number == number else { return }
        for event in events {
            if case .enqueued = session.events.yield(event) { session.eventsQueued += 1 }
        }
        link = .active(session)
    }

    /// Notes that the event connection of session `number` sent (or, with no connection to send it on,
    /// dropped) one event.
    func eventForwarded(number: UInt32, sent: Bool) {
        if sent { eventsSentSoFar += 1 }
        guard case var .active(session) = link, session.number == number else { return }
        session.eventsForwarded += 1
        link = .active(session)
    }

    /// Opens the clock's type once: a sleep until an instant measured from now (the simulator's start).
    private static func sleeper<C: Clock<Duration>>(on clock: C) -> @Sendable (Duration) async throws -> Void {
        let start = clock.now
        return { elapsed in try await clock.sleep(until: start.advanced(by: elapsed), tolerance: nil) }
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}

/// `0x9209`-style spelling of a 16-bit code.
func hex(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
