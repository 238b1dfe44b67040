import Exposure
import LegacyCamera
import Shooting
import SonyCamera

/// A camera the shoot commands drive, whichever protocol it speaks: the `RemoteCamera` the runner needs, plus
/// what a shoot asks before and around its frames (the connect with its backoff and the pre-shoot check, the
/// transfer set-up, the body's own report).
package protocol CommandCamera: RemoteCamera {
    /// Connects with the camera's backoff (`progress` hears each retry) and reads what the check needs; `needs` is
    /// the span of speeds the shoot's plan uses (fastest ... slowest), when known, for a body that must be stepped
    /// to find what it reaches.
    func connectAndCheck(
        needing needs: ClosedRange<ShutterSpeed>?, progress: @escaping @Sendable (ConnectProgress) -> Void
    ) async throws -> CameraCheck
    /// The body's Long Exposure NR setting, when it reports one.
    var longExposureNR: Bool? { get async }
    /// Sets the body up for `choice`: whether images are downloaded, and what crosses the link.
    func prepareTransfer(choice: TransferChoice) async throws -> TransferSetup
    /// The most frames to fire ahead of the downloads, when the body holds fewer than the runner's default.
    nonisolated var bufferCapacity: Int? { get }
    /// Connects, reads what the body reports of itself (`hdrshoot camera`), disconnects.
    func readReport() async throws -> CameraReading
    /// The protocol it speaks (known before it connects).
    nonisolated var remoteProtocol: CameraCapabilities.RemoteProtocol { get }
    /// The meter's reading in manual mode (EV × 1000 brighter than correct), nil when it reports none.
    func meteredManualLevel() async -> Int?
    /// Asks for small JPEGs over the link (`small`) or the originals; returns whether the body has the setting.
    func setSmallJPEGTransfer(_ small: Bool) async throws -> Bool
}

/// What a body reports of itself, by protocol: a front end renders it (`hdrshoot camera`).
package enum CameraReading: Sendable {
    /// A PTP/IP body's report.
    case ptpip(SonyCameraInfo)
    /// A Camera Remote API body's report.
    case remoteAPI(LegacyCameraInfo)
}

extension TransferSettings {
    /// The capabilities' save destination and transfer size from what the body reports.
    package var capabilities: (CameraCapabilities.SaveDestination?, CameraCapabilities.TransferSize?) {
        let destination: CameraCapabilities.SaveDestination? =
            switch self.destination {
            case .host?: .computer
            case .camera?: .camera
            case .hostAndCamera?: .computerAndCamera
            case nil: nil
            }
        return (destination, smallJPEG.map { $0 ? .reduced : .original })
    }
}

// MARK: - PTP/IP

extension SonyCamera: CommandCamera {
    package func connectAndCheck(
        needing needs: ClosedRange<ShutterSpeed>?, progress: @escaping @Sendable (ConnectProgress) -> Void
    ) async throws -> CameraCheck {
        try await connectRetrying { progress(.retrying($0)) }
        // A shutter described as a range of no speeds: what it reaches of the plan's speeds is found (or recalled)
        // before the plan is matched to it.
        if let found = try await learnShutterLimits(needing: needs) {
            var remembered = false
            if case .remembered = found { remembered = true }
            progress(
                .shutterLimits(slowest: found.limits.slowest, fastest: found.limits.fastest, remembered: remembered))
        }
        let info = try await info()
        let settings = try await availableShutterSpeeds()
        var identity = self.identity
        if identity.model.isEmpty { identity.model = info.model }
        let (destination, size) = transferSettings().capabilities
        let capabilities = CameraCapabilities(
            remoteProtocol: remoteProtocol, protocolVersion: info.protocolVersion, saveDestination: destination,
            longExposureNR: longExposureNR, focusSettable: focusSettable, transferSize: size,
            bufferCapacity: bufferCapacity)
        return CameraCheck(
            identity: identity, capabilities: capabilities, blockers: info.blockers.map(ShootBlocker.camera),
            offered: settings.timedSpeeds, settings: settings, media: await mediaStatus())
    }

    /// A PTP/IP body's buffer holds many frames: the runner's default applies.
    package nonisolated var bufferCapacity: Int? { nil }

    /// Sony's PTP/IP.
    package nonisolated var remoteProtocol: CameraCapabilities.RemoteProtocol { .ptpip }

    /// A body that keeps its images on its card is shot without downloads (said once, with what that means for
    /// attribution); `--transfer jpeg` asks for the JPEG only; `--transfer none` on a body that sends them is
    /// refused before anything fires.
    package func prepareTransfer(choice: TransferChoice) async throws -> TransferSetup {
        let settings = transferSettings()
        if settings.destination == .camera { return TransferSetup(downloads: false, note: .cameraOnly) }
        switch choice {
        case .all:
            return TransferSetup(downloads: true)
        case .jpeg:
            let done = try await sendJPEGOnly()
            return TransferSetup(downloads: true, note: done.isEmpty ? .noJPEGOnlySetting : .jpegOnly(settings: done))
        case .none:
            throw ShootPreparationError.transferNeedsCameraOnly
        }
    }

    package func readReport() async throws -> CameraReading {
        try await visit(connect: { try await self.connectRetrying() }, read: { .ptpip(try await self.info()) })
    }
}

// MARK: - Camera Remote API

extension LegacySonyCamera: CommandCamera {
    package func connectAndCheck(
        needing needs: ClosedRange<ShutterSpeed>?, progress: @escaping @Sendable (ConnectProgress) -> Void
    ) async throws -> CameraCheck {
        try await connectRetrying { progress(.retrying($0)) }
        let info = try await info()
        let settings = try await availableShutterSpeeds()
        var identity = self.identity
        if identity.model.isEmpty { identity.model = "Sony camera (Camera Remote API)" }
        let (destination, size) = transferSettings().capabilities
        let capabilities = CameraCapabilities(
            remoteProtocol: remoteProtocol, protocolVersion: info.apiVersions.last, saveDestination: destination,
            transferSize: size, bufferCapacity: bufferCapacity)
        var check = CameraCheck(
            identity: identity, capabilities: capabilities, blockers: info.blockers.map(ShootBlocker.camera),
            offered: settings.timedSpeeds, settings: settings, media: mediaStatus())
        check.bulbRequirement = info.bulbRequirement.map(ShootBlocker.camera)
        return check
    }

    /// The API reports no Long Exposure NR setting.
    package var longExposureNR: Bool? { nil }

    /// Sony's Camera Remote API.
    package nonisolated var remoteProtocol: CameraCapabilities.RemoteProtocol { .cameraRemoteAPI }

    /// The API reports no meter reading.
    package func meteredManualLevel() async -> Int? { nil }

    /// The API has no small-JPEG setting (its postview size is the body's menu choice).
    package func setSmallJPEGTransfer(_ small: Bool) async throws -> Bool { false }

    /// A legacy body keeps only the picture it just took ready for download (its postview), so every frame is
    /// downloaded before the next fires: nothing waits in the camera when a run ends.
    package nonisolated var bufferCapacity: Int? { 1 }

    /// The postview JPEG (full size) is what crosses the link; RAW files stay on the card. `--transfer none`
    /// downloads nothing (a frame counts as shot when the body answered its release).
    package func prepareTransfer(choice: TransferChoice) async throws -> TransferSetup {
        switch choice {
        case .all, .jpeg:
            let reduced = transferSettings().smallJPEG == true
            let note: TransferNote? = choice == .jpeg || reduced ? .remoteAPIJPEG(reduced: reduced) : nil
            return TransferSetup(downloads: true, note: note)
        case .none:
            return TransferSetup(downloads: false, note: .nothingDownloaded)
        }
    }

    package func readReport() async throws -> CameraReading {
        try await visit(connect: { try await self.connectRetrying() }, read: { .remoteAPI(try await self.info()) })
    }
}

extension CommandCamera {
    /// One visit to the body (`readReport`): connects with `connect` (the body's backoff), reads, and disconnects
    /// whether the read succeeded or not.
    fileprivate func visit<Result: Sendable>(
        connect: @Sendable () async throws -> Void, read: @Sendable () async throws -> Result
    ) async throws -> Result {
        do {
            try await connect()
            let result = try await read()
            await disconnect()
            return result
        } catch {
            await disconnect()
            throw error
        }
    }
}

extension [CameraShutterSpeed] {
    /// The timed speeds among the settings (BULB left out).
    package var timedSpeeds: [ShutterSpeed] {
        compactMap { setting in
            if case .timed(let speed) = setting { return speed }
            return nil
        }
    }
}
