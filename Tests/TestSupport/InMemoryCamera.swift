import Exposure
import Foundation
import Shooting

/// A `RemoteCamera` that lives in memory, for runner tests: it records every call and fails on cue.
///
/// A release puts a made-up image (recording the speed set) in the camera's buffer; `nextImage` hands them
/// out oldest first, as a Sony body does. Scripted faults (see `Script`): busy answers, a failing release k,
/// a dropped connection at release k, releases whose image never arrives, refused reconnects, releases held
/// until the test lets them go.
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
        /// Shot numbers that wait inside `release` until `releaseCapture()` (or cancellation).
        package var heldShots: Set<Int> = []
        /// Shot numbers of `dropConnectionAtShots` whose image survives the drop: the camera holds it, and
        /// `nextImage` after the reconnect returns it.
        package var imageSurvivesDropAtShots: Set<Int> = []
        /// Download numbers (1-based, images handed out) that wait inside `nextImage` until `releaseCapture()`.
        package var heldDownloads: Set<Int> = []
        /// Shot numbers whose release is confirmed but whose image never reaches the buffer.
        package var lostImageAtShots: Set<Int> = []
        /// Shot numbers that give a RAW after the JPEG (a RAW+JPEG pair, the JPEG first).
        package var rawJPEGShots: Set<Int> = []
        /// Images put in the buffer before any release (an earlier session's, recording this exposure).
        package var strayImages: [ShutterSpeed] = []
        /// Release calls (1-based, every call counted) that fire nothing and show nothing (`releaseIgnored`).
        package var ignoredReleases: Set<Int> = []
        /// Shot numbers that fire (their image reaches the buffer) but whose evidence comes too late: the
        /// release throws `releaseIgnored` (a dark frame on a busy machine).
        package var lateEvidenceShots: Set<Int> = []
        /// The most images the buffer holds; a release beyond it fires nothing (`releaseIgnored`).
        package var bufferCapacity = Int.max
        /// Whether a release the full buffer takes without firing calls `whileUnconfirmed` before it throws
        /// `releaseIgnored` (as SonyCamera does while the evidence window runs out).
        package var fetchesBehindIgnoredReleases = false
        /// Whether a speed set is refused while images wait in the buffer (some bodies ignore it).
        package var refusesSpeedWhileBuffered = false
        /// Whether a release is refused after its half-press (`releaseRefused`, nothing fired) while images wait
        /// in the buffer (the `busy-while-buffered` body).
        package var refusesReleaseWhileBuffered = false
        /// Whole images a killed process left in the set folders (by path): `filesLeftBehind` returns those in
        /// the folder asked about that the journal does not name, once.
        package var leftBehind: [SavedImage] = []
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
        /// `release(exposure:beforeRelease:)`, with the camera's setting at the time.
        case release(exposure: ShutterSpeed, setting: CameraShutterSpeed?)
        /// `nextImage(to:waitingAtMost:)` that returned an image, with the folder it went to.
        case nextImage(destination: CaptureDestination)
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
        /// A release that fired nothing (a full buffer).
        case releaseIgnored
        /// A release the body refused after its half-press: nothing fired.
        case releaseRefused

        /// Busy only.
        package var isTransient: Bool { self == .busy }
        /// Drops and refusals.
        package var isConnectionLost: Bool { self == .connectionLost || self == .refused }
        /// A release that fired nothing.
        package var isReleaseIgnored: Bool { self == .releaseIgnored }
        /// A release refused after its half-press.
        package var isReleaseRefused: Bool { self == .releaseRefused }
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
    /// The images waiting in the camera, oldest first (the name, the exposure recorded).
    package private(set) var buffer: [(name: String, exposure: ShutterSpeed?)] = []
    /// Calls of `mediaStatus`.
    package private(set) var mediaChecks = 0
    /// Calls of `makeDurable`.
    package private(set) var durableCalls = 0
    /// Images handed out by `nextImage` while a release waited (`Script.fetchesBehindIgnoredReleases`).
    package private(set) var downloadsDuringReleases = 0
    /// Images handed out by `nextImage`.
    package private(set) var downloaded = 0
    /// What every `nextImage` call was told to wait at most, in order.
    package private(set) var waits: [Duration] = []
    /// Files moved by `move`, as (from name, to folder name, new name).
    package private(set) var moves: [(from: String, folder: String, name: String)] = []
    private var speedSets = 0
    /// The images waiting when the last release was pressed (nil before any).
    private var countBeforeRelease: Int?
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
        self.buffer = script.strayImages.enumerated().map { ("STRAY\($0.offset + 1).JPG", $0.element) }
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
        if script.refusesSpeedWhileBuffered, !buffer.isEmpty, current != speed {
            throw InMemoryCameraError.fault("speed not taken while images wait")
        }
        guard script.speeds.contains(speed) else { throw InMemoryCameraError.unsupportedSpeed(speed) }
        current = speed
    }

    /// "Fires": puts a made-up image recording the speed set into the buffer, or fails as scripted.
    ///
    /// `beforeRelease` is called where the release is modelled: after the busy answers of `busyCaptures`, before
    /// `busyReleases` and before the shot counts (so held, failing and dropping shots all come after it). Its
    /// error is rethrown as is, with no shot counted.
    package func release(
        exposure: ShutterSpeed, beforeRelease: @Sendable () async throws -> Void
    ) async throws
        -> Release
    {
        calls.append(.release(exposure: exposure, setting: current))
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
        if script.refusesReleaseWhileBuffered, !buffer.isEmpty { throw InMemoryCameraError.releaseRefused }
        countBeforeRelease = buffer.count
        if buffer.count >= script.bufferCapacity { throw InMemoryCameraError.releaseIgnored }
        let releaseCalls = calls.filter { if case .release = $0 { true } else { false } }.count
        if script.ignoredReleases.contains(releaseCalls) { throw InMemoryCameraError.releaseIgnored }
        shots += 1
        let shot = shots
        if script.heldShots.contains(shot) {
            for await _ in gate { break }
            try Task.checkCancellation()
            try requireConnection()
        }
        if let error = script.failingShots[shot] { throw error }
        let recorded: ShutterSpeed? = if case .timed(let speed) = current { speed } else { exposure }
        if script.dropConnectionAtShots.contains(shot) {
            if script.imageSurvivesDropAtShots.contains(shot) {
                shotSettings.append(current ?? .bulb)
                buffer.append(("DSC\(10000 + shot).ARW", recorded))
            }
            drop()
            throw InMemoryCameraError.connectionLost
        }
        shotSettings.append(current ?? .bulb)
        if let left = script.media.remainingShots { script.media.remainingShots = max(0, left - 1) }
        if !script.lostImageAtShots.contains(shot) {
            if script.rawJPEGShots.contains(shot) {
                buffer.append(("DSC\(10000 + shot).JPG", recorded))
                buffer.append(("DSC\(10000 + shot).ARW", recorded))
            } else {
                buffer.append(("DSC\(10000 + shot).ARW", recorded))
            }
        }
        if script.lateEvidenceShots.contains(shot) { throw InMemoryCameraError.releaseIgnored }
        return Release(evidence: .capturedEvent, imagesWaiting: buffer.count)
    }

    /// The images waiting now and when the last release was pressed (nil before any release).
    package func bufferCount() async throws -> BufferCount? {
        try requireConnection()
        return countBeforeRelease.map { BufferCount(now: buffer.count, beforeLastRelease: $0) }
    }

    /// `release(exposure:beforeRelease:)`; with `fetchesBehindIgnoredReleases`, an ignored release calls
    /// `whileUnconfirmed` (counting the files it fetched in `downloadsDuringReleases`) before it throws.
    package func release(
        exposure: ShutterSpeed, beforeRelease: @Sendable () async throws -> Void,
        whileUnconfirmed: @Sendable () async -> Void
    ) async throws -> Release {
        do {
            return try await release(exposure: exposure, beforeRelease: beforeRelease)
        } catch InMemoryCameraError.releaseIgnored where script.fetchesBehindIgnoredReleases {
            let before = downloaded
            await whileUnconfirmed()
            downloadsDuringReleases += downloaded - before
            throw InMemoryCameraError.releaseIgnored
        }
    }

    /// Hands out the oldest image in the buffer as if written into `destination` (nothing is written); nil
    /// when the buffer is empty (no waiting: nothing arrives later in this camera).
    package func nextImage(to destination: CaptureDestination, waitingAtMost: Duration) async throws -> SavedImage? {
        try requireConnection()
        waits.append(waitingAtMost)
        guard !buffer.isEmpty else { return nil }
        if script.heldDownloads.contains(downloaded + 1) {
            for await _ in gate { break }
            try Task.checkCancellation()
            try requireConnection()
        }
        let (name, exposure) = buffer.removeFirst()
        calls.append(.nextImage(destination: destination))
        downloaded += 1
        let fileName = destination.fileNamePrefix + name
        return SavedImage(
            fileName: fileName, path: destination.directory.appendingPathComponent(fileName).path, byteCount: 1024,
            exposure: exposure)
    }

    /// Records the move and returns the image's new record (nothing is moved: nothing was written).
    package func move(_ image: SavedImage, toFolder folder: URL, name: String) async throws -> SavedImage {
        moves.append((image.fileName, folder.lastPathComponent, name))
        var moved = image
        moved.fileName = name
        moved.path = folder.appendingPathComponent(name).path
        return moved
    }

    /// Nothing reported: images cross the link.
    package func transferSettings() async -> TransferSettings { TransferSettings() }

    /// The scripted images left behind in `destination`'s folder that `known` does not name (handed out once).
    package func filesLeftBehind(in destination: CaptureDestination, known: Set<String>) async throws -> [SavedImage] {
        let folder = destination.directory.path
        let found = script.leftBehind.filter {
            ($0.path as NSString).deletingLastPathComponent == folder && !known.contains($0.path)
        }
        script.leftBehind.removeAll { found.contains($0) }
        return found
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
