import HTTP
import JSON
import Synchronization

/// JSON-RPC calls to one camera's `camera` service over HTTP (reference pp. 22-23), and the typed API the
/// bracket needs on top (in `CameraRemoteAPIClient+Methods.swift`).
///
/// Every call is bounded on the injected clock. A getEvent long poll waits up to `longPollTimeout` on its
/// own connection while other calls go on; a second long poll at once is refused here
/// (`.longPollAlreadyRunning`) before the camera would answer 40402.
package final class CameraRemoteAPIClient: Sendable {
    /// The `camera` service's endpoint (`http://192.168.122.1:8080/sony/camera`).
    package let endpoint: RemoteURL
    /// The clock every timeout runs on.
    package let clock: any Clock<Duration>
    /// How long an ordinary call may take (connect, send, answer).
    package let callTimeout: Duration
    /// How long a getEvent long poll may wait; bodies answer within about a minute when nothing changes.
    package let longPollTimeout: Duration
    /// How long actTakePicture / awaitTakePicture may wait: a body answers 40403 within "several tens of
    /// seconds" of a long exposure (p. 28), so this must be longer than that.
    package let captureTimeout: Duration
    let http: HTTPClient
    private let nextID = Atomic(1)
    private let longPolling = Atomic(false)

    /// A client for `endpoint`; the timeouts bound each kind of call on `clock`.
    package init(
        endpoint: RemoteURL, clock: any Clock<Duration> = ContinuousClock(), callTimeout: Duration = .seconds(10),
        longPollTimeout: Duration = .seconds(75), captureTimeout: Duration = .seconds(75)
    ) throws(CameraRemoteAPIError) {
        self.endpoint = endpoint
        self.clock = clock
        self.callTimeout = callTimeout
        self.longPollTimeout = longPollTimeout
        self.captureTimeout = captureTimeout
        self.http = try HTTPClient(host: endpoint.host, port: endpoint.port, clock: clock)
    }

    /// Fetches the device description at `descriptionURL` (the SSDP LOCATION), finds its `camera` service
    /// and returns a client for it with the description; the fetch is bounded by `timeout` on `clock`.
    package static func connect(
        descriptionURL: String, clock: any Clock<Duration> = ContinuousClock(), timeout: Duration = .seconds(10)
    ) async throws(CameraRemoteAPIError) -> (client: CameraRemoteAPIClient, description: DeviceDescription) {
        let description = try await fetchDescription(descriptionURL, clock: clock, timeout: timeout)
        let client = try CameraRemoteAPIClient(endpoint: try description.cameraEndpoint(), clock: clock)
        return (client, description)
    }

    /// Fetches and parses the device description at `descriptionURL` (the SSDP LOCATION), bounded by `timeout`.
    package static func fetchDescription(
        _ descriptionURL: String, clock: any Clock<Duration> = ContinuousClock(), timeout: Duration = .seconds(10)
    ) async throws(CameraRemoteAPIError) -> DeviceDescription {
        let url = try RemoteURL(descriptionURL)
        let http = try HTTPClient(host: url.host, port: url.port, clock: clock)
        defer { http.close() }
        let limits = HTTPLimits(maximumBodyBytes: DeviceDescription.maximumBytes)
        let response = try await http.send(
            HTTPRequest(method: "GET", target: url.path, keepsAlive: false), limits: limits, timeout: timeout)
        guard response.status == 200 else {
            throw .httpStatus(response.status, reason: response.reason, path: url.path)
        }
        return try DeviceDescription(xml: response.body)
    }

    /// Closes every connection; calls under way fail with `.cancelled`.
    package func close() { http.close() }

    /// Calls `method` with `params` and returns its `result` array; the camera's error answers throw `.api`.
    package func call(
        _ method: String, _ params: [JSONValue] = [], version: String = "1.0", timeout: Duration? = nil
    ) async throws(CameraRemoteAPIError) -> [JSONValue] {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        let request = JSONRPCRequest(method: method, params: params, id: id, version: version)
        let response = try await http.send(
            HTTPRequest(
                method: "POST", target: endpoint.path, headers: HTTPHeaders([("Content-Type", "application/json")]),
                body: request.encoded()),
            limits: .jsonRPC, timeout: timeout ?? callTimeout)
        guard response.status == 200 else {
            // Some bodies wrap an HTTP error in a JSON-RPC error; the status is the code either way (p. 275).
            if let answer = try? JSONRPCResponse.decode(response.body, method: method),
                case let .failure(failure) = answer.outcome
            {
                throw .api(failure.code, message: failure.message, method: method)
            }
            throw .httpStatus(response.status, reason: response.reason, path: endpoint.path)
        }
        let answer = try JSONRPCResponse.decode(response.body, method: method)
        guard answer.id == id else {
            throw .malformedResponse(method: method, reason: "answer id \(answer.id) for call id \(id)")
        }
        switch answer.outcome {
        case let .success(result): return result
        case let .failure(failure): throw .api(failure.code, message: failure.message, method: method)
        }
    }

    /// Runs `body` as the one long poll of this client; a second at once throws `.longPollAlreadyRunning`.
    func asLongPoll<Result: Sendable>(
        _ body: () async throws(CameraRemoteAPIError) -> Result
    ) async throws(CameraRemoteAPIError) -> Result {
        guard !longPolling.exchange(true, ordering: .acquiring) else { throw .longPollAlreadyRunning }
        defer { longPolling.store(false, ordering: .releasing) }
        return try await body()
    }

    /// Downloads a postview (`actTakePicture`'s URL) of at most `maximumBytes`, within `timeout`.
    ///
    /// The URL must point at the camera's own host: a postview elsewhere is refused, not fetched.
    package func downloadPostview(
        _ urlText: String, maximumBytes: Int = 64 << 20, timeout: Duration = .seconds(60)
    ) async throws(CameraRemoteAPIError) -> [UInt8] {
        let url = try RemoteURL(urlText)
        guard url.host == endpoint.host else {
            throw .invalidURL("\(urlText) (not on the camera's host \(endpoint.host))")
        }
        let client = url.port == endpoint.port ? http : try HTTPClient(host: url.host, port: url.port, clock: clock)
        defer { if client !== http { client.close() } }
        let response = try await client.send(
            HTTPRequest(method: "GET", target: url.path), limits: HTTPLimits(maximumBodyBytes: maximumBytes),
            timeout: timeout)
        guard response.status == 200 else {
            throw .httpStatus(response.status, reason: response.reason, path: url.path)
        }
        return response.body
    }
}
