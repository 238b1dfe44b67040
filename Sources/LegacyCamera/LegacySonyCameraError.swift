import CameraRemoteAPI
import Shooting

/// Why driving a legacy body over the Camera Remote API failed: the one error of the LegacyCamera layer,
/// classified for the runner (`RemoteCameraError`).
///
/// A transient error (`busy`) always means the shutter did not fire; once a release may have fired, failures
/// are connection-lost (the image is looked for after the reconnect) or permanent. Sets that fail now and
/// then are retried inside this layer (`setRetry`), so what reaches the caller is final.
package enum LegacySonyCameraError: Error, Sendable, Equatable, CustomStringConvertible, RemoteCameraError {
    /// Every connection attempt failed; `last` is the final attempt's error.
    case connectFailed(address: String, attempts: Int, last: CameraRemoteAPIError)
    /// The host or network is unreachable: not retried, this computer is not on the camera's network.
    case unreachable(address: String, underlying: CameraRemoteAPIError)
    /// Something answers at the address, but not the Camera Remote API's `camera` service.
    case notRemoteAPI(address: String, reason: String)
    /// After startRecMode the body never listed the shooting methods (`missing`) within `waited`.
    case notReadyToShoot(waited: Duration, missing: [String])
    /// An operation was called while no session is open.
    case notConnected
    /// The connection broke while doing `during`.
    case connectionLost(during: String, underlying: CameraRemoteAPIError)
    /// The body said it is busy (not ready, service unavailable) to `operation`; nothing fired.
    case busy(operation: String, underlying: CameraRemoteAPIError)
    /// The body refused `operation`, or answered it in a way this layer cannot use.
    case operationFailed(operation: String, underlying: CameraRemoteAPIError)
    /// The exposure mode is not one hdrshoot can name (`Intelligent Auto`, `Superior Auto`, movie...).
    case unsupportedMode(current: String)
    /// The body does not offer `requested` now; `available` lists what it offers.
    case shutterSpeedNotOffered(requested: String, available: [String])
    /// setShutterSpeed kept failing with a transient error, `attempts` times.
    case shutterSpeedSetFailed(requested: String, attempts: Int, last: CameraRemoteAPIError)
    /// The body kept reporting `reported` instead of `requested` after `attempts` sets.
    case shutterSpeedNotConfirmed(requested: String, reported: String, attempts: Int)
    /// BULB with Auto ISO: bodies refuse startBulbShooting then (Bloodevil/sony_camera_api#52).
    case bulbNeedsFixedISO(current: String)
    /// The release fired but the body gave no picture within `waited` (the shutter may have fired).
    case captureTimedOut(waited: Duration)
    /// The release fired but the body answered no postview URL.
    case noPicture(operation: String)
    /// Writing an image to disk failed.
    case fileWriteFailed(path: String, reason: String)

    /// Whether trying the same step again later may succeed: only a busy body that did not fire.
    package var isTransient: Bool {
        if case .busy = self { return true }
        return false
    }

    /// Whether the connection is gone (reconnecting may help).
    package var isConnectionLost: Bool {
        switch self {
        case .connectFailed, .connectionLost, .notConnected: true
        default: false
        }
    }

    /// One line a person can act on.
    package var description: String {
        switch self {
        case let .connectFailed(address, attempts, last):
            let tries = CameraLinkSentences.attempts(attempts)
            return "could not reach the camera's Camera Remote API at \(address) after \(tries) (last: \(last)); "
                + "check that the camera runs 'Smart Remote Control' (or 'Ctrl w/ Smartphone'), that this computer "
                + "has joined the camera's Wi-Fi, and the address"
        case let .unreachable(address, underlying):
            return CameraLinkSentences.unreachable(address: address, underlying: underlying)
        case let .notRemoteAPI(address, reason):
            return "\(address) does not answer as Sony's Camera Remote API (\(reason)); check the address and port "
                + "(8080 for 'Smart Remote Control', 10000 for the built-in API)"
        case let .notReadyToShoot(waited, missing):
            return "the camera did not offer \(missing.joined(separator: ", ")) within \(Self.format(waited)) of "
                + "startRecMode; close and reopen 'Smart Remote Control' on the camera and try again"
        case .notConnected:
            return CameraLinkSentences.notConnected
        case let .connectionLost(during, underlying):
            return CameraLinkSentences.connectionLost(during: during, underlying: underlying)
        case let .busy(operation, underlying):
            return "the camera was busy: \(operation) answered \(Self.short(underlying))"
        case let .operationFailed(operation, underlying):
            return "the camera refused \(operation): \(Self.short(underlying))"
        case let .unsupportedMode(current):
            return "the camera's exposure mode is \(current); turn the mode dial to M (manual) or S (shutter priority)"
        case let .shutterSpeedNotOffered(requested, available):
            let offered = available.isEmpty ? "none" : available.joined(separator: " ")
            return "the camera does not offer \(requested) now (it offers: \(offered)); check its mode and settings"
        case let .shutterSpeedSetFailed(requested, attempts, last):
            return "the camera refused the shutter speed \(requested) \(attempts) times (last: \(Self.short(last))); "
                + "check its screen"
        case let .shutterSpeedNotConfirmed(requested, reported, attempts):
            return "the camera kept reporting \(reported) after \(attempts) sets of \(requested); check its screen"
        case let .bulbNeedsFixedISO(current):
            return "BULB exposures need a fixed ISO and the camera is on ISO \(current); set ISO to a number "
                + "(100, 200, ...) on the camera and run the shoot again"
        case let .captureTimedOut(waited):
            return "the camera gave no picture within \(Self.format(waited)) of the shutter release; check its screen "
                + "and memory card"
        case let .noPicture(operation):
            return "the camera answered \(operation) without a picture; check its memory card"
        case let .fileWriteFailed(path, reason):
            return "cannot write \(path): \(reason)"
        }
    }

    /// The camera's own error in a few words: `camera error 40401 (Camera Not Ready)`.
    private static func short(_ error: CameraRemoteAPIError) -> String {
        if case let .api(code, message, _) = error { return "camera error \(code.rawValue) (\(message))" }
        return error.description
    }

    private static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return milliseconds < 1000 ? "\(milliseconds) ms" : "\(Double(milliseconds) / 1000) s"
    }
}
