import CameraRemoteAPI
import Dispatch
import Exposure
import Shooting
import Timing

/// A Sony body driven over its older Camera Remote API (JSON-RPC over HTTP: the A6000, A7 II, RX100 III-V and
/// their kin with "Smart Remote Control", or the A7 III family's built-in API), behind the same `RemoteCamera`
/// contract as the PTP/IP bodies, so the bracket runner, journal, resume, series and network pause work alike.
///
/// `connect()` finds the `camera` service, calls startRecMode when the body lists it and waits until it lists
/// the shooting methods, asks for "Original" postviews, and reads one getEvent snapshot. While a session is
/// open one getEvent long poll at a time follows the body (status, settings, pictures) and keeps the link
/// alive; no second long poll is ever sent (error 40402). A shutter speed set is confirmed by reading it back,
/// because setShutterSpeed answers before the body applied it (reference p. 103). A release is actTakePicture
/// (awaitTakePicture after 40403 for long exposures, p. 28) or, in BULB, startBulbShooting and
/// stopBulbShooting held on the injected clock; the postview it answers is the frame's image, kept pending
/// until `nextImage` downloads it and attributed by its own EXIF ExposureTime like every other image.
package actor LegacySonyCamera: RemoteCamera, SessionConnecting {
    /// Where the connection stands; re-checked after every `await`.
    enum State {
        /// No session.
        case disconnected
        /// Connected; the start-up (versions, rec mode, snapshot) is running (`isConnected` is still false).
        case starting(Link)
        /// The session is open.
        case ready(Link)
        /// The connection broke; `disconnect()` cleans up.
        case lost(Link, LegacySonyCameraError)
    }

    /// One session: its client and the getEvent loop that follows the body.
    struct Link {
        let client: CameraRemoteAPIClient
        /// Tells this link from earlier ones, so a late report of an old link's loss changes nothing.
        let number: Int
        var events: Task<Void, Never>?
    }

    /// The configuration this camera was made with.
    package nonisolated let configuration: LegacySonyCameraConfiguration
    let clock: any Clock<Duration>
    var state: State = .disconnected
    /// How many links were opened (numbers them).
    var links = 0
    /// Whether a session was ever open (pictures reported at the first connect are earlier ones).
    var connectedBefore = false

    /// The device description, when the camera was reached through it.
    package private(set) var deviceDescription: DeviceDescription?
    /// `getVersions` of the last session.
    package internal(set) var apiVersions: [String] = []
    /// `getApplicationInfo` of the last session, when the body answered it.
    package internal(set) var application: ApplicationInfo?
    /// `getAvailableApiList` as last read (or reported by getEvent).
    package internal(set) var availableAPIs: [String] = []
    /// The settings as last reported by getEvent or read.
    var settings = ReportedSettings()
    /// Pictures reported and not yet downloaded, oldest first, and every URL seen.
    var pictures = PictureQueue()
    /// What this camera said once and the caller may show.
    var pendingNotes: [String] = []
    /// The status as last published, and who listens.
    let statusBroadcaster = CameraStatusBroadcaster()
    /// Where blocking file work runs (never the cooperative pool).
    let files = DispatchQueue(label: "hdrshoot.legacy-camera.files")
    /// JSON-RPC calls made (for tests and the benchmark).
    package internal(set) var callCount = 0

    /// A camera as `configuration` says; nothing happens until `connect()`.
    package init(configuration: LegacySonyCameraConfiguration, clock: any Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        self.clock = clock
    }

    // MARK: - RemoteCamera: identity and connection

    /// Who the camera is: the description's model when it was read (the API itself names no model).
    package var identity: CameraIdentity {
        CameraIdentity(model: modelName ?? "", serialNumber: nil, address: configuration.address)
    }

    /// The body's name, from its device description, when known.
    package var modelName: String? {
        guard let description = deviceDescription else { return nil }
        if let model = description.modelName, !model.isEmpty, model != "SonyImagingDevice" { return model }
        return description.friendlyName.isEmpty ? nil : description.friendlyName
    }

    /// Whether a session is open.
    package var isConnected: Bool {
        if case .ready = state { return true }
        return false
    }

    // `connect()` and `connectRetrying(onRetry:)`: `SessionConnecting`, shared with SonyCamera.

    /// `SessionConnecting`: a session is open.
    package var hasOpenSession: Bool { isConnected }
    /// `SessionConnecting`: `configuration.connectBackoff`.
    package var connectBackoff: [Duration] { configuration.connectBackoff }
    /// `SessionConnecting`: the injected clock.
    package var connectClock: any Clock<Duration> { clock }
    /// `SessionConnecting`: the address errors name.
    package var connectAddress: String { configuration.address }

    /// One failed attempt of `connectRetrying` that is tried again after `delay`.
    package typealias ConnectRetry = Shooting.ConnectRetry

    /// Stops following the body and closes the connections; pictures not downloaded stay pending (the next
    /// session fetches them). Bounded (closing cancels every call under way); never throws.
    package func disconnect() async {
        await tearDown()
    }

    /// Safe order: stop the getEvent loop, close the client, publish `.disconnected`.
    package func tearDown() async {
        let link: Link
        switch state {
        case .disconnected: return
        case let .starting(current), let .ready(current), let .lost(current, _): link = current
        }
        state = .disconnected
        link.events?.cancel()
        link.client.close()
        await link.events?.value
        statusBroadcaster.publish(.disconnected)
    }

    /// The session's start-up: the service, its versions, rec mode, the postview size, a snapshot, the loop.
    package func openSession() async throws {
        let endpoint: RemoteURL
        switch configuration.location {
        case let .endpoint(url):
            endpoint = url
        case let .description(url):
            let description = try await CameraRemoteAPIClient.fetchDescription(
                url.description, clock: clock, timeout: configuration.callTimeout)
            deviceDescription = description
            endpoint = try description.cameraEndpoint()
        }
        let client = try CameraRemoteAPIClient(
            endpoint: endpoint, clock: clock, callTimeout: configuration.callTimeout,
            longPollTimeout: configuration.longPollTimeout, captureTimeout: configuration.captureCallTimeout)
        links += 1
        let link = Link(client: client, number: links, events: nil)
        // Calls go through the link from here; it is not `ready` (nor published) until the start-up is done.
        state = .starting(link)
        try await startUp(client)
        guard case .starting(let current) = state, current.number == link.number else {
            client.close()
            throw LegacySonyCameraError.notConnected
        }
        var ready = current
        ready.events = Task { [self] in await Self.followEvents(client, camera: self, link: link.number) }
        state = .ready(ready)
        connectedBefore = true
        statusBroadcaster.publish(settings.status.map(Self.status) ?? .idle)
    }

    /// What the API must answer before a session is usable.
    private func startUp(_ client: CameraRemoteAPIClient) async throws {
        callCount += 1
        let versions: Result<[String], CameraRemoteAPIError>
        do throws(CameraRemoteAPIError) {
            versions = .success(try await client.getVersions())
        } catch {
            versions = .failure(error)
        }
        switch versions {
        case let .success(list):
            apiVersions = list
        case let .failure(error):
            // A lost or silent link says nothing about what listens; anything else that answers is not the API.
            if error.isConnectionLost || error.isTimeout || error.isClosed { throw error }
            throw LegacySonyCameraError.notRemoteAPI(address: configuration.address, reason: "\(error)")
        }
        callCount += 1
        application = try? await client.getApplicationInfo()
        callCount += 1
        var methods = try await client.getAvailableApiList()
        if !Self.hasShootingMethods(methods), methods.contains("startRecMode") {
            callCount += 1
            try await client.startRecMode()
            methods = try await waitForShootingMethods(client)
        }
        availableAPIs = methods
        if methods.contains("setPostviewImageSize") {
            do {
                callCount += 1
                try await client.setPostviewImageSize(configuration.postviewSize)
            } catch {
                note("the camera kept its postview size (\(error)); its images may be smaller than the originals")
            }
        }
        callCount += 1
        absorb(try await client.getEvent(longPoll: false), atFirstConnect: !connectedBefore)
    }

    /// The methods without which nothing can be shot (bodies list the setters only in modes that allow them).
    static let shootingMethods = ["actTakePicture"]

    static func hasShootingMethods(_ methods: [String]) -> Bool {
        shootingMethods.allSatisfy(methods.contains)
    }

    /// Reads getAvailableApiList until it lists the shooting methods, within `recModeTimeout`.
    private func waitForShootingMethods(_ client: CameraRemoteAPIClient) async throws -> [String] {
        let watch = Stopwatch(clock: clock)
        var polls = PollPauses(configuration.pollIntervals)
        while true {
            try await clock.sleep(for: polls.next())
            callCount += 1
            let methods = try await client.getAvailableApiList()
            if Self.hasShootingMethods(methods) { return methods }
            guard watch.elapsed < configuration.recModeTimeout else {
                throw LegacySonyCameraError.notReadyToShoot(
                    waited: configuration.recModeTimeout, missing: Self.shootingMethods.filter { !methods.contains($0) }
                )
            }
        }
    }

    // MARK: - Errors of connecting

    /// Whether a failed connection attempt is worth repeating after a pause.
    package static func isRetryableConnectFailure(_ error: any Error) -> Bool {
        switch error {
        case let api as CameraRemoteAPIError:
            switch api {
            case .connectionRefused, .connectionLost, .timedOut: return true
            case let .api(code, _, _): return code.isTransient
            default: return false
            }
        case let camera as LegacySonyCameraError:
            if case let .connectionLost(_, underlying) = camera { return isRetryableConnectFailure(underlying) }
            return false
        default:
            return false
        }
    }

    /// The error a failed connect throws: unreachable, not the API, or "failed after n attempts".
    package static func connectError(_ error: any Error, address: String, attempts: Int) -> any Error {
        if error is CancellationError { return error }
        if let camera = error as? LegacySonyCameraError {
            if case let .connectionLost(_, underlying) = camera {
                return LegacySonyCameraError.connectFailed(address: address, attempts: attempts, last: underlying)
            }
            return camera
        }
        guard let api = error as? CameraRemoteAPIError else { return error }
        switch api {
        case .unreachable: return LegacySonyCameraError.unreachable(address: address, underlying: api)
        case .cancelled where Task.isCancelled: return CancellationError()
        case .deviceDescription, .invalidURL, .malformedResponse, .malformedHTTP, .httpStatus, .tooLarge:
            return LegacySonyCameraError.notRemoteAPI(address: address, reason: api.description)
        default: return LegacySonyCameraError.connectFailed(address: address, attempts: attempts, last: api)
        }
    }

    // MARK: - Status and events

    /// A new stream of the camera's status: the current one at once, then every change.
    package func statusUpdates() -> AsyncStream<Shooting.CameraStatus> {
        statusBroadcaster.subscribe()
    }

    /// The runner's status for the body's (IDLE -> StillCapturing -> StillSaving -> IDLE, p. 27).
    static func status(_ status: CameraRemoteAPI.CameraStatus) -> Shooting.CameraStatus {
        switch status {
        case .idle: .idle
        case .stillCapturing: .exposing
        case .stillSaving: .saving
        case .error: .error(code: 0)
        default: .saving
        }
    }

    /// Follows the body with one getEvent long poll at a time until the link ends; owned by the link.
    static func followEvents(_ client: CameraRemoteAPIClient, camera: LegacySonyCamera, link: Int) async {
        var pauses = PollPauses([.milliseconds(500), .seconds(1), .seconds(2)])
        while !Task.isCancelled {
            do {
                let event = try await client.getEvent(longPoll: true)
                pauses.reset()
                await camera.absorb(event, atFirstConnect: false)
            } catch {
                if Task.isCancelled { return }
                switch error {
                case .timedOut:
                    // Nothing changed within the long poll's bound: ask again.
                    continue
                case .connectionLost, .connectionRefused, .unreachable:
                    await camera.linkBroke(link, during: "getEvent", error)
                    return
                case .cancelled:
                    return
                default:
                    // 40402 (another client polls), a method not offered yet, an odd answer: wait, then again.
                    try? await camera.clock.sleep(for: pauses.next())
                }
            }
        }
    }

    /// Takes what a getEvent answer reports: the status (published), the settings, and new pictures.
    func absorb(_ event: CameraEvent, atFirstConnect: Bool) {
        if let apis = event.availableAPIs { availableAPIs = apis }
        settings.absorb(event)
        for url in event.takePictureURLs {
            let kept = pictures.report(url, adopting: !atFirstConnect || configuration.adoptsEarlierPictures)
            if atFirstConnect, !kept {
                note("the camera reported a picture taken before hdrshoot connected (\(url)); it was not fetched")
            }
        }
        if case .ready = state, let status = event.cameraStatus {
            statusBroadcaster.publish(pictures.isEmpty ? Self.status(status) : .saving)
        }
    }

    /// The getEvent loop of link `number` ended on a lost connection.
    func linkBroke(_ number: Int, during: String, _ error: CameraRemoteAPIError) {
        guard case .ready(let link) = state, link.number == number else { return }
        state = .lost(link, .connectionLost(during: during, underlying: error))
        statusBroadcaster.publish(.disconnected)
    }

    // MARK: - Calls

    /// Runs one call on the open link. A lost link (and a call that timed out, after which nothing is known)
    /// marks the link lost and throws `.connectionLost`; cancellation throws `CancellationError`; every other
    /// failure is the API's error, for the caller to classify.
    func perform<T: Sendable>(
        _ during: String, _ body: (CameraRemoteAPIClient) async throws(CameraRemoteAPIError) -> T
    ) async throws -> T {
        let link = try requireLink()
        callCount += 1
        do {
            return try await body(link.client)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            if error.isConnectionLost || error.isTimeout || error.isClosed {
                let lost = LegacySonyCameraError.connectionLost(during: during, underlying: error)
                markLost(link.number, lost)
                throw lost
            }
            throw error
        }
    }

    /// The open link (also during the start-up); throws when there is none.
    func requireLink() throws -> Link {
        switch state {
        case let .starting(link), let .ready(link): return link
        case let .lost(_, reason): throw reason
        case .disconnected: throw LegacySonyCameraError.notConnected
        }
    }

    /// Records a broken link (its calls fail from now on).
    func markLost(_ number: Int, _ reason: LegacySonyCameraError) {
        guard case .ready(let link) = state, link.number == number else { return }
        state = .lost(link, reason)
        statusBroadcaster.publish(.disconnected)
    }

    /// The error for a call the body refused: busy (transient: nothing happened) or a refusal.
    static func refusal(_ error: any Error, operation: String) -> any Error {
        guard let api = error as? CameraRemoteAPIError else { return error }
        if case let .api(code, _, _) = api, code.isTransient {
            return LegacySonyCameraError.busy(operation: operation, underlying: api)
        }
        if case let .httpStatus(status, _, _) = api, status == 503 {
            return LegacySonyCameraError.busy(operation: operation, underlying: api)
        }
        return LegacySonyCameraError.operationFailed(operation: operation, underlying: api)
    }

    // MARK: - Notes

    /// Keeps `text` for `takeNotes`, once.
    func note(_ text: String) {
        if !pendingNotes.contains(text) { pendingNotes.append(text) }
    }

    /// What this camera had to say since the last call, each message once.
    package func takeNotes() -> [String] {
        defer { pendingNotes = [] }
        return pendingNotes
    }
}

extension CameraRemoteAPIError {
    /// Whether nothing came back in time (after which the state of the call is unknown).
    var isTimeout: Bool {
        if case .timedOut = self { return true }
        return false
    }

    /// Whether the client was closed under the call (by a teardown).
    var isClosed: Bool {
        if case .cancelled = self { return true }
        return false
    }
}

/// Pauses that grow to the last one and stay there.
struct PollPauses: Sendable {
    private let pauses: [Duration]
    private var index = 0

    init(_ pauses: [Duration]) {
        self.pauses = pauses.isEmpty ? [.milliseconds(100)] : pauses
    }

    /// The next pause.
    mutating func next() -> Duration {
        defer { index = min(index + 1, pauses.count - 1) }
        return pauses[index]
    }

    /// Starts over at the first pause.
    mutating func reset() { index = 0 }
}
