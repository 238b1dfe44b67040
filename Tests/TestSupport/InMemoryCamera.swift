import Exposure
import Foundation
import Shooting

/// A `RemoteCamera` that lives in memory, for runner tests: it records every call and fails on cue.
///
/// Scripted faults (see `Script`): busy answers, a failing capture k, a dropped connection at capture k,
/// refused reconnects, a status that never returns to idle, captures held until the test releases them.
/// The test drives status changes after a capture with `send(_:)`.
package actor InMemoryCamera: RemoteCamera {
    /// What the camera does; change it mid-test with `update(_:)`.
    package struct Script: Sendable {
        /// The exposure mode reported by `shootingMode()`.
        package var mode: ShootingMode = .manual
        /// The speeds the camera offers.
        package var speeds: [CameraShutterSpeed] = InMemoryCamera.thirdStopSpeeds
        /// The next N `setShutterSpeed` calls answer busy.
        package var busySetSpeeds = 0
        /// The next N `capture` calls answer busy before calling the release hook (nothing fired, nothing recorded).
        package var busyCaptures = 0
        /// The next N `capture` calls answer busy after calling the release hook (the release itself was refused,
        /// as a body that is still busy does after the half-press).
        package var busyReleases = 0
        /// Shot number (1-based, busy answers not counted) -> error thrown instead of a picture.
        package var failingShots: [Int: InMemoryCameraError] = [:]
        /// `setShutterSpeed` call number (1-based) -> error thrown.
        package var failingSpeedSets: [Int: InMemoryCameraError] = [:]
        /// Shot numbers at which the connection drops (status `.disconnected`, the capture throws).
        package var dropConnectionAtShots: Set<Int> = []
        /// The next N `connect` calls are refused.
        package var refusedConnects = 0
        /// The status after a shot returns: `.idle`, or `.saving` to let the test drive the rest with `send`.
        package var statusAfterShot: CameraStatus = .idle
        /// Shot numbers that wait inside `capture` until `releaseCapture()` (or cancellation).
        package var heldShots: Set<Int> = []
        /// Shot numbers of `dropConnectionAtShots` whose image survives the drop: the camera holds it, and
        /// `recoverInterruptedCapture` after the reconnect returns it.
        package var imageSurvivesDropAtShots: Set<Int> = []
        /// Messages `takeNotes()` returns (once).
        package var notes: [String] = []
        /// What `mediaStatus()` reports; each shot takes one of `remainingShots`.
        package var media = MediaStatus()

        /// Creates the default script: a healthy camera in M mode with the 1/3-stop scale and BULB.
        package init() {}
    }

    /// One call the camera received.
    package enum Call: Sendable, Hashable {
        /// `connect()`.
        case connect
        /// `disconnect()`.
        case disconnect
        /// `setShutterSpeed(_:)` with the speed asked for.
        case setShutterSpeed(CameraShutterSpeed)
        /// `capture(exposure:to:beforeRelease:)`, with the camera's setting at the time.
        case capture(exposure: ShutterSpeed, setting: CameraShutterSpeed?, destination: CaptureDestination)
        /// `recoverInterruptedCapture(exposure:to:waitingAtMost:)`.
        case recoverInterruptedCapture(exposure: ShutterSpeed, destination: CaptureDestination, waitingAtMost: Duration)
    }

    /// The in-memory camera's errors.
    package enum InMemoryCameraError: Error, RemoteCameraError, Equatable {
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
        package var isTransient: Bool { self == .busy }
        /// Drops and refusals.
        package var isConnectionLost: Bool { self == .connectionLost || self == .refused }
    }

    /// 1/4000 s to 30" in 1/3 stops, then BULB.
    package static let thirdStopSpeeds: [CameraShutterSpeed] = {
        let fractions = [
            4000, 3200, 2500, 2000, 1600, 1250, 1000, 800, 640, 500, 400, 320, 250, 200, 160, 125, 100,
            80, 60, 50, 40, 30, 25, 20, 15, 13, 10, 8, 6, 5, 4
        ]
        let tenths = [3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 32, 40, 50, 60, 80, 100, 130, 150, 200, 250, 300]
        return fractions.map { .timed(ShutterSpeed(numerator: 1, denominator: $0)) }
            + tenths.map { .timed(ShutterSpeed(numerator: $0, denominator: 10)) } + [.bulb]
    }()

    /// The script in force.
    package private(set) var script: Script
    /// Every call, in order.
    package private(set) var calls: [Call] = []
    /// The status now.
    package private(set) var status: CameraStatus = .idle
    /// The camera setting at each successful shot, in order.
    package private(set) var shotSettings: [CameraShutterSpeed] = []
    /// How many times a capture called its release hook.
    package private(set) var hookCalls = 0
    private var connected: Bool
    private var current: CameraShutterSpeed? = nil
    private var shots = 0
    /// The image a dropped shot left in the camera, until recovered.
    private var heldImage: CapturedFrame?
    /// Calls of `mediaStatus`.
    package private(set) var mediaChecks = 0
    /// Calls of `makeDurable`.
    package private(set) var durableCalls = 0
    /// Images returned by `recoverInterruptedCapture`.
    package private(set) var recovered = 0
    private var speedSets = 0
    private let theIdentity: CameraIdentity
    private var subscribers: [AsyncStream<CameraStatus>.Continuation] = []
    private let gate: AsyncStream<Void>
    private let gateOpener: AsyncStream<Void>.Continuation

    /// Creates a camera following `script`; connected at once unless `connected` is false.
    package init(
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
    package func update(_ change: @Sendable (inout Script) -> Void) { change(&script) }

    /// Sets the status and tells every subscriber.
    package func send(_ newStatus: CameraStatus) {
        status = newStatus
        for subscriber in subscribers { subscriber.yield(newStatus) }
    }

    /// Drops the connection now, as a Wi-Fi loss would: status `.disconnected`, status streams end.
    package func dropConnection() { if connected { drop() } }

    /// Lets one held shot (see `Script.heldShots`) continue; a release before the shot arrives is kept.
    package nonisolated func releaseCapture() { gateOpener.yield() }

    /// The speeds set, in order.
    package var speedsSet: [CameraShutterSpeed] {
        calls.compactMap { if case .setShutterSpeed(let speed) = $0 { speed } else { nil } }
    }

    /// The number of `connect` calls.
    package var connectCount: Int { calls.filter { $0 == .connect }.count }

    // MARK: - RemoteCamera

    /// The identity given at creation.
    package var identity: CameraIdentity { theIdentity }

    /// Whether the session is open.
    package var isConnected: Bool { connected }

    /// Opens the session unless the script refuses it.
    package func connect() async throws {
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
    package func disconnect() async {
        calls.append(.disconnect)
        if connected { drop() }
    }

    /// The scripted mode.
    package func shootingMode() async throws -> ShootingMode {
        try requireConnection()
        return script.mode
    }

    /// The scripted speeds.
    package func availableShutterSpeeds() async throws -> [CameraShutterSpeed] {
        try requireConnection()
        return script.speeds
    }

    /// The last speed set (the first offered speed before any set).
    package func currentShutterSpeed() async throws -> CameraShutterSpeed {
        try requireConnection()
        return current ?? script.speeds.first ?? .bulb
    }

    /// Sets the speed, or answers busy / fails as scripted.
    package func setShutterSpeed(_ speed: CameraShutterSpeed) async throws {
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
    ///
    /// `beforeRelease` is called where the release is modelled: after the busy answers of `busyCaptures`, before
    /// `busyReleases` and before the shot counts (so held, failing and dropping shots all come after it). Its
    /// error is rethrown as is, with no shot counted.
    package func capture(
        exposure: ShutterSpeed, to destination: CaptureDestination,
        beforeRelease: @Sendable () async throws -> Void
    ) async throws -> CapturedFrame {
        calls.append(.capture(exposure: exposure, setting: current, destination: destination))
        try requireConnection()
        if script.busyCaptures > 0 {
            script.busyCaptures -= 1
            throw InMemoryCameraError.busy
        }
        hookCalls += 1
        try await beforeRelease()
        try requireConnection()
        if script.busyReleases > 0 {
            script.busyReleases -= 1
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
            if script.imageSurvivesDropAtShots.contains(shot) {
                shotSettings.append(current ?? .bulb)
                heldImage = Self.frame(shot: shot, in: destination, setting: current)
            }
            drop()
            throw InMemoryCameraError.connectionLost
        }
        shotSettings.append(current ?? .bulb)
        if let left = script.media.remainingShots { script.media.remainingShots = max(0, left - 1) }
        send(script.statusAfterShot)
        return Self.frame(shot: shot, in: destination, setting: current)
    }

    /// Returns the image a dropped shot left in the camera (`imageSurvivesDropAtShots`), saved to `destination`.
    package func recoverInterruptedCapture(
        exposure: ShutterSpeed, to destination: CaptureDestination, waitingAtMost: Duration
    ) async throws -> CapturedFrame? {
        calls.append(
            .recoverInterruptedCapture(exposure: exposure, destination: destination, waitingAtMost: waitingAtMost))
        try requireConnection()
        guard let held = heldImage else { return nil }
        heldImage = nil
        recovered += 1
        let image = SavedImage(
            fileName: held.images[0].fileName,
            path: destination.directory.appendingPathComponent(held.images[0].fileName).path, byteCount: 1024)
        return CapturedFrame(images: [image], actualSpeed: held.actualSpeed)
    }

    /// Nothing to make durable: this camera writes no files (the runner's call is counted).
    package func makeDurable(_ frame: CapturedFrame) async throws {
        durableCalls += 1
    }

    /// The script's battery and card figures (calls counted).
    package func mediaStatus() async -> MediaStatus {
        mediaChecks += 1
        return script.media
    }

    /// The script's notes, once.
    package func takeNotes() async -> [String] {
        defer { script.notes.removeAll() }
        return script.notes
    }

    /// The made-up file record of shot number `shot`.
    private static func frame(
        shot: Int, in destination: CaptureDestination, setting: CameraShutterSpeed?
    ) -> CapturedFrame {
        let name = "\(destination.fileNamePrefix)DSC\(10000 + shot).ARW"
        let image = SavedImage(
            fileName: name, path: destination.directory.appendingPathComponent(name).path, byteCount: 1024)
        return CapturedFrame(images: [image], actualSpeed: setting)
    }

    /// A stream that starts with the current status.
    package func statusUpdates() async -> AsyncStream<CameraStatus> {
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
