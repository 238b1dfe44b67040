import CameraRemoteAPI
import Exposure
import LegacyCamera
import PTPIP
import ShootKit
import SonyCamera

/// The lines of connecting and reconnecting: where to, why an attempt failed (in a few words, never a chain of
/// "(last: …)"), and what comes next.
enum ConnectText {
    /// `Connecting to 192.168.122.1…` (the port only when it is not PTP/IP's 15740).
    static func connecting(to address: String) -> String {
        if address == CameraTarget.simulatorAddress { return "Connecting to the built-in simulated camera…" }
        if address == CameraTarget.apiSimulatorAddress {
            return "Connecting to the built-in simulated camera (Camera Remote API)…"
        }
        if address.hasPrefix("http://") { return "Connecting to \(address) (Camera Remote API)…" }
        let suffix = ":\(PTPIPClient.defaultPort)"
        let shown = address.hasSuffix(suffix) ? String(address.dropLast(suffix.count)) : address
        let host = shown.hasPrefix("[") && shown.hasSuffix("]") ? String(shown.dropFirst().dropLast()) : shown
        return "Connecting to \(host)…"
    }

    /// The body holds its Init Command Ack for the photographer's OK on its pairing screen (reference p. 41):
    /// `Press OK on the camera to allow pairing with 'hdrshoot@studio' (waiting up to 2 min; Ctrl-C stops)`.
    static func awaitingPairing(name: String, wait: Duration) -> String {
        "Press OK on the camera to allow pairing with '\(name)' (waiting up to \(ShootText.duration(wait)); "
            + "Ctrl-C stops)"
    }

    /// The pairing wait counted down: `Press OK on the camera: 1:45 left`.
    static func pairingCountdown(left: Duration) -> String {
        "Press OK on the camera: \(ShootText.clock(ShootText.seconds(left))) left"
    }

    /// What a body that lists no shutter speeds was found to reach, stepped toward the plan's fastest and slowest
    /// speeds (without a plan, Sony's widest series): `The camera lists no shutter speeds; stepped the shutter to
    /// see: it reaches from 1/8 to 1/4000 (kept for this camera's next shoot).`
    static func shutterLimits(slowest: ShutterSpeed, fastest: ShutterSpeed, remembered: Bool) -> String {
        let range = "\(slowest.label) to \(fastest.label)"
        return remembered
            ? "The camera lists no shutter speeds; it reaches from \(range), as found on an earlier shoot."
            : "The camera lists no shutter speeds; stepped the shutter to see: it reaches from \(range) (kept "
                + "for this camera's next shoot)."
    }

    /// `no answer (connection refused); trying again in 5 s (attempt 2 of 4)`.
    static func retry(_ retry: SonyCamera.ConnectRetry) -> String {
        Self.retry(failure: retry.error, delay: retry.delay, attempt: retry.failedAttempt, of: retry.maximumAttempts)
    }

    /// The same line for any camera's failed attempt `attempt` of `maximum`.
    static func retry(failure error: any Error, delay: Duration, attempt: Int, of maximum: Int) -> String {
        "\(failure(error)); trying again in \(ShootText.duration(delay)) (attempt \(attempt + 1) of \(maximum))"
    }

    /// The line of one connect step: `Connecting to …`, a retry with its wait, `Connected to …`.
    static func line(_ progress: ConnectProgress) -> String {
        switch progress {
        case .connecting(let address): connecting(to: address)
        case .retrying(let attempt): retry(attempt)
        case let .shutterLimits(slowest, fastest, remembered):
            shutterLimits(slowest: slowest, fastest: fastest, remembered: remembered)
        case .connected(let model): "Connected to \(model.isEmpty ? "the camera" : model)."
        }
    }

    /// A failed connection attempt in a few words: `no answer (connection refused)`, `the camera is busy`.
    static func failure(_ error: any Error) -> String {
        if let cause = remoteAPICause(error) {
            return ["connection refused", "timed out", "the camera closed the connection"].contains(cause)
                ? "no answer (\(cause))" : cause
        }
        guard let ptp = innermost(error) else { return HDRShoot.message(for: error) }
        return ptp.isNoAnswer ? "no answer (\(ptp.connectCause))" : ptp.connectCause
    }

    /// Why a connection failed, without the wrappers' advice: `connection refused`, `timed out` (for PTP/IP, its
    /// table's `connectCause`).
    static func cause(_ error: any Error) -> String {
        if let cause = remoteAPICause(error) { return cause }
        return innermost(error)?.connectCause ?? HDRShoot.message(for: error)
    }

    /// A Camera Remote API failure in a few words, if that is what `error` is.
    private static func remoteAPICause(_ error: any Error) -> String? {
        let api: CameraRemoteAPIError
        switch error {
        case let direct as CameraRemoteAPIError: api = direct
        case let LegacySonyCameraError.connectFailed(_, _, last): api = last
        case let LegacySonyCameraError.connectionLost(_, underlying): api = underlying
        case let LegacySonyCameraError.unreachable(_, underlying): api = underlying
        default: return nil
        }
        switch api {
        case .connectionRefused: return "connection refused"
        case .timedOut: return "timed out"
        case .connectionLost: return "the camera closed the connection"
        case .unreachable: return "no route to the camera"
        default: return api.description
        }
    }

    /// The PTP/IP failure under the camera layer's connection errors, if that is what `error` is.
    private static func innermost(_ error: any Error) -> PTPIPError? {
        if let ptp = error as? PTPIPError { return ptp }
        switch error as? SonyCameraError {
        case let .connectFailed(_, _, last)?: return last
        case let .unreachable(_, underlying)?: return underlying
        case let .connectionLost(_, underlying)?: return innermost(underlying)
        default: return nil
        }
    }
}
