import ByteCoding
import PTPIPCodec
import SonyProtocol

/// The simulated Sony body as a pure state machine: requests and the passage of time go in,
/// answers, events and capture records come out. No sockets, no clocks: `now` is passed in as the
/// time since the simulator started, so every behaviour is testable in virtual time.
package struct SimulatedCamera: Sendable {
    /// Where the shutter is in its cycle; processing happens behind it (see `processing`).
    package enum ShutterState: Sendable, Equatable {
        /// Ready to fire (images may still be processing or waiting in the buffer).
        case idle
        /// The sensor is exposing; `ends` is nil for a BULB exposure still held by S2.
        case exposing(Capture, ends: Duration?)
        /// Exposure over, the Long Exposure NR dark frame runs until `ends`: the body answers a release busy.
        case darkFrame(Capture, ends: Duration)
    }

    /// Whether a PTP session is open.
    package enum SessionState: Sendable, Equatable {
        /// No session: only GetDeviceInfo and OpenSession are answered.
        case closed
        /// OpenSession succeeded with this session id.
        case open(sessionID: UInt32)
    }

    let configuration: SimulatorConfiguration
    let datasets: SimulatorDatasets

    /// The Sony protocol version the body speaks (decides the 0x9209 enumeration layout).
    package var datasetsProtocolVersion: SonyProtocolVersion { datasets.protocolVersion }
    /// The live property table (order = order in the 0x9209 answer).
    package private(set) var properties: [SonyPropertyDescriptor]
    /// What belongs to the current connection (a fresh value for each one).
    var connection: Connection
    package internal(set) var shutter: ShutterState = .idle
    /// Files waiting in the buffer, oldest first: the first is object 0xFFFFC001 (reference p. 47).
    package internal(set) var buffer: [BufferedImage] = []
    /// Captures whose exposure (and dark frame) ended, processing behind the shutter, oldest first.
    package internal(set) var processing: [ProcessingCapture] = []
    /// Frames fired so far.
    package internal(set) var frameCount = 0
    /// Operation requests received so far (all connections), counted from 1 by the faults.
    package private(set) var operationCount = 0
    /// A 2.00 notch step waiting to apply: the signed number of notches (+ faster) and when.
    package internal(set) var pendingStep: (notches: Int, appliesAt: Duration)?
    /// Properties changed since the last 0x9209 read (what a change-only read returns).
    var changed: Set<SonyPropertyCode>
    /// Events not yet taken by the event connection.
    var events: [PTPEvent] = []
    /// Exposures ended and not yet taken for the capture log.
    var finishedCaptures: [CaptureRecord] = []
    /// The configured faults and what is left of them.
    var faults: FaultState
    /// The configured quirks and what is left of their budgets.
    var quirks: QuirkState
    /// Whether 0xD215 still shows the image just downloaded, until the next 0x9209 (`d215-lag`).
    var shootingFileInfoLagging = false
    /// Whether the body still holds a session that was dropped without CloseSession
    /// (`--hold-session-after-drop`): until `powerCycle()`, every Init Command Request gets EOF.
    package internal(set) var holdsStaleSession = false
    /// The GUIDs of the computers the photographer allowed to pair (`--pairing`; a body keeps up to 20,
    /// reference p. 40).
    package internal(set) var pairedHosts: [PTPIPGUID] = []

    /// Creates a camera in its power-on state.
    package init(configuration: SimulatorConfiguration, datasets: SimulatorDatasets) {
        self.configuration = configuration
        self.datasets = datasets
        properties = datasets.initialProperties
        connection = Connection(negotiatedVersion: datasets.protocolVersion)
        changed = Set(properties.map(\.code))
        faults = FaultState(configuration.faults)
        quirks = QuirkState(configuration.quirks)
    }

    // MARK: - Queries

    /// The current value of a property, if the body has it.
    package func value(of code: SonyPropertyCode) -> PTPValue? { properties.first { $0.code == code }?.currentValue }

    /// Whether a PTP session is open on the current connection.
    package var session: SessionState { connection.session.map { .open(sessionID: $0.id) } ?? .closed }

    /// The highest SDIO_Connect phase completed in this session (0 before the first).
    package var connectPhase: UInt32 { connection.session?.connectPhase ?? 0 }

    /// The property layout agreed in SDIO_GetExtDeviceInfo: the older of the host's and the body's versions.
    package var negotiatedVersion: SonyProtocolVersion { connection.negotiatedVersion }

    /// S1 and S2 as the host holds them.
    package var shutterButton: ShutterButton { connection.button }

    /// The current shutter speed.
    package var shutterSpeed: SonyShutterValue? { value(of: .shutterSpeed).flatMap(SonyShutterValue.init) }

    /// The earliest moment something changes on its own (exposure end, image ready, step applied).
    package var nextDeadline: Duration? {
        var deadlines: [Duration] = []
        switch shutter {
        case .idle: break
        case let .exposing(_, ends): if let ends { deadlines.append(ends) }
        case let .darkFrame(_, ends): deadlines.append(ends)
        }
        if let ready = processing.first?.readyAt { deadlines.append(ready) }
        if let pendingStep { deadlines.append(pendingStep.appliesAt) }
        if case let .running(dropsAt) = connection.idle { deadlines.append(dropsAt) }
        if case let .focusing(settlesAt)? = connection.button.halfPress { deadlines.append(settlesAt) }
        return deadlines.min()
    }

    /// Events produced since the last call, in order (for the event connection).
    package mutating func takeEvents() -> [PTPEvent] {
        defer { events.removeAll() }
        // The no-events quirk: a body that never sends any (0x9209 still shows every change).
        return quirks.noEvents ? [] : events
    }

    /// Frames whose exposure ended since the last call (for the capture log).
    package mutating func takeFinishedCaptures() -> [CaptureRecord] {
        defer { finishedCaptures.removeAll() }
        return finishedCaptures
    }

    // MARK: - Connections

    /// Whether the next command-connection attempt is refused by the `refuse-connections` fault.
    package mutating func shouldRefuseConnection() -> Bool { faults.takeRefusal() }

    /// Whether this body refuses this computer as not approved for pairing (`--fault refuse-pairing`).
    package var refusesPairing: Bool { faults.refusesPairing }

    /// The client left or the link dropped: the session ends, buttons are released (S1's autofocus stops),
    /// the buffer stays; the next connection starts afresh.
    package mutating func connectionClosed(now: Duration) {
        advance(to: now)
        // Dropped, not closed: a body that holds such a session refuses the next one until power-cycled.
        if configuration.holdsSessionAfterDrop, connection.session != nil { holdsStaleSession = true }
        if connection.button.fullPress { releaseS2(now: now) }
        connection = Connection(negotiatedVersion: datasets.protocolVersion)
        setValue(.uint8(FocusIndication.unlocked), of: .focusIndication)
        changed = Set(properties.map(\.code))
        events.removeAll()
    }

    // MARK: - Time

    /// Applies everything due at or before `now`, in time order.
    package mutating func advance(to now: Duration) {
        while let deadline = nextDeadline, deadline <= now {
            if let pendingStep, pendingStep.appliesAt == deadline {
                self.pendingStep = nil
                applyStep(pendingStep.notches)
                continue
            }
            if connection.button.halfPress == .focusing(settlesAt: deadline) {
                focusSettled()
                continue
            }
            if connection.idle == .running(dropsAt: deadline) {
                // idle-drop: the body closes the link; an exposure or processing under way carries on.
                connection.idle = .expired
                continue
            }
            switch shutter {
            case let .exposing(capture, ends?) where ends == deadline:
                finishExposure(capture, ends: ends, cutByCap: true)
                continue
            case let .darkFrame(capture, ends) where ends == deadline:
                shutterFreed(capture, at: ends)
                continue
            case .idle, .exposing, .darkFrame:
                break
            }
            guard let first = processing.first, first.readyAt == deadline else { return }
            processing.removeFirst()
            storeFiles(of: first.capture)
        }
    }

    // MARK: - Requests

    /// Handles one operation request (with its data-out payload, if any) at time `now`.
    package mutating func handle(_ request: OperationRequest, dataOut: [UInt8], now: Duration) -> CameraAction {
        advance(to: now)
        operationCount += 1
        if connection.hanging { return .hang }
        if takeLinkDrop() { return .drop }
        if let idle = quirks.idleDrop { connection.idle = .running(dropsAt: now + idle) }
        switch faults.connectionFault(atOperation: operationCount) {
        case .drop: return .drop
        case .hang:
            connection.hanging = true
            return .hang
        case nil: break
        }
        if request.code == .sdioSetExtDevicePropValue,
            request.parameters.first == UInt32(SonyPropertyCode.shutterSpeed.rawValue),
            faults.hangsAtSpeedSet(fired: frameCount)
        {
            connection.hanging = true
            return .hang
        }
        if faults.takeBusy(operation: request.code.rawValue) { return .reply(CameraReply(.deviceBusy)) }
        if takeBusyAtStart(request.code) { return .reply(CameraReply(.deviceBusy)) }
        return answer(request, dataOut: dataOut, now: now)
    }

    private mutating func answer(_ request: OperationRequest, dataOut: [UInt8], now: Duration) -> CameraAction {
        let parameters = request.parameters
        func parameter(_ index: Int) -> UInt32 { index < parameters.count ? parameters[index] : 0 }
        switch request.code {
        case .getDeviceInfo:
            return .reply(.ok(data: datasets.deviceInfo))
        case .openSession:
            guard connection.session == nil else { return .reply(CameraReply(.sessionAlreadyOpen)) }
            guard parameter(0) != 0 else { return .reply(CameraReply(.invalidParameter)) }
            // `startup-nofire` and `busy-at-start` count from here.
            connection.session = OpenSession(id: parameter(0), openedAt: now, busyAtStartLeft: quirks.busyAtStart)
            return .reply(CameraReply(.ok))
        default:
            break
        }
        guard var session = connection.session else { return .reply(CameraReply(.sessionNotOpen)) }
        switch request.code {
        case .closeSession:
            connection.session = nil
            return .reply(CameraReply(.ok))
        case .sdioConnect:
            let phase = parameter(0)
            guard (1...3).contains(phase) else { return .reply(CameraReply(.invalidParameter)) }
            session.connectPhase = max(session.connectPhase, phase)
            connection.session = session
            // Each phase answers 8 bytes; real bodies send zeros here.
            return .reply(.ok(data: [UInt8](repeating: 0, count: 8)))
        case .sdioGetExtDeviceInfo:
            // Param 1 is the host's protocol version. A body answers with its own version, but describes
            // its properties in the older layout to an older host: libgphoto2 2.5 asks with 0x00C8 and
            // parses one enumeration list, hdrshoot asks with 0x012C and gets two.
            let requested = SonyProtocolVersion(rawValue: UInt16(clamping: parameter(0)))
            connection.negotiatedVersion =
                parameter(0) == 0 ? datasets.protocolVersion : min(requested, datasets.protocolVersion)
            return .reply(.ok(data: datasets.extDeviceInfo))
        case .sdioGetAllExtDevicePropInfo:
            let onlyChanged = parameter(0) == SonyPropertyDumpScope.changedPropertiesOnly
            let selected = onlyChanged ? properties.filter { changed.contains($0.code) } : properties
            changed.removeAll()
            let dump = datasets.propertyDump(
                wireDescriptors(selected), complete: !onlyChanged, version: negotiatedVersion)
            propertiesRead()
            return .reply(.ok(data: dump))
        case .sdioSetExtDevicePropValue:
            return .reply(
                setProperty(code: SonyPropertyCode(rawValue: UInt16(truncatingIfNeeded: parameter(0))), data: dataOut))
        case .sdioControlDevice:
            return control(code: UInt16(truncatingIfNeeded: parameter(0)), data: dataOut, now: now)
        case .getObjectInfo:
            guard parameter(0) == SonyObjectHandle.stillImage, let buffered else {
                return .reply(CameraReply(.invalidObjectHandle))
            }
            return .reply(.ok(data: objectInfo(for: buffered)))
        case .getObject:
            return .reply(getObject(handle: parameter(0)))
        case .getPartialObject:
            return .reply(partialObject(handle: parameter(0), offset: UInt64(parameter(1)), maximum: parameter(2)))
        case SimulatorOperation.getPartialLargeObject:
            // p. 119: the offset as two u32 parameters (low, high); "all the rest" (0xFFFFFFFF) is not supported.
            guard parameter(3) != 0xFFFF_FFFF else { return .reply(CameraReply(.parameterNotSupported)) }
            let offset = UInt64(parameter(2)) << 32 | UInt64(parameter(1))
            return .reply(partialObject(handle: parameter(0), offset: offset, maximum: parameter(3)))
        default:
            return .reply(CameraReply(.operationNotSupported))
        }
    }

    // MARK: - Properties

    private mutating func setProperty(code: SonyPropertyCode, data: [UInt8]) -> CameraReply {
        guard let index = properties.firstIndex(where: { $0.code == code }) else {
            return CameraReply(.devicePropNotSupported)
        }
        let property = properties[index]
        guard let value = try? PTPValue(decoding: data, as: property.dataType) else {
            return CameraReply(.invalidDevicePropFormat)
        }
        // Protocol 2.00 bodies move the shutter speed only by notches (0x9207): an absolute set is answered
        // OK and ignored. libgphoto2 2.5 depends on this: after stepping it sends SetControlDeviceA 0xD20D
        // with a zero value and fails the whole set on any other answer.
        if code == .shutterSpeed && !negotiatedVersion.setsShutterSpeedAbsolutely {
            return CameraReply(.ok)
        }
        // speed-ignored-while-buffered: OK, and nothing changes while the body holds captures.
        if code == .shutterSpeed, quirks.speedIgnoredWhileBuffered, isBusyWithCaptures { return CameraReply(.ok) }
        // direct-set-refused / direct-set-ignored: a 3.00 body that only moves the shutter by notches.
        if code == .shutterSpeed, let directSet = quirks.directSet {
            switch directSet {
            case let .refused(response): return CameraReply(response)
            case .ignored: return CameraReply(.ok)
            }
        }
        guard property.isSettable else { return CameraReply(.accessDenied) }
        guard property.allows(value) else { return CameraReply(.invalidDevicePropValue) }
        setValue(value, at: index)
        return CameraReply(.ok)
    }

    private mutating func setValue(_ value: PTPValue, at index: Int) {
        guard properties[index].currentValue != value else { return }
        properties[index].currentValue = value
        propertyChanged(properties[index].code)
        // shutter-range:d229: 0xD229 follows the shutter speed.
        if properties[index].code == .shutterSpeed { setValue(value, of: QuirkProperty.shutterSpeedList) }
        // --scene: the meter (0xD1B5) follows the shutter speed.
        if properties[index].code == .shutterSpeed, let scene = configuration.scene {
            setValue(
                SceneMeter.value(scene: scene, shutter: SonyShutterValue(value)), of: SceneMeter.meteredManualLevel)
        }
    }

    /// Sets a property the body has (nothing happens for one it lacks), announcing a change.
    mutating func setValue(_ value: PTPValue, of code: SonyPropertyCode) {
        guard let index = properties.firstIndex(where: { $0.code == code }) else { return }
        setValue(value, at: index)
    }

    /// Marks a property changed for the next change-only read and queues its DevicePropChanged event.
    mutating func propertyChanged(_ code: SonyPropertyCode) {
        changed.insert(code)
        events.append(
            PTPEvent(code: .sonyDevicePropChanged, transactionID: 0xFFFF_FFFF, parameters: [UInt32(code.rawValue)]))
    }

    private mutating func applyStep(_ notches: Int) {
        guard let index = properties.firstIndex(where: { $0.code == .shutterSpeed }),
            let current = SonyShutterValue(properties[index].currentValue)
        else { return }
        let offered = properties[index].supportedValues.compactMap(SonyShutterValue.init)
        guard let target = SonyShutterStepping.value(after: notches, from: current, in: offered) else { return }
        setValue(target.ptpValue, at: index)
    }

    /// The mode dial turns: 0x500E changes, and the shutter speed is settable only in M and S.
    mutating func turnDial(to mode: SimulatedExposureMode) {
        setValue(.uint32(mode.sonyMode.rawValue), of: .exposureProgramMode)
        guard let index = properties.firstIndex(where: { $0.code == .shutterSpeed }) else { return }
        let supported = properties[index].supportedValues
        properties[index].enabled = mode.shutterIsSettable ? .on : .displayOnly
        properties[index].form = .enumeration(settable: mode.shutterIsSettable ? supported : [], supported: supported)
        propertyChanged(.shutterSpeed)
    }
}
