import Exposure

/// Why the shooting layer stopped a frame or a run; camera errors are passed through unchanged.
package enum ShootingError: Error, Sendable, Equatable {
    /// The camera is in a mode where hdrshoot cannot set the shutter speed (needs M or S).
    case unsupportedMode(ShootingMode)
    /// The plan needs a speed the camera does not offer (and BULB cannot stand in for it).
    case speedUnavailable(ShutterSpeed)
    /// The camera did not report idle within `timeout` after capturing the frame at `position`.
    case idleTimeout(position: ShootPosition, timeout: Duration)
    /// The camera reported a fault while the frame at `position` was being saved.
    case cameraFault(code: UInt32, position: ShootPosition)
    /// The camera's status stream said the session is gone (or ended) during the frame at `position`.
    case disconnected(position: ShootPosition)
    /// A resume position outside the plan.
    case invalidResumePosition(ShootPosition)
    /// The connection dropped at each of `releases` shutter releases of the frame at `position` and no image
    /// of it was found after reconnecting: the run stops (resumable) rather than fire the frame again.
    case releaseKeepsDropping(position: ShootPosition, releases: Int)
    /// The frame at `position` fired `attempts` times (each release confirmed by the body) and no image of it
    /// ever arrived: the run stops (resumable) rather than fire it again and again.
    case imageNeverArrived(position: ShootPosition, attempts: Int)
    /// The frame at `position` was released `releases` times with no sign that it fired (no captured event, no
    /// image announced, no count moving) and no image of it was found in the camera: the run stops (resumable)
    /// rather than fire it blind again.
    case releaseUnproven(position: ShootPosition, releases: Int)
    /// The frame at `position` did not fire, or its image did not come, and the camera reports its memory card
    /// full (no shots left): nothing more can fire until the photographer makes room; the run stops (resumable).
    case cardFull(position: ShootPosition)

    /// Whether retrying the same step later may succeed. No shooting-layer error is.
    package var isTransient: Bool { false }
}

extension ShootingError: RemoteCameraError {
    /// Only `.disconnected` is a lost connection (auto-reconnect applies).
    package var isConnectionLost: Bool {
        if case .disconnected = self { return true }
        return false
    }
}

/// How the runner reacts to an error.
enum ErrorDisposition: Equatable {
    /// Transient: retry with backoff.
    case retry
    /// The connection is gone: auto-reconnect.
    case reconnect
    /// The caller cancelled.
    case cancelled
    /// Permanent: stop the run.
    case stop

    /// Classifies any error: `RemoteCameraError`s by their flags, cancellation as such, the rest as permanent.
    init(_ error: any Error) {
        if error is CancellationError {
            self = .cancelled
        } else if let camera = error as? any RemoteCameraError {
            self = camera.isConnectionLost ? .reconnect : (camera.isTransient ? .retry : .stop)
        } else {
            self = .stop
        }
    }
}
