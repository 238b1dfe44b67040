import Exposure
import Shooting

/// What a shoot learns from the camera before it is proposed: who it is, what it can do, what stops a shoot.
package struct CameraCheck: Sendable {
    /// Who it is (address as given, or `simulator`).
    package var identity: CameraIdentity
    /// What it can do: protocol, save destination, NR, focus, transfer size, buffer, metering.
    package var capabilities: CameraCapabilities
    /// What stops a shoot now.
    package var blockers: [ShootBlocker]
    /// The timed speeds it offers.
    package var offered: [ShutterSpeed]
    /// Every setting it offers (BULB included).
    package var settings: [CameraShutterSpeed]
    /// Its battery level and the shots left on its card, where it reports them.
    package var media = MediaStatus()

    /// What BULB frames need that the camera lacks now (a legacy body on Auto ISO), as a blocker; nil when
    /// nothing is missing. Only plans with bulb frames are blocked by it.
    package var bulbRequirement: ShootBlocker? = nil

    /// A check of what a camera reported.
    package init(
        identity: CameraIdentity, capabilities: CameraCapabilities, blockers: [ShootBlocker],
        offered: [ShutterSpeed], settings: [CameraShutterSpeed], media: MediaStatus = MediaStatus()
    ) {
        self.identity = identity
        self.capabilities = capabilities
        self.blockers = blockers
        self.offered = offered
        self.settings = settings
        self.media = media
    }

    /// Its Long Exposure NR setting (0xD15B), nil when it does not report one.
    package var longExposureNR: Bool? { capabilities.longExposureNR }

    /// Connects (with the camera's connect backoff) and reads the camera's report; errors pass through as they
    /// are (the front end gives them their text). `progress` hears the connect at once and each retry with its
    /// wait (so the backoff's 17 s are never silent), then the body connected. `needs`: the span of speeds the
    /// shoot's plan uses (fastest ... slowest), when known before the camera is (a body that lists no speeds is
    /// stepped only that far).
    package static func connect(
        _ camera: any CommandCamera, address: String, needing needs: ClosedRange<ShutterSpeed>? = nil,
        progress: @escaping @Sendable (ConnectProgress) -> Void = { _ in }
    ) async throws -> CameraCheck {
        progress(.connecting(address: address))
        var check = try await camera.connectAndCheck(needing: needs) { step in
            // The shutter's ends found (or recalled) are a learned limit: a typed record in the session log.
            if case let .shutterLimits(slowest, fastest, remembered) = step {
                SessionLogging.record(
                    learned: .shutterRange(slowest: slowest, fastest: fastest, remembered: remembered))
            }
            progress(step)
        }
        check.identity.address = address
        progress(.connected(model: check.identity.model))
        if check.offered.isEmpty, check.blockers.isEmpty {
            check.blockers.append(.noShutterSpeeds)
        }
        return check
    }

    /// `connect(_:address:needing:progress:)`, then `body` with the check: the one way a camera is connected and
    /// checked before it is used (a shoot's preparation, the idle check of `CameraTarget.check`). The camera is let
    /// go when the connect, the check or `body` throws; a `body` that returns leaves it as it left it (a shoot goes
    /// on with it connected).
    package static func connect<T>(
        _ camera: any CommandCamera, address: String, needing needs: ClosedRange<ShutterSpeed>? = nil,
        progress: @escaping @Sendable (ConnectProgress) -> Void = { _ in },
        then body: (CameraCheck) async throws -> T
    ) async throws -> T {
        do {
            let check = try await connect(camera, address: address, needing: needs, progress: progress)
            return try await body(check)
        } catch {
            await camera.disconnect()
            throw error
        }
    }

    /// The blockers of a shoot of `plan`: the check's, and what its bulb frames need.
    package func blockers(shooting plan: BracketPlan) -> [ShootBlocker] {
        guard !plan.bulbExposures.isEmpty, let bulbRequirement else { return blockers }
        return blockers + [bulbRequirement]
    }

    /// The camera as the summary update shows it.
    package var cameraUpdate: ShootUpdate.Camera {
        ShootUpdate.Camera(
            model: identity.model, address: identity.address, serialNumber: identity.serialNumber ?? "",
            batteryPercent: media.batteryPercent, remainingShots: media.remainingShots)
    }
}

/// One step of connecting to a camera, in types: a front end words it (the terminal's `Connecting to …` lines).
package enum ConnectProgress: Sendable {
    /// The first attempt starts, to `address` as given (`simulator`, `http://…`, `host:port`).
    case connecting(address: String)
    /// An attempt failed (its error, its number from 0 of the most); the next follows after the retry's delay.
    case retrying(ConnectRetry)
    /// A body that lists no shutter speeds reaches `slowest` to `fastest`: stepped there now, or `remembered` from
    /// an earlier shoot of the same body.
    case shutterLimits(slowest: ShutterSpeed, fastest: ShutterSpeed, remembered: Bool)
    /// The session is up; `model` is empty when the body does not name itself.
    case connected(model: String)
}
