import Exposure
import PTPIP
import PTPIPCodec
import Shooting
import SonyProtocol
import Timing

/// A Sony Alpha (or RX) body driven over Wi-Fi with Sony's PTP/IP remote protocol (SDIO, 2.00 and 3.00).
///
/// `connect()` opens the PTP/IP session and runs Sony's start-up; the camera's settings are then kept
/// in a `SonyPropertyTable`, refreshed with change-only 0x9209 dumps only when the event channel says
/// something changed, so queries cost no round trip. Every wait (shutter read-back, image ready) is for
/// an event or a read-back, bounded by a timeout on the injected clock; a body that has sent no event in the
/// session is polled instead. While a session is open the command channel is never silent for longer than
/// `keepaliveInterval` (a change-only read), because some bodies close an idle link after ~10 s.
///
/// Busy policy: DeviceBusy (0x2019) on any operation is retried inside this actor, per operation (so a
/// busy GetObject never re-fires the shutter), `configuration.busyRetry.maxAttempts` attempts with its
/// pauses (3 attempts, 0.5 s then 1 s). After the last attempt `SonyCameraError.deviceBusy` is thrown and
/// is not transient: the runner must not retry it once more.
package actor SonyCamera: RemoteCamera, SessionConnecting {
    /// Where the connection stands; re-checked after every `await`.
    enum State {
        /// No session.
        case disconnected
        /// Connected; Sony's start-up is running (`isConnected` is still false).
        case starting(Link)
        /// The session is open and the settings are known.
        case ready(Link)
        /// The connection broke; `disconnect()` cleans up.
        case lost(Link, SonyCameraError)
    }

    /// One PTP/IP connection, the tasks that serve it, and everything known about its session.
    ///
    /// What the body said about itself and its settings belongs to the session that heard it: a new
    /// connection starts from nothing, and with no link there is nothing to write it to.
    struct Link {
        let client: PTPIPClient
        let eventPump: Task<Void, Never>
        /// Sends a cheap read whenever the command channel has been silent for `keepaliveInterval`.
        var keepalive: Task<Void, Never>?
        /// The session's bookkeeping; a new session starts with a new one.
        var session: SessionState
        /// The decoded GetDeviceInfo, once the start-up has read it.
        var deviceInfo: DeviceInfo?
        /// The decoded SDIO_GetExtDeviceInfo, once the start-up has read it.
        var extDeviceInfo: SonyExtDeviceInfo?
        /// The camera's settings as last reported by 0x9209.
        var properties = SonyPropertyTable()
    }

    /// The configuration this camera was made with.
    package nonisolated let configuration: SonyCameraConfiguration
    let clock: any Clock<Duration>
    let doorbell = Doorbell()
    var state: State = .disconnected

    /// The current link (starting, ready or lost); nil when disconnected.
    var link: Link? {
        switch state {
        case let .starting(link), let .ready(link), let .lost(link, _): link
        case .disconnected: nil
        }
    }

    /// The decoded GetDeviceInfo of the current session (nil when disconnected).
    package var deviceInfo: DeviceInfo? { link?.deviceInfo }
    /// The decoded SDIO_GetExtDeviceInfo of the current session (nil when disconnected).
    package var extDeviceInfo: SonyExtDeviceInfo? { link?.extDeviceInfo }
    /// The camera's settings as last reported in the current session (empty when disconnected).
    package var properties: SonyPropertyTable { link?.properties ?? SonyPropertyTable() }
    /// The status as last published, and who listens.
    let statusBroadcaster = CameraStatusBroadcaster()
    /// The number of PTP operations run in this session (for tests and benchmarks).
    package private(set) var operationCount = 0
    /// Images whose fsyncs run in the background, by path, until `makeDurable` awaits them.
    var pendingSyncs: [String: SyncTicket] = [:]
    /// The `-partial` files of transfers that broke off, by the camera's file name: deleted once that file or a
    /// newer one arrives whole (survives reconnects: the image stays in the camera and is fetched again after
    /// one; a newer image arriving means the body lost it, since it hands out its oldest first). A list,
    /// since the same image's transfer can break off more than once, each time into a new `-partial` file
    /// (issue 37, seeds 6070 and 8467).
    var partialFiles: [String: [String]] = [:]
    /// How the current shoot keeps its focus; survives reconnects, reset when the focus is restored.
    var focusHandling: FocusHandling = .unchecked
    /// The real ends of a shutter the body describes only as an unbounded range, once found or read from the
    /// body's record (`learnShutterLimits()`); nil for a body that lists its speeds.
    var shutterLimits: ShutterLimits?
    /// What this camera said once and the caller may show (a fallback taken, a focus warning); see `takeNotes`.
    var pendingNotes: [String] = []

    /// The open session's bookkeeping (a fresh value when there is no link; writes are then dropped: the
    /// `defer` of an operation the teardown cut short has no session left to count in).
    var session: SessionState {
        get { link?.session ?? SessionState(clock: clock) }
        set { _ = try? changeLink { $0.session = newValue } }
    }

    /// Changes the current link's session facts; throws when there is no link (a lost one is still changed),
    /// so nothing learnt in one session outlives it or is written where no session is.
    func changeLink<T>(_ change: (inout Link) throws -> T) throws -> T {
        switch state {
        case var .starting(link):
            let result = try change(&link)
            state = .starting(link)
            return result
        case var .ready(link):
            let result = try change(&link)
            state = .ready(link)
            return result
        case .lost(var link, let reason):
            let result = try change(&link)
            state = .lost(link, reason)
            return result
        case .disconnected:
            throw SonyCameraError.notConnected
        }
    }

    /// A camera at `configuration.host`; nothing happens until `connect()`.
    package init(configuration: SonyCameraConfiguration, clock: any Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        self.clock = clock
    }

    // MARK: - RemoteCamera: identity and connection

    /// Who the camera is (model and serial once connected).
    package var identity: CameraIdentity {
        CameraIdentity(
            model: deviceInfo?.model ?? "",
            serialNumber: deviceInfo.flatMap { $0.serialNumber.isEmpty ? nil : $0.serialNumber },
            address: configuration.address)
    }

    /// Whether the session is open and Sony's start-up finished.
    package var isConnected: Bool {
        if case .ready = state { return true }
        return false
    }

    /// The protocol version the body reported (2.00 or 3.00), once connected.
    package var protocolVersion: SonyProtocolVersion? { extDeviceInfo?.protocolVersion }

    // `connect()` and `connectRetrying(onRetry:)`: `SessionConnecting`, shared with LegacySonyCamera.

    /// `SessionConnecting`: a session is open and usable.
    package var hasOpenSession: Bool {
        if case .ready = state { return true }
        return false
    }
    /// `SessionConnecting`: `configuration.connectBackoff`.
    package var connectBackoff: [Duration] { configuration.connectBackoff }
    /// `SessionConnecting`: the injected clock.
    package var connectClock: any Clock<Duration> { clock }
    /// `SessionConnecting`: the address errors name.
    package var connectAddress: String { configuration.address }
    /// `SessionConnecting`: the session and Sony's start-up (`startSession`).
    package func openSession() async throws { try await startSession() }

    /// One failed attempt of `connectRetrying` that is tried again after `delay`.
    package typealias ConnectRetry = Shooting.ConnectRetry

    /// Puts the focus back, then stops the event reader and closes the session and both sockets, within
    /// `configuration.disconnectTimeout`. Images still in the buffer stay there: the runner fetches them with
    /// `nextImage` before it lets go of the camera, or `resume` does in the next session.
    package func disconnect() async {
        await restoreFocus()
        await tearDown()
    }

    /// Safe order: stop reading events, CloseSession (best effort, bounded), close the sockets.
    package func tearDown() async {
        let link: Link
        switch state {
        case .disconnected: return
        case let .starting(current), let .ready(current), let .lost(current, _): link = current
        }
        state = .disconnected
        link.keepalive?.cancel()
        link.eventPump.cancel()
        await link.keepalive?.value
        await link.eventPump.value
        await link.client.disconnect()
        publish(.disconnected)
        doorbell.ring()
    }

    // MARK: - Errors of connecting

    /// Whether a failed connection attempt is worth repeating after a pause.
    package static func isRetryableConnectFailure(_ error: any Error) -> Bool {
        guard let ptp = error as? PTPIPError else {
            if case let .connectionLost(_, underlying)? = error as? SonyCameraError {
                return isRetryableConnectFailure(underlying)
            }
            return false
        }
        // Closed at Init Command: a body holding a dropped session does that until it is power-cycled, so
        // another attempt only repeats it (issue 33).
        if ptp.isClosedAtInitCommand { return false }
        // Not allowed to pair within the stated wait: asking again only shows the screen again.
        if ptp.isPairingTimeout { return false }
        switch ptp {
        case .connectionRefused, .timedOut, .connectionReset, .peerClosed: return true
        case let .initFailed(reason): return reason.isTransient
        default: return false
        }
    }

    /// The error a failed connect throws: unreachable, not Sony, or "failed after n attempts".
    package static func connectError(_ error: any Error, address: String, attempts: Int) -> any Error {
        if error is CancellationError { return error }
        if let sony = error as? SonyCameraError {
            if case let .connectionLost(_, underlying) = sony {
                return SonyCameraError.connectFailed(address: address, attempts: attempts, last: underlying)
            }
            return sony
        }
        guard let ptp = error as? PTPIPError else { return error }
        switch ptp {
        case .hostUnreachable, .networkUnreachable, .nameResolutionFailed:
            return SonyCameraError.unreachable(address: address, underlying: ptp)
        case .cancelled where Task.isCancelled:
            return CancellationError()
        default:
            return SonyCameraError.connectFailed(address: address, attempts: attempts, last: ptp)
        }
    }

    // MARK: - Status

    /// A new stream of the camera's status: the current one at once, then every change.
    package func statusUpdates() -> AsyncStream<CameraStatus> {
        statusBroadcaster.subscribe()
    }

    /// Publishes `new` to every listener when it differs from the last status.
    func publish(_ new: CameraStatus) {
        statusBroadcaster.publish(new)
    }

    // MARK: - Events

    /// Reads the client's events until they end; owned by the link and cancelled in `tearDown()`.
    static func pumpEvents(from client: PTPIPClient, into camera: SonyCamera) async {
        do {
            for try await event in client.events {
                await camera.handle(event)
            }
            await camera.eventsEnded(error: nil)
        } catch {
            await camera.eventsEnded(error: error)
        }
    }

    /// The events this session has taken in so far: a virtual-time test waits until it matches what the body
    /// sent before it moves on, since an event can have arrived on the wire and not yet been noted here.
    package var eventsHandled: Int { session.eventsSeen }

    /// Notes what an event means for the model and wakes every waiter.
    func handle(_ event: PTPEvent) {
        session.eventsSeen += 1
        switch event.code.rawValue {
        case EventCode.sonyObjectAdded.rawValue, EventCode.objectAdded.rawValue:
            session.images.noteObjectAdded()
            // An image no download of ours explains yet (a frame processed behind the shutter, or an earlier
            // session's exposure that finished after the connect): the camera holds it until `nextImage`.
            if case .ready = state, session.images.hasUnclaimedAnnouncement, statusBroadcaster.current == .idle {
                publish(.saving)
            }
        case EventCode.capturedEvent.rawValue:
            session.images.noteCapturedEvent()
        case EventCode.sonyDevicePropChanged.rawValue, EventCode.devicePropChanged.rawValue:
            // No parameter means "something changed": re-read everything that changed.
            let code = event.parameters.first.map { UInt16(truncatingIfNeeded: $0) } ?? 0
            session.changedHints.insert(code)
            if code == SonyPropertyCode.shootingFileInfo.rawValue { session.images.noteShootingFileInfoEvent() }
        default:
            break
        }
        doorbell.ring()
    }

    /// The event connection ended: unless we are closing on purpose, the link is lost.
    func eventsEnded(error: (any Error)?) {
        guard !Task.isCancelled else { return }
        switch state {
        case let .starting(link), let .ready(link):
            let reason = (error as? PTPIPError) ?? .peerClosed(during: "reading events")
            state = .lost(link, .connectionLost(during: "reading events", underlying: reason))
            publish(.disconnected)
        case .disconnected, .lost:
            break
        }
        doorbell.ring()
    }

    // MARK: - Transactions

    /// The client of the open link; throws when there is none.
    func requireClient() throws -> PTPIPClient {
        switch state {
        case let .starting(link), let .ready(link): return link.client
        case let .lost(_, reason): throw reason
        case .disconnected: throw SonyCameraError.notConnected
        }
    }

    /// Runs one operation, retrying DeviceBusy per the busy policy; other failures become `SonyCameraError`.
    @discardableResult
    func run(
        _ code: OperationCode, _ parameters: [UInt32] = [], sending data: [UInt8]? = nil,
        receivingDataWith sink: DataSink? = nil, during: String
    ) async throws -> OperationResult {
        let policy = configuration.busyRetry
        var attempt = 1
        while true {
            let client = try requireClient()
            operationCount += 1
            session.operationsInFlight += 1
            defer {
                session.operationsInFlight -= 1
                session.lastActivity = Stopwatch(clock: clock)
            }
            do {
                if let data { return try await client.execute(code, parameters: parameters, sending: data) }
                if let sink { return try await client.execute(code, parameters: parameters, receivingDataWith: sink) }
                return try await client.execute(code, parameters: parameters)
            } catch let PTPIPError.response(response, _) where response == .deviceBusy {
                guard attempt < policy.maxAttempts else {
                    throw SonyCameraError.deviceBusy(operation: during, attempts: attempt)
                }
                try await clock.sleep(for: policy.delay(beforeRetry: attempt))
                attempt += 1
            } catch {
                let wrapped = SonyCameraError.wrap(error, during: during)
                if let lost = wrapped as? SonyCameraError, lost.isConnectionLost { markLost(lost) }
                throw wrapped
            }
        }
    }

    /// Records a broken connection (the client has closed its sockets already).
    func markLost(_ reason: SonyCameraError) {
        switch state {
        case let .starting(link), let .ready(link):
            state = .lost(link, reason)
            publish(.disconnected)
            doorbell.ring()
        case .disconnected, .lost:
            break
        }
    }
}
