import CameraRemoteAPI
import Exposure
import Foundation
import LegacyCamera
import Posix
import ShootKit
import Shooting
import SonyCamera
import Timing

/// A camera the shoot commands drive, whichever protocol it speaks: the `RemoteCamera` the runner needs, plus
/// what the commands ask before and around a shoot (the connect with its backoff and the pre-shoot check, the
/// transfer set-up, `hdrshoot camera`'s report).
protocol CommandCamera: RemoteCamera {
    /// Connects with the camera's backoff (`say` hears each retry) and reads what the check needs.
    func connectAndCheck(say: @escaping @Sendable (String) -> Void) async throws -> CameraCheck
    /// The body's Long Exposure NR setting, when it reports one.
    var longExposureNR: Bool? { get async }
    /// Sets the body up for `choice` and says what crosses the link; returns whether images are downloaded.
    func prepareTransfer(choice: ShootConsole.TransferChoice, output: any OutputStreams) async throws -> Bool
    /// The most frames to fire ahead of the downloads, when the body holds fewer than the runner's default.
    nonisolated var bufferCapacity: Int? { get }
    /// Connects, reads `hdrshoot camera`'s report (text, or one JSON object), disconnects.
    func report(address: String, json: Bool) async throws -> String
    /// The protocol it speaks (known before it connects).
    nonisolated var remoteProtocol: CameraCapabilities.RemoteProtocol { get }
    /// The meter's reading in manual mode (EV × 1000 brighter than correct), nil when it reports none.
    func meteredManualLevel() async -> Int?
    /// Asks for small JPEGs over the link (`small`) or the originals; returns whether the body has the setting.
    func setSmallJPEGTransfer(_ small: Bool) async throws -> Bool
}

extension TransferSettings {
    /// The capabilities' save destination and transfer size from what the body reports.
    var capabilities: (CameraCapabilities.SaveDestination?, CameraCapabilities.TransferSize?) {
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
    func connectAndCheck(say: @escaping @Sendable (String) -> Void) async throws -> CameraCheck {
        try await connectRetrying { retry in say(ConnectText.retry(retry)) }
        // A shutter described as a range of no speeds: its real ends are found (or recalled) before any plan.
        if let found = try await learnShutterLimits() { say(ConnectText.shutterLimits(found)) }
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
    nonisolated var bufferCapacity: Int? { nil }

    /// Sony's PTP/IP.
    nonisolated var remoteProtocol: CameraCapabilities.RemoteProtocol { .ptpip }

    /// A body that keeps its images on its card is shot without downloads (said once, with what that means for
    /// attribution); `--transfer jpeg` asks for the JPEG only; `--transfer none` on a body that sends them is
    /// refused before anything fires.
    func prepareTransfer(choice: ShootConsole.TransferChoice, output: any OutputStreams) async throws -> Bool {
        let settings = transferSettings()
        if settings.destination == .camera {
            output.writeOut(
                "The camera saves to its card only (Still Img. Save Dest.: Camera Only): nothing is downloaded, and a "
                    + "frame counts as shot when the camera confirms its release; which file is which frame cannot be "
                    + "verified.\n")
            return false
        }
        switch choice {
        case .all:
            return true
        case .jpeg:
            let done = try await sendJPEGOnly()
            output.writeOut(
                done.isEmpty
                    ? "The camera has no setting to send only its JPEGs; every file it sends is downloaded.\n"
                    : "Only the JPEGs cross the Wi-Fi (\(done.joined(separator: ", "))); the RAW files stay on the card.\n"
            )
            return true
        case .none:
            throw ShootCommandError.transferNeedsCameraOnly
        }
    }

    func report(address: String, json: Bool) async throws -> String {
        do {
            try await connectRetrying()
            let info = try await info()
            await disconnect()
            return json ? try CameraReport.json(info) : CameraReport.text(info, address: address)
        } catch {
            await disconnect()
            throw error
        }
    }
}

// MARK: - Camera Remote API

extension LegacySonyCamera: CommandCamera {
    func connectAndCheck(say: @escaping @Sendable (String) -> Void) async throws -> CameraCheck {
        try await connectRetrying { retry in
            say(
                ConnectText.retry(
                    failure: retry.error, delay: retry.delay, attempt: retry.failedAttempt,
                    of: retry.maximumAttempts))
        }
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
    var longExposureNR: Bool? { nil }

    /// Sony's Camera Remote API.
    nonisolated var remoteProtocol: CameraCapabilities.RemoteProtocol { .cameraRemoteAPI }

    /// The API reports no meter reading.
    func meteredManualLevel() async -> Int? { nil }

    /// The API has no small-JPEG setting (its postview size is the body's menu choice).
    func setSmallJPEGTransfer(_ small: Bool) async throws -> Bool { false }

    /// A legacy body keeps only the picture it just took ready for download (its postview), so every frame is
    /// downloaded before the next fires: nothing waits in the camera when a run ends.
    nonisolated var bufferCapacity: Int? { 1 }

    /// The postview JPEG (full size) is what crosses the link; RAW files stay on the card. `--transfer none`
    /// downloads nothing (a frame counts as shot when the body answered its release).
    func prepareTransfer(choice: ShootConsole.TransferChoice, output: any OutputStreams) async throws -> Bool {
        switch choice {
        case .all, .jpeg:
            if choice == .jpeg || transferSettings().smallJPEG == true {
                output.writeOut(
                    "The Camera Remote API sends each picture's JPEG\(transferSettings().smallJPEG == true ? " (a reduced one: the camera kept its postview size)" : ""); "
                        + "RAW files stay on the card.\n")
            }
            return true
        case .none:
            output.writeOut(
                "Nothing is downloaded (--transfer none): a frame counts as shot when the camera answers its release; "
                    + "which file is which frame cannot be verified.\n")
            return false
        }
    }

    func report(address: String, json: Bool) async throws -> String {
        do {
            try await connectRetrying()
            let info = try await info()
            await disconnect()
            return json ? try CameraReport.json(info) : CameraReport.text(info, address: address)
        } catch {
            await disconnect()
            throw error
        }
    }
}

extension [CameraShutterSpeed] {
    /// The timed speeds among the settings (BULB left out).
    var timedSpeeds: [ShutterSpeed] {
        compactMap { setting in
            if case .timed(let speed) = setting { return speed }
            return nil
        }
    }
}

// MARK: - A bare host

/// Which protocol a bare host (`--camera 192.168.122.1`) speaks: PTP/IP first (a connection to its port is
/// accepted), then the Camera Remote API (`getVersions` answers on 8080, then 10000).
enum ProtocolProbe {
    /// What answered, and the sentence that says so.
    struct Found: Sendable {
        /// The camera to use.
        var target: CameraTarget
        /// `Found Sony's PTP/IP at 192.168.122.1.`
        var sentence: String
    }

    /// The ports the Camera Remote API is tried on, in order.
    static let remoteAPIPorts = [LegacySonyCameraConfiguration.defaultPort, LegacySonyCameraConfiguration.builtInPort]

    /// Probes `host` (a numeric address; a name is left to PTP/IP's own connect); nil when nothing answered (the
    /// caller then connects over PTP/IP with its retries, as before, so a camera still waking up is waited for).
    static func find(
        host: String, ptpipPort: UInt16, remoteAPIPorts: [UInt16] = Self.remoteAPIPorts,
        timeout: Duration = .seconds(3), clock: any Clock<Duration> = ContinuousClock()
    ) async -> Found? {
        guard let ptpip = SocketAddress(numericHost: host, port: ptpipPort) else { return nil }
        let shown = host.contains(":") ? "[\(host)]" : host
        if await accepts(ptpip, timeout: timeout, clock: clock) {
            return Found(
                target: .address(CameraAddress(host: host, port: ptpipPort)),
                sentence: "Found Sony's PTP/IP remote protocol at \(shown).")
        }
        for port in remoteAPIPorts {
            let endpoint = RemoteURL(host: host, port: port, path: "/sony/camera")
            guard let client = try? CameraRemoteAPIClient(endpoint: endpoint, clock: clock, callTimeout: timeout)
            else { continue }
            defer { client.close() }
            if (try? await client.getVersions()) != nil {
                let url = "http://\(endpoint.authority)"
                return Found(
                    target: .remoteAPI(url),
                    sentence: "No PTP/IP at \(shown); found Sony's Camera Remote API at \(url).")
            }
        }
        return nil
    }

    /// Whether a TCP connection to `address` is accepted within `timeout` (closed at once).
    private static func accepts(_ address: SocketAddress, timeout: Duration, clock: any Clock<Duration>) async -> Bool {
        guard let socket = try? Socket(family: address.family) else { return false }
        defer { socket.close() }
        do {
            try await withTimeout(after: timeout, on: clock, throwing: SocketFailure.timedOut) {
                try await socket.connect(to: address)
            }
            return true
        } catch {
            return false
        }
    }
}

extension CameraAddress {
    /// Whether `text` names a port (`host:port`, `[v6]:port`); a bare IPv6 address has none.
    static func hasPort(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("[") { return trimmed.contains("]:") }
        return trimmed.filter { $0 == ":" }.count == 1
    }
}
