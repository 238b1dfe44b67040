import PTPIP
import Shooting
import SonyProtocol

/// Why talking to a Sony body failed: the one error of the SonyCamera layer.
///
/// Busy answers (DeviceBusy 0x2019) never escape as transient: this layer retries each busy operation
/// itself (see `SonyCameraConfiguration.busyRetry`), so what reaches the caller is final
/// (`.deviceBusy` after the last attempt, not transient). Lost connections are flagged with
/// `isConnectionLost` so the runner can reconnect.
package enum SonyCameraError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every connection attempt failed; `last` is the final attempt's error.
    case connectFailed(address: String, attempts: Int, last: PTPIPError)
    /// The host or network is unreachable: not retried, the host is not on the camera's network.
    case unreachable(address: String, underlying: PTPIPError)
    /// The device answered PTP/IP but is not a Sony camera with Sony's remote protocol.
    case notSonyCamera(manufacturer: String, model: String)
    /// An operation was called while no session is open.
    case notConnected
    /// The connection broke while doing `during`.
    case connectionLost(during: String, underlying: PTPIPError)
    /// The camera kept answering DeviceBusy to `operation`, `attempts` times.
    case deviceBusy(operation: String, attempts: Int)
    /// The camera refused an operation with a response code other than busy.
    case operationFailed(operation: String, response: String)
    /// A half-press in focus mode `mode` did not lock focus (`waited` nil: the camera said "not focused").
    case focusFailed(mode: String, waited: Duration?)
    /// The release's images all record an exposure other than the frame's (`expected`); they are kept (`kept`).
    case imageNotThisFrame(expected: String, found: [String], kept: [String])
    /// The camera said there is no image at the handle asked for (InvalidObjectHandle, 0x2009).
    case noImageAtHandle(operation: String)
    /// The camera sent bytes this layer cannot decode.
    case malformedData(what: String, reason: String)
    /// SDIO_GetExtDeviceInfo or the property dump stayed empty or incomplete for `waited`; `missing` names
    /// what the camera never reported (empty: it reported nothing at all).
    case propertiesNotReadable(waited: Duration, missing: [String] = [])
    /// The mode dial is not on M or S; `current` is the camera's name for the mode (`A`, `P`, ...).
    case unsupportedMode(current: String)
    /// The camera does not offer `requested` now; `available` lists what it offers.
    case shutterSpeedNotOffered(requested: String, available: [String])
    /// The camera kept reporting `reported` instead of `requested` after `attempts` sets.
    case shutterSpeedNotConfirmed(requested: String, reported: String, attempts: Int)
    /// A protocol 2.00 body did not move its shutter speed (stuck at `stuckAt`) when stepped toward `requested`.
    case shutterSpeedRejected(requested: String, stuckAt: String)
    /// No image appeared within `waited` after the shutter release.
    case captureTimedOut(waited: Duration)
    /// The camera still reported images waiting (0xD215 = `fileInfo`) after `waited` of fetching.
    case imagesStillWaiting(fileInfo: SonyShootingFileInfo, waited: Duration)
    /// Writing an image to disk failed.
    case fileWriteFailed(path: String, reason: String)
    /// The disk holding `folder` has `available` bytes free and the next image needs `needed`: it was not fetched
    /// (the camera keeps it).
    case diskFull(folder: String, available: Int, needed: Int)
    /// A camera's device description (discovery's HTTP fetch) could not be read.
    case descriptionUnreadable(DescriptionFetchFailure)
    /// A shutter release showed no sign of firing (no captured event, no image, no count moving) within the
    /// exposure and the processing margin: nothing fired.
    case releaseIgnored(waited: Duration)

    /// Whether the same step may succeed if tried again later. Busy is retried inside this layer, so no case is.
    package var isTransient: Bool { false }

    /// Whether the camera answered with a refusal (rather than not doing what it said it did).
    var isRefusal: Bool {
        if case .operationFailed = self { return true }
        return false
    }

    /// Whether a release certainly fired nothing.
    package var isReleaseIgnored: Bool {
        if case .releaseIgnored = self { return true }
        return false
    }

    /// Whether the body answered S2 down "device busy" through every retry (`press`'s operation name): the
    /// shutter button was never taken, so nothing fired (a body that holds no release while images wait in its
    /// buffer answers so, as the `busy-while-buffered` quirk does).
    package var isReleaseRefused: Bool {
        if case let .deviceBusy(operation, _) = self { return operation.hasPrefix("S2 down") }
        return false
    }

    /// Whether only a power cycle lets the body take a session again: it closed the connection at Init Command
    /// Request, as a body still holding a dropped session does (no attempt was retried).
    package var needsThePhotographer: Bool {
        if case let .connectFailed(_, _, last) = self { return last.isClosedAtInitCommand }
        // A full disk: nothing more can be saved until space is freed.
        if case .diskFull = self { return true }
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
            return "could not connect to the camera at \(address) after \(tries) (last: \(last)); check that the "
                + "camera's 'Ctrl w/ Smartphone' (or 'PC Remote') is on, that this computer has joined the camera's "
                + "Wi-Fi, and the address"
        case let .unreachable(address, underlying):
            return CameraLinkSentences.unreachable(address: address, underlying: underlying)
        case let .notSonyCamera(manufacturer, model):
            let who = [manufacturer, model].filter { !$0.isEmpty }.joined(separator: " ")
            if manufacturer.localizedCaseInsensitiveContains("sony") {
                return
                    "\(who) answers PTP/IP but does not offer Sony's remote shooting protocol; turn on 'Ctrl w/ Smartphone' "
                    + "(or 'PC Remote' over Wi-Fi) in its menu"
            }
            return "the device (\(who.isEmpty ? "unnamed" : who)) is not a Sony camera with remote control over PTP/IP"
        case .notConnected:
            return CameraLinkSentences.notConnected
        case let .connectionLost(during, underlying):
            return CameraLinkSentences.connectionLost(during: during, underlying: underlying)
        case let .deviceBusy(operation, attempts):
            return "the camera stayed busy: \(operation) was answered 'device busy' \(attempts) times"
        case let .operationFailed(operation, response):
            return "the camera refused \(operation): \(response)"
        case let .focusFailed(mode, waited):
            let how = waited.map { "did not lock within \(Self.format($0))" } ?? "found nothing to focus on"
            return
                "the camera's autofocus (\(mode)) \(how); nothing was shot. Focus by hand and set the camera or lens to "
                + "MF, or aim at something with contrast, then try again"
        case let .imageNotThisFrame(expected, found, kept):
            let what = found.isEmpty ? "another exposure" : found.joined(separator: ", ")
            return
                "the camera delivered \(what) where \(expected) was shot; kept as \(kept.joined(separator: ", ")) and not "
                + "counted. Check the camera's shutter speed and run `hdrshoot resume` to shoot the frame again"
        case let .noImageAtHandle(operation):
            return "the camera had no image to give during \(operation) although it reported one waiting"
        case let .malformedData(what, reason):
            return "the camera sent unreadable \(what): \(reason)"
        case let .propertiesNotReadable(waited, missing) where !missing.isEmpty:
            return
                "the camera did not report its \(missing.joined(separator: " or its ")) within \(Self.format(waited)), "
                + "which hdrshoot needs to shoot; this body may not support remote shooting over Wi-Fi"
        case let .propertiesNotReadable(waited, _):
            return
                "the camera did not report its settings within \(Self.format(waited)); restart its remote mode and try again"
        case let .unsupportedMode(current):
            return "the camera is in mode \(current); turn the mode dial to M (manual) or S (shutter priority)"
        case let .shutterSpeedNotOffered(requested, available):
            let list = available.isEmpty ? "none" : available.joined(separator: ", ")
            return "the camera does not offer shutter speed \(requested) now (it offers: \(list))"
        case let .shutterSpeedNotConfirmed(requested, reported, attempts):
            return "the camera still reports \(reported) after setting \(requested) \(attempts) times"
        case let .shutterSpeedRejected(requested, stuckAt):
            return "the camera would not move its shutter speed from \(stuckAt) toward \(requested)"
        case let .captureTimedOut(waited):
            return
                "no image arrived within \(Self.format(waited)) after the shutter release; check the card and the camera's screen"
        case let .imagesStillWaiting(fileInfo, waited):
            let count = fileInfo.imagesWaiting
            return "the camera still reports \(count == 1 ? "an image" : "\(count) images") waiting to be fetched "
                + "(0xD215 = \(fileInfo)) after \(Self.format(waited)); check its screen"
        case let .fileWriteFailed(path, reason):
            return "cannot write \(path): \(reason)"
        case let .diskFull(folder, available, needed):
            return "the disk holding \(folder) is full (\(available) bytes free, the next image needs \(needed)); "
                + "nothing more was downloaded and the images wait in the camera: free some space, then run "
                + "`hdrshoot resume`"
        case let .releaseIgnored(waited):
            return "the camera showed no sign of firing within \(Self.format(waited)) of a shutter release; "
                + "check its screen (a full card or buffer, or a focus that does not lock)"
        case let .descriptionUnreadable(failure):
            return failure.description
        }
    }

    /// `2 s`, `0.3 s`, `1 min 30 s`: rounded to what a person reads (tenths below 10 s, whole seconds above).
    static func format(_ duration: Duration) -> String {
        let millis = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if millis < 10_000 {
            let tenths = (millis + 50) / 100
            return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(Double(tenths) / 10) s"
        }
        let seconds = (millis + 500) / 1000
        return seconds < 120 ? "\(seconds) s" : "\(seconds / 60) min" + (seconds % 60 == 0 ? "" : " \(seconds % 60) s")
    }

    /// This layer's error for a failure of the PTP/IP or SonyProtocol layer during `during`.
    static func wrap(_ error: any Error, during: String) -> any Error {
        if error is SonyCameraError || error is CancellationError { return error }
        if let ptp = error as? PTPIPError {
            switch ptp {
            case let .response(code, _) where code == .invalidObjectHandle:
                return SonyCameraError.noImageAtHandle(operation: during)
            case let .response(code, operation):
                return SonyCameraError.operationFailed(operation: "\(operation)", response: "\(code)")
            case .cancelled where Task.isCancelled:
                return CancellationError()
            default:
                // Timeouts, resets, EOF and protocol violations all leave the client closed.
                return SonyCameraError.connectionLost(during: during, underlying: ptp)
            }
        }
        if let sony = error as? SonyProtocolError {
            return SonyCameraError.malformedData(what: during, reason: "\(sony)")
        }
        return error
    }
}

extension SonyCameraError: RemoteCameraError {}
