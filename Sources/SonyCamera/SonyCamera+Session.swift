import PTPIP
import PTPIPCodec
import Posix
import SonyProtocol
import Timing

extension SonyCamera {
    /// The SDIO protocol version hdrshoot speaks, sent as SDIO_GetExtDeviceInfo's parameter (3.00).
    static let hostProtocolVersion = UInt32(SonyProtocolVersion.v3_00.rawValue)

    /// Connects and runs Sony's start-up: OpenSession, GetDeviceInfo (Sony only), SDIO_Connect 1 and 2,
    /// SDIO_GetExtDeviceInfo (polled while empty), SDIO_Connect 3, the first 0x9209 dump (polled until
    /// readable), then 0xD25A set to PC-remote priority when the body lets us.
    func startSession() async throws {
        var clientConfiguration = PTPIPClient.Configuration(identity: configuration.identity)
        clientConfiguration.connectTimeout = configuration.connectTimeout
        clientConfiguration.operationTimeout = configuration.operationTimeout
        clientConfiguration.disconnectTimeout = configuration.disconnectTimeout
        clientConfiguration.observer = configuration.ptpipObserver
        clientConfiguration.onAwaitingPairing = configuration.onAwaitingPairing
        clientConfiguration.pairingHint = configuration.pairingHint
        clientConfiguration.pairingWait = configuration.pairingWait
        clientConfiguration.onPairingCountdown = configuration.onPairingCountdown
        clientConfiguration.pairingTick = configuration.pairingTick
        let client: PTPIPClient
        if let connector = configuration.connector {
            client = try await PTPIPClient.connect(
                address: configuration.address, configuration: clientConfiguration, clock: clock, connector: connector)
        } else {
            client = try await PTPIPClient.connect(
                host: configuration.host, port: configuration.port, configuration: clientConfiguration)
        }
        // Owned by the link: cancelled and awaited in `tearDown()`. Inside a deterministic world, on its executor
        // like every task of the process (`TaskPlacement`).
        let pump = Task(executorPreference: TaskPlacement.preferred) { [weak self] in
            guard let self else { return }
            await Self.pumpEvents(from: client, into: self)
        }
        state = .starting(Link(client: client, eventPump: pump, keepalive: nil, session: SessionState(clock: clock)))

        do {
            try await client.openSession(id: 1)
        } catch {
            throw SonyCameraError.wrap(error, during: "OpenSession")
        }
        let info = try await run(.getDeviceInfo, during: "GetDeviceInfo")
        let device: DeviceInfo
        do {
            device = try DeviceInfo(decoding: info.data)
        } catch {
            throw SonyCameraError.malformedData(what: "device information (GetDeviceInfo)", reason: "\(error)")
        }
        guard device.isSony, device.supports(.sdioGetExtDeviceInfo), device.supports(.sdioGetAllExtDevicePropInfo)
        else {
            throw SonyCameraError.notSonyCamera(manufacturer: device.manufacturer, model: device.model)
        }
        try changeLink { $0.deviceInfo = device }

        let started = Stopwatch(clock: clock)
        try await whileStarting(started) {
            try await $0.run(.sdioConnect, [SonyConnectPhase.first.rawValue, 0, 0], during: "SDIO_Connect phase 1")
        }
        try await whileStarting(started) {
            try await $0.run(.sdioConnect, [SonyConnectPhase.second.rawValue, 0, 0], during: "SDIO_Connect phase 2")
        }
        let extDeviceInfo = try await readExtDeviceInfo(started: started)
        try changeLink { $0.extDeviceInfo = extDeviceInfo }
        try await whileStarting(started) {
            try await $0.run(.sdioConnect, [SonyConnectPhase.third.rawValue, 0, 0], during: "SDIO_Connect phase 3")
        }
        let announcedBeforeRead = session.images.objectsAdded
        try await readFirstProperties(started: started)
        // The full dump says whether an earlier session left images in the buffer (it ended between a
        // release and the download): `nextImage` fetches them, the runner files them by their EXIF.
        session.images.claim(upTo: announcedBeforeRead)
        session.shutterControl = extDeviceInfo.protocolVersion.setsShutterSpeedAbsolutely ? .direct : .stepping
        try await claimRemotePriority()
        guard case var .starting(link) = state else { throw try stateError() }
        if let interval = configuration.keepaliveInterval {
            // Owned by the link: cancelled and awaited in `tearDown()`.
            link.keepalive = Task(executorPreference: TaskPlacement.preferred) { [weak self, clock] in
                await Self.keepAlive(self, every: interval, on: clock)
            }
        }
        // Bodies that ignore early releases count from the end of the start-up (or later): so does the re-press.
        link.session.started = Stopwatch(clock: clock)
        state = .ready(link)
        publish(properties.shootingFileInfo?.hasImages == true ? .saving : .idle)
    }

    /// Why the start-up cannot go on after an `await` found the state changed.
    private func stateError() throws -> SonyCameraError {
        if case let .lost(_, reason) = state { return reason }
        return .notConnected
    }

    /// SDIO_GetExtDeviceInfo, asked again (after a short pause) while the body answers with no data.
    private func readExtDeviceInfo(started: Stopwatch) async throws -> SonyExtDeviceInfo {
        while true {
            let result = try await whileStarting(started) {
                try await $0.run(.sdioGetExtDeviceInfo, [Self.hostProtocolVersion], during: "SDIO_GetExtDeviceInfo")
            }
            if !result.data.isEmpty {
                do {
                    return try SonyExtDeviceInfo(decoding: result.data)
                } catch {
                    throw SonyCameraError.malformedData(
                        what: "extended device information (0x9202)", reason: "\(error)")
                }
            }
            try await pauseWhileStarting(started: started)
        }
    }

    /// The first full 0x9209 dump, asked again while it lacks the shutter speed or the exposure mode
    /// (bodies need a moment after connecting before their settings are readable).
    private func readFirstProperties(started: Stopwatch) async throws {
        while true {
            try await whileStarting(started) { try await $0.refreshProperties(full: true) }
            if properties[.shutterSpeed] != nil, properties[.exposureProgramMode] != nil { return }
            try await pauseWhileStarting(started: started)
        }
    }

    /// Runs one step of the start-up; a body that stays busy (some are after a connect) is asked again with a
    /// growing pause until `propertiesReadyTimeout` since the session started, on top of `run`'s own retries.
    @discardableResult
    private func whileStarting<T: Sendable>(
        _ started: Stopwatch, _ step: (isolated SonyCamera) async throws -> T
    ) async throws -> T {
        var pause = configuration.startupBusyPauses.lowerBound
        while true {
            do {
                return try await step(self)
            } catch let error as SonyCameraError {
                guard case .deviceBusy = error, started.elapsed + pause < configuration.propertiesReadyTimeout else {
                    throw error
                }
                try await clock.sleep(for: pause)
                pause = min(pause * 2, configuration.startupBusyPauses.upperBound)
            }
        }
    }

    /// Waits for an event or the poll interval, failing once the start-up has taken too long.
    private func pauseWhileStarting(started: Stopwatch) async throws {
        let left = started.remaining(of: configuration.propertiesReadyTimeout)
        guard left > .zero else {
            var missing: [String] = []
            if extDeviceInfo != nil, !properties.codes.isEmpty {
                if properties[.shutterSpeed] == nil { missing.append("shutter speed (0xD20D)") }
                if properties[.exposureProgramMode] == nil { missing.append("exposure mode (0x500E)") }
            }
            throw SonyCameraError.propertiesNotReadable(waited: configuration.propertiesReadyTimeout, missing: missing)
        }
        _ = try await waitForEvent(after: doorbell.generation, timeout: min(left, configuration.propertiesPollInterval))
    }

    /// Sets 0xD25A to PC-remote priority when it is settable and not already so.
    ///
    /// Best effort, and confirmed by the next 0x9209 read rather than one of its own: that read (the first
    /// shutter read-back) comes anyway and carries the change, which saves a round trip per session.
    private func claimRemotePriority() async throws {
        guard let descriptor = properties[.priorityKeySettings], descriptor.isSettable,
            properties.priorityKey != .pcRemote,
            let value = PTPValue.integer(Int64(SonyPriorityKey.pcRemote.rawValue), as: descriptor.dataType),
            descriptor.allows(value)
        else { return }
        do {
            try await run(
                .sdioSetExtDevicePropValue, [UInt32(SonyPropertyCode.priorityKeySettings.rawValue)],
                sending: value.encoded,
                during: "setting PC-remote priority (0xD25A)")
        } catch let error as SonyCameraError where !error.isConnectionLost {
            // Best effort: a body that stays busy or refuses still takes remote commands for what it allows.
            return
        }
    }

    // MARK: - Properties

    /// Reads 0x9209 (everything, or only what changed) into the property table; returns the changed codes.
    @discardableResult
    func refreshProperties(full: Bool) async throws -> [SonyPropertyCode] {
        guard let version = extDeviceInfo?.protocolVersion else { throw SonyCameraError.notConnected }
        let hintsBefore = session.changedHints
        let result = try await run(
            .sdioGetAllExtDevicePropInfo,
            [full ? SonyPropertyDumpScope.allProperties : SonyPropertyDumpScope.changedPropertiesOnly],
            during: "reading the camera's settings (0x9209)")
        let dump: SonyPropertyDump
        do {
            dump = try SonyPropertyDump(decoding: result.data, protocolVersion: version)
        } catch {
            throw SonyCameraError.malformedData(what: "property dump (0x9209)", reason: "\(error)")
        }
        // The dump holds every change announced before the request, and the latest value of every code
        // it reports: hints for those are answered. Hints for other codes that came in meanwhile stay.
        session.changedHints.subtract(hintsBefore)
        session.changedHints.subtract(dump.descriptors.map(\.code.rawValue))
        session.downloadedSinceRead = false
        let changed: [SonyPropertyCode]
        if full {
            session.changedHints.removeAll()
            session.bufferUnread = false
            changed = try changeLink {
                $0.properties = SonyPropertyTable(dump)
                return $0.properties.codes
            }
        } else {
            changed = try changeLink { $0.properties.apply(dump) }
        }
        return changed
    }

    /// Property codes whose change makes the model's answers to queries stale: the mode dial, the shutter
    /// speed, and "something changed" (an event without a code).
    static let queriedCodes: Set<UInt16> = [
        SonyPropertyCode.exposureProgramMode.rawValue, SonyPropertyCode.shutterSpeed.rawValue, 0
    ]

    /// Refreshes only when the event channel reported a change to the mode or the shutter speed since the
    /// last read (no round trip otherwise; other properties are read where they matter).
    func refreshIfChanged() async throws {
        _ = try requireClient()
        if !session.changedHints.isDisjoint(with: Self.queriedCodes) { try await refreshProperties(full: false) }
    }
}
