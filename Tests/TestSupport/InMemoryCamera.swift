import Exposure
import Foundation
import Shooting

/// A `RemoteCamera` that lives in memory, for runner tests: it records every call and fails on cue.
///
/// Scripted faults (see `Script`): busy answers, a failing capture k, a dropped connection at capture k,
/// refused reconnects, a status that never returns to idle, captures held until the test releases them.
/// The test drives status changes after a capture with `send(_:)`.
public actor InMemoryCamera: RemoteCamera {
    /// What the camera does; change it mid-test with `update(_:)`.
    public struct Script: Sendable {
        /// The exposure mode reported by `shootingMode()`.
        public var mode: ShootingMode = .manual
        /// The speeds the camera offers.
        public var speeds: [CameraShutterSpeed] = InMemoryCamera.thirdStopSpeeds
        /// The next N `setShutterSpeed` calls answer busy.
        public var busySetSpeeds = 0
        /// The next N `capture` calls answer busy (before firing).
        public var busyCaptures = 0
        /// Shot number (1-based, busy answers not counted) -> error thrown instead of a picture.
        public var failingShots: [Int: InMemoryCameraError] = [:]
        /// `setShutterSpeed` call number (1-based) -> error thrown.
        public var failingSpeedSets: [Int: InMemoryCameraError] = [:]
        /// Shot numbers at which the connection drops (status `.disconnected`, the capture throws).
        public var dropConnectionAtShots: Set<Int> = []
        /// The next N `connect` calls are refused.
        public var refusedConnects = 0
        /// The status after a shot returns: `.idle`, or `.saving` to let the test drive the rest with `send`.
        public var statusAfterShot: CameraStatus = .idle
        /// Shot numbers that wait inside `capture` until `releaseCapture()` (or cancellation).
        public var heldShots: Set<Int> = []

        /// Creates the default script: a healthy camera in M mode with the 1/3-stop scale and BULB.
        public init() {}
    }

    /// One call the camera received.
    public enum Call: Sendable, Hashable {
        /// `connect()`.
        case connect
        /// `disconnect()`.
        case disconnect
        /// `setShutterSpeed(_:)` with the speed asked for.
        case setShutterSpeed(CameraShutterSpeed)
        /// `capture(exposure:to:)`, with the camera's setting at the time.
        case capture(exposure: ShutterSpeed, setting: CameraShutterSpeed?, destination: CaptureDestination)
    }

    /// The in-memory camera's errors.
    public enum InMemoryCameraError: Error, RemoteCameraError, Equatable {
        /// Device busy (transient).
        case busy
        /// The session dropped or is not open (connection lost).
        case connectionLost
        /// Connection refused (connection lost).
        case refused
        /// A speed the camera does not offer.
        case unsupportedSpeed(CameraShutterSpeed)
        /// Any permanent fault, named for the test.
        case fault(String)

        /// Busy only.
        public var isTransient: Bool { self == .busy }
        /// Drops and refusals.
        public var isConnectionLost: Bool { self == .connectionLost || self == .refused }
    }

    /// 1/4000 s to 30" in 1/3 stops, then BULB.
    public static let thirdStopSpeeds: [CameraShutterSpeed] = {
        let fractions = [4000, 3200, 2500, 2000, 1600, 1250, 1000, 800, 640, 500, 400, 320, 250, 200, 160, 125, 100,
                         80, 60, 50, 40, 30, 25, 20, 15, 13, 10, 8, 6, 5, 4]
        let tenths = [3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 32, 40, 50, 60, 80, 100, 130, 150, 200, 250, 300]
        return fractions.map { .timed(ShutterSpeed(numerator: 1, denominator: $0)) }
            + tenths.map { .timed(ShutterSpeed(numerator: $0, denominator: 10)) } + [.bulb]
    }()

    /// The script in force.
    public private(set) var script: Script
    /// Every call, in order.
    public private(set) var calls: [Call] = []
    /// The status now.
    public private(set) var status: CameraStatus = .idle
    /// The camera setting at each successful shot, in order.
    public private(set) var shotSettings: [CameraShutterSpeed] = []
    private var connected: Bool
    private var current: CameraShutterSpeed? = nil
    private var shots = 0
    private var speedSets = 0
    private let theIdentity: CameraIdentity
    private var subscribers: [AsyncStream<CameraStatus>.Continuation] = []
    private let gate: AsyncStream<Void>
    private let gateOpener: AsyncStream<Void>.Continuation

    /// Creates a camera following `script`; connected at once unless `connected` is false.
    public init(
        script: Script = Script(),
        identity: CameraIdentity = CameraIdentity(model: "InMemory-1", serialNumber: "0001", address: "memory"),
        connected: Bool = true
    ) {
        self.script = script
        self.theIdentity = identity
        self.connected = connected
        (gate, gateOpener) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .unbounded)
    }

    /// Changes the script mid-test.
    public func update(_ change: @Sendable (inout Script) -> Void) { change(&script) }

    /// Sets the status and tells every subscriber.
    public func send(_ newStatus: CameraStatus) {
        status = newStatus
        for subscriber in subscribers { subscriber.yield(newStatus) }
    }

    /// Drops the connection now, as a Wi-Fi loss would: status `.disconnected`, status streams end.
    public func dropConnection() { if connected { drop() } }

    /// Lets one held shot (see `Script.heldShots`) continue; a release before the shot arrives is kept.
    public nonisolated func releaseCapture() { gateOpener.yield() }

    /// The speeds set, in order.
    public var speedsSet: [CameraShutterSpeed] {
        calls.compactMap { if case .setShutterSpeed(let speed) = $0 { speed } else { nil } }
    }

    /// The number of `connect` calls.
    public var connectCount: Int { calls.filter { $0 == .connect }.count }

    // MARK: - RemoteCamera

    /// The identity given at creation.
    public var identity: CameraIdentity { theIdentity }

    /// Whether the session is open.
    public var isConnected: Bool { connected }

    /// Opens the session unless the script refuses it.
    public func connect() async throws {
        calls.append(.connect)
        if connected { return }
        if script.refusedConnects > 0 {
            script.refusedConnects -= 1
            throw InMemoryCameraError.refused
        }
        connected = true
        send(.idle)
    }

    /// Closes the session.
    public func disconnect() async {
        calls.append(.disconnect)
        if connected { drop() }
    }

    /// The scripted mode.
    public func shootingMode() async throws -> ShootingMode {
        try requireConnection()
        return script.mode
    }

    /// The scripted speeds.
    public func availableShutterSpeeds() async throws -> [CameraShutterSpeed] {
        try requireConnection()
        return script.speeds
    }

    /// The last speed set (the first offered speed before any set).
    public func currentShutterSpeed() async throws -> CameraShutterSpeed {
        try requireConnection()
        return current ?? script.speeds.first ?? .bulb
    }

    /// Sets the speed, or answers busy / fails as scripted.
    public func setShutterSpeed(_ speed: CameraShutterSpeed) async throws {
        calls.append(.setShutterSpeed(speed))
        try requireConnection()
        if script.busySetSpeeds > 0 {
            script.busySetSpeeds -= 1
            throw InMemoryCameraError.busy
        }
        speedSets += 1
        if let error = script.failingSpeedSets[speedSets] { throw error }
        guard script.speeds.contains(speed) else { throw InMemoryCameraError.unsupportedSpeed(speed) }
        current = speed
    }

    /// "Takes" a picture: returns one made-up file record (nothing is written), or fails as scripted.
    public func capture(exposure: ShutterSpeed, to destination: CaptureDestination) async throws -> CapturedFrame {
        calls.append(.capture(exposure: exposure, setting: current, destination: destination))
        try requireConnection()
        if script.busyCaptures > 0 {
            script.busyCaptures -= 1
            throw InMemoryCameraError.busy
        }
        shots += 1
        let shot = shots
        if script.heldShots.contains(shot) {
            for await _ in gate { break }
            try Task.checkCancellation()
            try requireConnection()
        }
        if let error = script.failingShots[shot] { throw error }
        if script.dropConnectionAtShots.contains(shot) {
            drop()
            throw InMemoryCameraError.connectionLost
        }
        shotSettings.append(current ?? .bulb)
        send(script.statusAfterShot)
        let name = "\(destination.fileNamePrefix)DSC\(10000 + shot).ARW"
        let image = SavedImage(fileName: name, path: destination.directory.appendingPathComponent(name).path, byteCount: 1024)
        return CapturedFrame(images: [image], actualSpeed: current)
    }

    /// A stream that starts with the current status.
    public func statusUpdates() async -> AsyncStream<CameraStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: CameraStatus.self, bufferingPolicy: .unbounded)
        continuation.yield(status)
        subscribers.append(continuation)
        return stream
    }

    // MARK: - Helpers

    private func requireConnection() throws {
        guard connected else { throw InMemoryCameraError.connectionLost }
    }

    private func drop() {
        connected = false
        send(.disconnected)
        for subscriber in subscribers { subscriber.finish() }
        subscribers.removeAll()
    }
}
