import Exposure
import Foundation
import ImageLuminance
import ShootKit
import Synchronization

/// The application layer's `ShootController` as the web remote's `RemoteShoot`: the page is its second client.
///
/// The page sees the controller's snapshot (the update type's `snapshot` case) after every update, so a page
/// that missed some still draws the whole state. Commands are the controller's own (`ShootCommand`); starting a
/// shoot is the front end's (`start`), which for `run --remote` refuses (the terminal started it) and for
/// `serve` prepares a shoot through the same pipeline as `run`. Thumbnails are the JPEGs the shoot saved, found
/// by set and frame in its updates, never by a path from a request.
package final class ControllerRemote: RemoteShoot {
    /// Starts a shoot for a typed request from the page; throws a refusal to say why not.
    package typealias Starter = @Sendable (ShootRequest) async throws(RemoteCommandRefusal) -> Void

    private struct State {
        var controller: ShootController?
        var files: [ShootUpdate.Position: [String]] = [:]
        var log: SessionLogTail?
        /// The shoot's notes (the network watch's sentences), the last few: the page shows them with the link.
        var notes: [String] = []
        /// The last thumbnail made (a reload asks for the same frame again).
        var lastThumbnail: (position: ShootUpdate.Position, bytes: [UInt8])?
        /// The last luma reading made (the page asks once per frame shown, again on a reload).
        var lastLuminance: (position: ShootUpdate.Position, reading: FrameLuminanceReading)?
    }

    private let state = Mutex(State())
    private let stream: AsyncStream<[UInt8]>
    private let sink: AsyncStream<[UInt8]>.Continuation
    private let start: Starter
    private let scale: ShutterScale
    private let messages: any ShootMessages
    private let offer: @Sendable () async -> ResumableShoot?
    private let check: @Sendable () async throws(RemoteCommandRefusal) -> IdleCameraStatus
    /// The largest image read for a thumbnail.
    private let maximumImageBytes = 64 << 20

    /// A remote with no shoot yet (the page shows "Ready"): forms are typed on `scale` (refusals said through
    /// `messages`) and handed to `start`; `resumable` finds the unfinished shoot to offer; `checkCamera` reads
    /// the camera while no shoot runs.
    package init(
        scale: ShutterScale = .third, messages: any ShootMessages, start: @escaping Starter,
        resumable: @escaping @Sendable () async -> ResumableShoot? = { nil },
        checkCamera: @escaping @Sendable () async throws(RemoteCommandRefusal) -> IdleCameraStatus = {
            () throws(RemoteCommandRefusal) in
            throw RemoteCommandRefusal("The camera is checked before each shoot here; see the plan.")
        }
    ) {
        self.check = checkCamera
        self.start = start
        self.scale = scale
        self.messages = messages
        self.offer = resumable
        (stream, sink) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(1))
        sink.yield(Self.encode(ShootSnapshot()))
    }

    /// Follows `controller`'s updates until its shoot ends; commands go to it from now on, and `log` (the shoot's
    /// session log) gives the link's health. A front end runs this beside the shoot (it returns when the
    /// controller's stream ends).
    package func follow(_ controller: ShootController, log: SessionLogTail? = nil) async {
        state.withLock {
            $0.controller = controller
            $0.files = [:]
            $0.log = log
            $0.notes = []
            $0.lastThumbnail = nil
            $0.lastLuminance = nil
        }
        var snapshot = ShootSnapshot()
        for await update in controller.updates() {
            snapshot = snapshot.applying(update)
            if case .progress(let progress) = update, let files = progress.files {
                let position = ShootUpdate.Position(set: progress.set, frame: progress.frame)
                state.withLock { $0.files[position] = files }
            }
            if case .note(let note) = update {
                state.withLock { state in
                    state.notes.append(note.message)
                    if state.notes.count > Self.shownNotes { state.notes.removeFirst() }
                }
            }
            sink.yield(Self.encode(snapshot))
        }
    }

    package func states() async -> AsyncStream<[UInt8]> { stream }

    package func perform(_ command: RemoteCommand) async throws(RemoteCommandRefusal) {
        let shootCommand: ShootCommand
        switch command {
        case .shoot(let form):
            try await start(try form.request(scale: scale, messages: messages))
            return
        case .confirm: shootCommand = .confirm
        case .decline: shootCommand = .decline
        case .pause: shootCommand = .pause
        case .resume: shootCommand = .resume
        case .stop: shootCommand = .stop
        }
        guard let controller = state.withLock({ $0.controller }) else {
            throw RemoteCommandRefusal("No shoot is under way.")
        }
        guard await controller.send(shootCommand) else {
            throw RemoteCommandRefusal("The shoot cannot \(shootCommand.command.rawValue) now.")
        }
    }

    package func thumbnail(set: Int, frame: Int) async -> [UInt8]? {
        let position = ShootUpdate.Position(set: set, frame: frame)
        let (files, cached) = state.withLock { state in
            (state.files[position] ?? [], state.lastThumbnail.flatMap { $0.position == position ? $0.bytes : nil })
        }
        if let cached { return cached }
        guard let jpeg = files.first(where: { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) })
        else { return nil }
        guard let handle = FileHandle(forReadingAtPath: jpeg) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumImageBytes) else { return nil }
        guard let thumbnail = Thumbnail.make(fromJPEG: Array(data)) else { return nil }
        state.withLock { $0.lastThumbnail = (position, thumbnail) }
        return thumbnail
    }

    package func luminance(set: Int, frame: Int) async -> FrameLuminanceReading? {
        let position = ShootUpdate.Position(set: set, frame: frame)
        let (files, cached) = state.withLock { state in
            (state.files[position] ?? [], state.lastLuminance.flatMap { $0.position == position ? $0.reading : nil })
        }
        if let cached { return cached }
        // The shoot's range watch measures the frame's files in this order with these thresholds (RangeWatch).
        let thresholds = RangeThresholds.magicLantern
        guard !files.isEmpty, let record = await RangeWatch.record(paths: files, thresholds: thresholds) else {
            return nil
        }
        let reading = FrameLuminanceReading(
            histogram: record.histogram, clippedPercent: record.clippedPercent, blockedPercent: record.blockedPercent,
            highlightLevel: Double(thresholds.highlightLevel), shadowLevel: Double(thresholds.shadowLevel))
        state.withLock { $0.lastLuminance = (position, reading) }
        return reading
    }

    package func resumable() async -> ResumableShoot? { await offer() }

    /// How many of the shoot's notes the page is shown.
    static let shownNotes = 3

    package func link() async -> LinkHealth? {
        let (log, notes) = state.withLock { ($0.log, $0.notes) }
        guard var health = log?.read() ?? (notes.isEmpty ? nil : LinkHealth()) else { return nil }
        health.notes = notes
        return health
    }

    package func checkCamera() async throws(RemoteCommandRefusal) -> IdleCameraStatus { try await check() }

    private static func encode(_ snapshot: ShootSnapshot) -> [UInt8] {
        // One line of `--json`, without its newline (an SSE `data:` line must not contain one).
        Array(ShootUpdate.snapshot(snapshot).jsonLine.utf8.dropLast())
    }
}
