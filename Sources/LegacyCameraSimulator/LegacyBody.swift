import CameraRemoteAPI
import CameraSimulator
import Exposure
import ImageMetadata
import JSON
import Timing

/// The simulated legacy body's state and its answers to JSON-RPC calls (the server in
/// `LegacyCameraSimulator` only carries bytes).
///
/// Time is elapsed time on the injected clock since start; a capture is a time span, so its status
/// (IDLE -> StillCapturing -> StillSaving -> IDLE, reference p. 27) is read off the clock and needs no
/// background task. Exposures take their real time.
actor LegacyBody {
    /// What the server does with a call.
    enum Reply: Sendable {
        /// Answer with this JSON-RPC response.
        case answer(JSONRPCResponse)
        /// Close the connection without answering (the drop quirk).
        case dropConnection
    }

    /// A capture under way or done: when its exposure and its saving end.
    struct Capture: Sendable {
        let frame: Int
        let exposureEnds: Duration
        let savingEnds: Duration
        let url: String
    }

    private enum RecMode {
        case off
        case starting(until: Duration)
        case on
    }

    let configuration: LegacySimulatorConfiguration
    private let clock: any Clock<Duration>
    private let stopwatch: Stopwatch
    private let postviewBase: String
    private var recMode: RecMode
    private var shutter: String
    private var pendingShutter: (label: String, appliesAt: Duration)?
    private var postviewSize = "2M"
    private var capture: Capture?
    private var bulbStarted: Duration?
    private var shots = 0
    private var setCalls = 0
    private var dropped = false
    private var longPolling = false
    private var reportedURLs: Set<String> = []
    private var lastReported: CameraEvent?
    private var isoSpeedRate: String
    private let captureLog: JSONLineWriter?
    /// Images by postview path (`/postview/pict1.JPG`).
    private(set) var images: [String: GeneratedImage] = [:]
    /// Every call's method name, in order (for tests and the log).
    private(set) var calls: [String] = []

    init(
        configuration: LegacySimulatorConfiguration, clock: any Clock<Duration>, postviewBase: String,
        captureLog: JSONLineWriter?
    ) {
        self.configuration = configuration
        self.clock = clock
        self.stopwatch = Stopwatch(clock: clock)
        self.postviewBase = postviewBase
        self.recMode = configuration.needsStartRecMode ? .off : .on
        self.shutter = configuration.initialShutter
        self.isoSpeedRate = configuration.isoSpeedRate
        self.captureLog = captureLog
    }

    /// Long polls answered 40402 (one was already waiting).
    private(set) var refusedLongPolls = 0

    /// Every fired frame as the capture log records it, in firing order.
    private(set) var captures: [LegacyCaptureRecord] = []

    private var now: Duration { stopwatch.elapsed }

    /// Answers one call.
    func handle(_ request: JSONRPCRequest) async -> Reply {
        calls.append(request.method)
        do {
            return try await .answer(JSONRPCResponse(id: request.id, outcome: .success(dispatch(request))))
        } catch let failure as JSONRPCResponse.Failure {
            return .answer(JSONRPCResponse(id: request.id, outcome: .failure(failure)))
        } catch is DropConnection {
            return .dropConnection
        } catch {
            return .answer(JSONRPCResponse(id: request.id, outcome: .failure(.init(code: .any, message: "Any"))))
        }
    }

    private struct DropConnection: Error {}

    private func dispatch(_ request: JSONRPCRequest) async throws -> [JSONValue] {
        applyPendingSetting()
        let method = request.method
        guard request.version == "1.0" || (method == "getEvent" && ["1.1", "1.2", "1.3"].contains(request.version))
        else { throw fail(.unsupportedVersion, "Unsupported Version") }
        guard LegacySimulatorConfiguration.methodsInRecMode.contains(method) || method == "startRecMode" else {
            throw fail(.noSuchMethod, "No Such Method")
        }
        guard availableMethods.contains(method) else { throw fail(.cameraNotReady, "Camera Not Ready") }
        switch method {
        case "getVersions": return [.array(["1.0", "1.1", "1.2", "1.3"].map(JSONValue.string))]
        case "getMethodTypes": return [.array([])]
        case "getApplicationInfo": return [.string("Smart Remote Control"), .string("2.1.4")]
        case "getAvailableApiList": return [.array(availableMethods.map(JSONValue.string))]
        case "startRecMode":
            if case .off = recMode { recMode = .starting(until: now + configuration.recModeDelay) }
            return [.integer(0)]
        case "stopRecMode":
            recMode = configuration.needsStartRecMode ? .off : .on
            return [.integer(0)]
        case "getEvent":
            guard let flag = request.params.first?.bool else { throw fail(.illegalArgument, "Illegal Argument") }
            return try await getEvent(longPoll: flag).result
        case "getExposureMode": return [.string(configuration.exposureMode)]
        case "getIsoSpeedRate": return [.string(isoSpeedRate)]
        case "setIsoSpeedRate":
            guard let iso = request.params.first?.string, LegacySimulatorConfiguration.isoLabels.contains(iso) else {
                throw fail(.illegalArgument, "Illegal Argument")
            }
            isoSpeedRate = iso
            return [.integer(0)]
        case "getShutterSpeed": return [.string(shutter)]
        case "getAvailableShutterSpeed": return [.string(shutter), .array(candidates.map(JSONValue.string))]
        case "setShutterSpeed": return try setShutterSpeed(request.params)
        case "getPostviewImageSize": return [.string(postviewSize)]
        case "setPostviewImageSize":
            guard let size = request.params.first?.string, ["Original", "2M"].contains(size) else {
                throw fail(.illegalArgument, "Illegal Argument")
            }
            postviewSize = size
            return [.integer(0)]
        case "actTakePicture": return try await actTakePicture()
        case "awaitTakePicture": return try await awaitTakePicture()
        case "startBulbShooting": return try startBulb()
        case "stopBulbShooting": return try stopBulb()
        default: throw fail(.noSuchMethod, "No Such Method")
        }
    }

    private func fail(_ code: RemoteAPIErrorCode, _ message: String) -> JSONRPCResponse.Failure {
        JSONRPCResponse.Failure(code: code, message: message)
    }

    // MARK: - State read off the clock

    private var inRecMode: Bool {
        switch recMode {
        case .on: return true
        case let .starting(until): return now >= until
        case .off: return false
        }
    }

    private var availableMethods: [String] {
        inRecMode ? LegacySimulatorConfiguration.methodsInRecMode : LegacySimulatorConfiguration.methodsBeforeRecMode
    }

    var status: CameraStatus {
        guard inRecMode else { return .notReady }
        if bulbStarted != nil { return .stillCapturing }
        guard let capture else { return .idle }
        if now < capture.exposureEnds { return .stillCapturing }
        if now < capture.savingEnds { return .stillSaving }
        return .idle
    }

    private var candidates: [String] {
        switch configuration.exposureMode {
        case "Manual": return LegacySimulatorConfiguration.manualShutterLabels
        case "Shutter": return LegacySimulatorConfiguration.manualShutterLabels.filter { $0 != "BULB" }
        default: return []
        }
    }

    private func applyPendingSetting() {
        if let pending = pendingShutter, now >= pending.appliesAt {
            shutter = pending.label
            pendingShutter = nil
        }
    }

    // MARK: - Settings

    private func setShutterSpeed(_ params: [JSONValue]) throws -> [JSONValue] {
        guard let label = params.first?.string, candidates.contains(label) else {
            throw fail(.illegalArgument, "Illegal Argument")
        }
        guard status == .idle else { throw fail(.cameraNotReady, "Camera Not Ready") }
        setCalls += 1
        if let every = configuration.setFailureEvery, every > 0, setCalls % every == 0 { throw fail(.any, "Any") }
        pendingShutter = (label, now + configuration.settingDelay)
        return [.integer(0)]
    }

    // MARK: - Events

    private func snapshot() -> CameraEvent {
        var event = CameraEvent()
        event.availableAPIs = availableMethods
        event.cameraStatus = status
        event.shutterSpeed = AvailableSetting(current: shutter, candidates: candidates)
        event.exposureMode = AvailableSetting(
            current: configuration.exposureMode, candidates: ["Program Auto", "Aperture", "Shutter", "Manual"])
        event.isoSpeedRate = AvailableSetting(
            current: isoSpeedRate, candidates: LegacySimulatorConfiguration.isoLabels)
        event.postviewImageSize = AvailableSetting(current: postviewSize, candidates: ["Original", "2M"])
        return event
    }

    /// The snapshot with the last picture: a long poll reports it once (a change), a snapshot (no long-poll
    /// flag) whenever the body is idle after it, as "the server state at the time" (p. 239).
    private func snapshot(longPoll: Bool) -> CameraEvent {
        var event = snapshot()
        if let capture, status == .idle, !longPoll || !reportedURLs.contains(capture.url) {
            event.takePictureURLs = [capture.url]
        }
        return event
    }

    /// getEvent: at once without the flag; with it, at the next change or after `longPollTimeout`. A second
    /// long poll while one waits answers 40402 (p. 275).
    private func getEvent(longPoll: Bool) async throws -> CameraEvent {
        if longPoll {
            guard !longPolling else {
                refusedLongPolls += 1
                throw fail(.alreadyPolling, "Already Running Polling Api")
            }
            longPolling = true
            defer { longPolling = false }
            let deadline = now + configuration.longPollTimeout
            // State changes are read off the clock, so a short poll of our own state finds them.
            while snapshot(longPoll: true) == lastReported, now < deadline {
                try await clock.sleep(for: .milliseconds(20))
                applyPendingSetting()
            }
        }
        let event = snapshot(longPoll: longPoll)
        lastReported = event
        reportedURLs.formUnion(event.takePictureURLs)
        return event
    }

    // MARK: - Shooting

    private func exposure(of label: String) -> Duration {
        guard case let .timed(speed)? = try? RemoteShutterSetting(label: label) else { return .zero }
        return .nanoseconds(Int64(speed.numerator) * 1_000_000_000 / Int64(speed.denominator))
    }

    private func actTakePicture() async throws -> [JSONValue] {
        guard status == .idle else { throw fail(.cameraNotReady, "Camera Not Ready") }
        guard shutter != "BULB" else { throw fail(.illegalState, "Illegal State") }
        let length = exposure(of: shutter)
        release(exposure: length, exposureTime: Self.exifTime(of: shutter), label: shutter)
        if let dropAt = configuration.dropConnectionAtShot, shots == dropAt, !dropped {
            dropped = true
            throw DropConnection()
        }
        return try await waitForCapture()
    }

    private func awaitTakePicture() async throws -> [JSONValue] {
        guard capture != nil else { throw fail(.illegalState, "Illegal State") }
        return try await waitForCapture()
    }

    /// Sleeps until the capture is saved or `captureAnswerTimeout` passed (then 40403, p. 28).
    private func waitForCapture() async throws -> [JSONValue] {
        guard let capture else { throw fail(.illegalState, "Illegal State") }
        let wait = capture.savingEnds - now
        if wait > configuration.captureAnswerTimeout {
            try await clock.sleep(for: configuration.captureAnswerTimeout)
            throw fail(.captureNotFinished, "Still Capturing Not Finished")
        }
        if wait > .zero { try await clock.sleep(for: wait) }
        reportedURLs.insert(capture.url)
        return [.array([.string(capture.url)])]
    }

    private func release(exposure requested: Duration, exposureTime: ExifRational, label: String, held: Duration? = nil)
    {
        shots += 1
        let length = configuration.exposureCap.map { min($0, requested) } ?? requested
        let started = now - (held ?? .zero)
        let url = "\(postviewBase)/postview/pict\(shots).JPG"
        let saving =
            configuration.saveAtShot.flatMap { $0.shot == shots ? $0.duration : nil } ?? configuration.saveDuration
        capture = Capture(frame: shots, exposureEnds: now + length, savingEnds: now + length + saving, url: url)
        let record = LegacyCaptureRecord(
            frame: shots, started: started, label: label, exposure: held ?? length)
        captures.append(record)
        captureLog?.append(record)
        let exif = ExifFields(
            exposureTime: exposureTime,
            dateTimeOriginal: configuration.cameraClock.adding(seconds: Int(started.components.seconds)).exifString,
            make: "SONY", model: configuration.model)
        let size = postviewSize == "Original" ? configuration.imageSize : configuration.imageSize / 10
        images["/postview/pict\(shots).JPG"] = GeneratedImage(
            size: size, fileName: "pict\(shots).JPG", comment: "hdrshoot legacy simulator frame \(shots)", exif: exif)
    }

    private func startBulb() throws -> [JSONValue] {
        guard shutter == "BULB" else { throw fail(.illegalState, "Illegal State") }
        guard status == .idle else { throw fail(.cameraNotReady, "Camera Not Ready") }
        // Bodies refuse BULB with Auto ISO (Bloodevil/sony_camera_api#52).
        guard !isoSpeedRate.uppercased().hasPrefix("AUTO") else { throw fail(.shootingFail, "Shooting Fail") }
        bulbStarted = now
        return [.integer(0)]
    }

    private func stopBulb() throws -> [JSONValue] {
        guard let started = bulbStarted else { throw fail(.illegalState, "Illegal State") }
        bulbStarted = nil
        let held = now - started
        let tenths = max(
            1, Int(held.components.seconds) * 10 + Int(held.components.attoseconds / 100_000_000_000_000_000))
        let time = ExifRational(numerator: UInt32(clamping: tenths), denominator: 10)
        release(exposure: .zero, exposureTime: time, label: "BULB", held: held)
        return [.integer(0)]
    }

    /// EXIF ExposureTime for a label: the exact fraction (`0.4"` is 4/10).
    private static func exifTime(of label: String) -> ExifRational {
        guard case let .timed(speed)? = try? RemoteShutterSetting(label: label) else {
            return ExifRational(numerator: 0, denominator: 1)
        }
        return ExifRational(
            numerator: UInt32(clamping: speed.numerator), denominator: UInt32(clamping: speed.denominator))
    }

    /// The image at a postview path, if that picture was taken.
    func image(at path: String) -> GeneratedImage? { images[path] }
}
