import CameraSimulator
import Exposure
import Foundation
import ImageMetadata
import PTPIP
import PTPIPCodec
import Posix
import Shooting
import SonyCamera
import Synchronization
import TestSupport

/// A photographer's hand on the run at a virtual time: Stop, or Pause held for a while and then Resume.
struct ControlFault: Sendable {
    enum Action: Sendable {
        case stop
        case pause(Duration)
    }
    var at: Duration
    var action: Action
}

/// What one seed draws: the plan, the body, the network's faults and the crashes.
struct FieldDay: Sendable, CustomStringConvertible {
    var plan: BracketPlan
    var body: SimulatorConfiguration
    var faults: NetworkFaults
    /// Virtual times (since the start) at which the process is killed.
    var crashes: [Duration]
    var bufferLimit: Int
    /// Stop and Pause/Resume at virtual times (each once: a life started after one's time never sees it).
    var controls: [ControlFault]
    /// The full memory card: the shots the card holds at the start (the body's own `--card-shots`); nil: room.
    var cardShots: Int?
    /// The full local disk: the bytes the world's folder (journal and images) may hold; nil: room.
    var diskCapacity: Int?

    /// The speeds plans draw from (all on the simulator's third-stop scale, short so a day is quick).
    static let denominators = [8000, 4000, 2000, 1000, 500, 250, 125, 60, 30, 15, 8, 4]

    init(seed: UInt64) {
        var root = SeededRandom(seed: seed)
        var planDraw = root.split(1)
        var bodyDraw = root.split(2)
        var faultDraw = root.split(3)
        let sets = Int(planDraw.next() % 3) + 1
        plan = BracketPlan(
            sets: (0..<sets).map { _ in
                let count = Int(planDraw.next() % 5) + 3
                let step = Int(planDraw.next() % 2) + 1
                let first = Int(planDraw.next() % UInt64(max(1, Self.denominators.count - count * step + 1)))
                return (0..<count).map { index in
                    let position = min(Self.denominators.count - 1, first + index * step)
                    return ShutterSpeed(numerator: 1, denominator: Self.denominators[position])
                }
            })
        var body = SimulatorConfiguration()
        body.host = "simulated-body"
        body.port = 15740
        body.protocolVersion = bodyDraw.chance(0.5) ? 300 : 200
        body.imageSize = 4_000 + Int(bodyDraw.next() % 40_000)
        body.bufferCapacity = 2 + Int(bodyDraw.next() % 19)
        body.processingTime = .milliseconds(50 + Int(bodyDraw.next() % 750))
        body.stepDelay = .milliseconds(20 + Int(bodyDraw.next() % 180))
        body.cameraClock = ExifDateTime(year: 2026, month: 11, day: 26, hour: 17)
        body.faults = []
        let quirks: [SimulatorQuirk] = [
            .shootingFileInfoLag, .busyWhileBuffered, .busyAtStart(2), .longExposureNR, .capturedEventListedNotSent,
            .noEvents
        ]
        body.quirks = quirks.filter { _ in bodyDraw.chance(0.2) }
        self.body = body
        bufferLimit = 1 + Int(bodyDraw.next() % UInt64(body.bufferCapacity))
        faults = NetworkFaults(
            dropChance: faultDraw.chance(0.6) ? Double(faultDraw.next() % 40) / 1000 : 0,
            busyChance: faultDraw.chance(0.5) ? Double(faultDraw.next() % 40) / 1000 : 0,
            quietAfterOperation: 100 + Int(faultDraw.next() % 900))
        let crashCount = Int(faultDraw.next() % 3)
        let span = UInt64(plan.totalExposures) * 1500
        crashes = (0..<crashCount).map { _ in .milliseconds(Int(faultDraw.next() % span)) }.sorted()
        // Drawn from a split of their own, after the others: the days the seeds drew before keep their draws.
        var controlDraw = root.split(6)
        var controls: [ControlFault] = []
        if controlDraw.chance(0.25) {
            controls.append(ControlFault(at: .milliseconds(Int(controlDraw.next() % span)), action: .stop))
        }
        for _ in 0..<Int(controlDraw.next() % 3) where controlDraw.chance(0.5) {
            let length = Duration.milliseconds(500 + Int(controlDraw.next() % 30_000))
            controls.append(ControlFault(at: .milliseconds(Int(controlDraw.next() % span)), action: .pause(length)))
        }
        self.controls = controls.sorted { $0.at < $1.at }
        // The vanished-image fault: one day in five, from a split of its own (earlier draws keep their meaning).
        var vanishDraw = root.split(7)
        if vanishDraw.chance(0.2) { faults.vanishChance = Double(1 + vanishDraw.next() % 20) / 1000 }
        // The full card and the full disk: each one day in six, from splits of their own. The card fills after a
        // drawn number of shots; the disk at a drawn byte count (room for the journal, then part of the images).
        var cardDraw = root.split(9)
        if cardDraw.chance(1.0 / 6) {
            cardShots = Int(cardDraw.next() % UInt64(plan.totalExposures))
            self.body.cardShots = cardShots!
        }
        var diskDraw = root.split(10)
        if diskDraw.chance(1.0 / 6) {
            diskCapacity = 4_096 + Int(diskDraw.next() % UInt64(plan.totalExposures * self.body.imageSize))
        }
    }

    var description: String {
        let speeds = plan.sets.map { $0.map(\.description).joined(separator: " ") }.joined(separator: " | ")
        return """
            plan: \(speeds)
            body: protocol \(body.protocolVersion), image \(body.imageSize) B, buffer \(body.bufferCapacity), \
            processing \(body.processingTime), quirks [\(body.quirks.map(\.description).joined(separator: ", "))]
            runner: buffer limit \(bufferLimit)
            faults: drop \(faults.dropChance)/op, busy \(faults.busyChance)/op, \
            vanish \(faults.vanishChance)/op, quiet after op \
            \(faults.quietAfterOperation), crashes at [\(crashes.map { WorldBody.seconds($0) }.joined(separator: ", "))]
            controls: [\(controls.map(\.description).joined(separator: ", "))]
            media: card \(cardShots.map { "holds \($0) shots" } ?? "has room"), \
            disk \(diskCapacity.map { "holds \($0) B" } ?? "has room")
            """
    }
}

extension ControlFault: CustomStringConvertible {
    var description: String {
        switch action {
        case .stop: return "stop at \(WorldBody.seconds(at))"
        case let .pause(length): return "pause at \(WorldBody.seconds(at)) for \(WorldBody.seconds(length))"
        }
    }
}

/// A process's life as the journal sees it: once killed, nothing it does reaches the disk's journal again.
final class ProcessGate: Sendable {
    private let state = Mutex((killed: false, inFlight: 0))
    func kill() { state.withLock { $0.killed = true } }
    var isKilled: Bool { state.withLock { $0.killed } }
    var inFlight: Int { state.withLock { $0.inFlight } }

    func pass<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try state.withLock { state in
            if state.killed { throw ProcessKilled() }
            state.inFlight += 1
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        return try await body()
    }
}

/// The journal recorder of one process life, behind its gate.
struct GatedRecorder: ShootRecorder {
    let inner: JournalRecorder
    let gate: ProcessGate
    /// The deliberate break the world tries (`SimulationWorld.breakage`).
    var breakage: SimulationWorld.DeliberateBreak?
    func runWillStart(at position: ShootPosition, restartingSet: Bool) async throws {
        try await gate.pass { try await inner.runWillStart(at: position, restartingSet: restartingSet) }
    }
    func frameWillFire(at position: ShootPosition, setting: CameraShutterSpeed) async throws {
        // The deliberate break `fire-before-journal`: the release goes out before the journal says a frame is about
        // to fire (the write-ahead record is skipped), so a kill before the body's confirmation leaves the frame
        // "to shoot" while its image waits in the camera.
        if breakage == .fireBeforeJournal { return }
        try await gate.pass { try await inner.frameWillFire(at: position, setting: setting) }
    }
    func frameDidFire(at position: ShootPosition) async throws {
        try await gate.pass { try await inner.frameDidFire(at: position) }
    }
    func frameDidSave(at position: ShootPosition, frame: CapturedFrame) async throws {
        try await gate.pass { try await inner.frameDidSave(at: position, frame: frame) }
    }
    func frameDidFail(at position: ShootPosition, error: any Error, mayHaveFired: Bool) async throws {
        try await gate.pass { try await inner.frameDidFail(at: position, error: error, mayHaveFired: mayHaveFired) }
    }
    func runDidPause(_ reason: PauseReason) async throws {
        try await gate.pass { try await inner.runDidPause(reason) }
    }
    func runDidResume(_ reason: PauseReason) async throws {
        try await gate.pass { try await inner.runDidResume(reason) }
    }
    func runDidFinish(_ result: ShootResult) async throws {
        try await gate.pass { try await inner.runDidFinish(result) }
    }
}

/// One seeded field day: the real `SonyCamera`, `PTPIPClient`, `BracketRunner`, journal and downloads against the
/// real `SimulatedCamera` over in-memory connections, on a `TestClock` only the world moves.
final class SimulationWorld: Sendable {
    let seed: UInt64
    let day: FieldDay
    let clock = TestClock()
    let body: WorldBody
    let disk: SimulatedDisk
    let folder: URL
    let store: JournalStore
    let journalID: String
    /// The world's one thread: every job of the simulated process runs on it, one at a time (`WorldExecutor`).
    let executor: WorldExecutor
    /// The deliberate break this world tries (`SIM_BREAK` unless a test gives one); nil: hdrshoot as built.
    let breakage: DeliberateBreak?
    /// Violations found while the day ran (a journal that does not load after a crash, a stuck world).
    private let found = Mutex<[String]>([])
    /// The process kills the world carried out.
    private let kills = Mutex(0)
    /// The jobs the world's executor ran by the end of the day (part of the trace: the same on every run).
    private let jobsRun = Mutex(0)
    /// The controls (`FieldDay.controls`, by index) that a life carried out.
    private let controlsDone = Mutex<Set<Int>>([])
    /// The full local disk's device (`FieldDay.diskCapacity`); nil: the day's disk has room.
    let device: WorldDevice?
    /// The full card and the full disk as they hit: cards swapped and space freed (`mendFullMedia`).
    let mediaFaults = Mutex((cardSwaps: 0, spaceFreed: 0))

    /// The deliberately broken builds the campaign is tried on (`SIM_BREAK`). They live in the world (this test
    /// target) only: hdrshoot's own code is never built broken.
    enum DeliberateBreak: String, CaseIterable, Sendable {
        /// `refire-in-camera`: resume forgets the frames the journal says wait in the camera and fires them again
        /// while their images are still in the body (the frames that may have fired are still looked for).
        case refireInCamera = "refire-in-camera"
        /// `fire-before-journal`: the release goes out without its write-ahead "about to fire" record.
        case fireBeforeJournal = "fire-before-journal"
        /// `resume-forgets-camera`: resume forgets both the frames in the camera and those that may have fired.
        case resumeForgetsCamera = "resume-forgets-camera"
        /// `save-before-fsync`: a frame is recorded saved without its files' fsyncs awaited (`DiskCamera`).
        case saveBeforeFsync = "save-before-fsync"
        /// `full-disk-unseen`: hdrshoot's free-space check before a download always finds room (`WorldDevice`), so
        /// an image is fetched onto a full disk and its writes fail with ENOSPC after the body let it go.
        case fullDiskUnseen = "full-disk-unseen"
        /// `full-card-unread`: the runner is never told the card's shots left (`DiskCamera.mediaStatus`), so a full
        /// card's stop cannot say why.
        case fullCardUnread = "full-card-unread"
    }

    /// The break this run tries (`SIM_BREAK`); nil: hdrshoot as built.
    static let deliberateBreak: DeliberateBreak? = ProcessInfo.processInfo.environment["SIM_BREAK"].map {
        guard let value = DeliberateBreak(rawValue: $0) else {
            fatalError("SIM_BREAK=\($0) is none of \(DeliberateBreak.allCases.map(\.rawValue))")
        }
        return value
    }

    /// At most this many process lives (first run, resumes after crashes, resumes after a failed run).
    static let maximumLives = 12

    convenience init(seed: UInt64) throws {
        try self.init(seed: seed, day: FieldDay(seed: seed))
    }

    /// A world whose day is given (a focused test's script) rather than drawn; `seed` still draws the body's
    /// random faults.
    init(seed: UInt64, day: FieldDay, breakage: DeliberateBreak? = SimulationWorld.deliberateBreak) throws {
        self.seed = seed
        self.day = day
        self.breakage = breakage
        var root = SeededRandom(seed: seed)
        // Split in this order (the body's, the disk's, then the vanished images'): each seed keeps its draws.
        let bodyRandom = root.split(4)
        disk = SimulatedDisk(random: root.split(5))
        body = try WorldBody(
            configuration: day.body, random: bodyRandom, faults: day.faults, clock: clock, vanishRandom: root.split(8))
        let folder = try Self.temporaryFolder(seed: seed)
        self.folder = folder
        device = day.diskCapacity.map {
            WorldDevice(
                folder: folder, capacity: $0, imageSize: day.body.imageSize, hidesFullness: breakage == .fullDiskUnseen)
        }
        store = JournalStore(directory: folder.appendingPathComponent("journals"))
        journalID = "sim-\(seed)"
        executor = WorldExecutor(name: "world-\(seed)")
    }

    /// The trace's 64-bit FNV-1a digest, in hex: a short name for the whole day (`SIM_TRACES`).
    var traceDigest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in trace.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }

    /// The day's folder (journal and images): in memory (tmpfs, /dev/shm) where the machine has one, since the
    /// simulated disk, not the real one, decides what a kill keeps, and a real fsync there costs nothing (on
    /// /tmp the fsyncs made the quick run seven times slower); the system's temporary folder otherwise.
    static func temporaryFolder(seed: UInt64) throws -> URL {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder), isFolder.boolValue,
            FileManager.default.isWritableFile(atPath: "/dev/shm")
        else { return try TemporaryFolder(prefix: "hdrshoot-sim-\(seed)").url }
        let url = URL(fileURLWithPath: "/dev/shm/hdrshoot-sim-\(seed)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func violation(_ text: String) { found.withLock { $0.append(text) } }

    /// What the day did, for comparing runs of one seed: the timeline, the jobs the process ran and the broken
    /// promises. Exact replay means two runs give the same trace byte for byte.
    var trace: String {
        (body.timeline + ["jobs run: \(jobsRun.withLock { $0 })"] + found.withLock { $0 }).joined(separator: "\n")
    }

    /// The faults the day drew and the world injected: busy answers, drops (before a request or mid-reply) and
    /// process kills.
    var faultsInjected: Int {
        body.faultsInjected + kills.withLock { $0 } + controlsDone.withLock { $0.count }
            + mediaFaults.withLock { $0.cardSwaps + $0.spaceFreed }
    }

    /// Runs the day to its end and checks every invariant; returns the violations (empty: every promise kept).
    ///
    /// The whole day runs on the world's executor (its driver too), so the day is the same on every run of the
    /// seed, at any load.
    func run() async -> [String] {
        let executor = self.executor
        defer { executor.shutDown() }
        return await withTaskExecutorPreference(executor) {
            await TaskPlacement.$worldExecutor.withValue(executor) {
                // The day's disk, when it drew a size (every write of the process is granted its room).
                await FileSpace.$current.withValue(device) { await self.runDay() }
            }
        }
    }

    private func runDay() async -> [String] {
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try await store.prepare()
        } catch {
            return ["the journal folder could not be prepared: \(error)"]
        }
        var crashes = day.crashes
        var finished = false
        for life in 1...Self.maximumLives {
            if life > 1 { mendFullMedia() }
            body.note("process life \(life) starts\(life > 1 ? " (resume)" : "")")
            let gate = ProcessGate()
            let outcome = Mutex<String?>(nil)
            // On the world's executor, like the driver: the driver looks only when the process has nothing to run.
            let task = Task(executorPreference: executor) { [self] in
                let text = await self.life(life, gate: gate)
                outcome.withLock { $0 = text }
            }
            let crashAt = crashes.first
            let killed = await drive(until: { outcome.withLock { $0 != nil } }, gate: gate, crashAt: crashAt)
            if killed {
                crashes.removeFirst()
                kills.withLock { $0 += 1 }
                gate.kill()
                body.processDied()
                task.cancel()
                _ = await drive(until: { outcome.withLock { $0 != nil } }, gate: gate, crashAt: nil)
                // What the killed process did not make durable is lost with it.
                for line in disk.crash(
                    folder: folder.appendingPathComponent("shoot"), wholeImageSize: day.body.imageSize)
                {
                    body.note(line)
                }
                continue
            }
            await task.value
            let text = outcome.withLock { $0 } ?? "?"
            body.note("process life \(life) ends: \(text.replacingOccurrences(of: folder.path, with: "<day>"))")
            if text == "complete" {
                finished = true
                break
            }
            if text.hasPrefix("stuck") { break }
        }
        if !finished { violation("shoot-finishes: the shoot did not finish in \(Self.maximumLives) process lives") }
        await checkInvariants()
        jobsRun.withLock { $0 = executor.jobsRun }
        return found.withLock { $0 }
    }

    /// Moves virtual time while the life runs: each step lets every task run until all wait, then moves the clock
    /// to the earliest sleeper's or the body's deadline. Returns true when the crash time came first.
    private func drive(until done: () -> Bool, gate: ProcessGate, crashAt: Duration?) async -> Bool {
        while true {
            guard await settle() else {
                violation("world-progresses: the process never stops running (its jobs enqueue jobs forever)")
                return stuck(gate)
            }
            if done() { return false }
            let now = clock.now.offset
            let due = [clock.pendingDeadlines.first?.offset, body.nextDeadline].compactMap { $0 }.min()
            if let crashAt, crashAt <= (due ?? crashAt) {
                body.advance(to: max(now, crashAt))
                clock.advance(to: .init(offset: max(now, crashAt)))
                return true
            }
            // Every task waits and nothing is due: nothing will ever wake the process.
            guard let due else {
                violation("world-progresses: nothing is scheduled and the shoot does not end (stuck)")
                return stuck(gate)
            }
            let next = max(due, now)
            if next - now >= .seconds(5) {
                body.note("time jumps \(WorldBody.seconds(next - now)) (\(clock.sleeperCount) sleepers waiting)")
            }
            body.advance(to: next)
            clock.advance(to: .init(offset: next))
        }
    }

    /// The stuck process is killed (the day ends there).
    private func stuck(_ gate: ProcessGate) -> Bool {
        body.note("stuck: no sleeper, no deadline")
        gate.kill()
        body.processDied()
        return true
    }

    /// Lets every job of the process run until none is queued: then every task waits for the clock or the body.
    /// The driver is a job on the same one-thread executor, so nothing runs while it looks; its yield puts it
    /// behind every job queued now. False when the process never settles.
    private func settle() async -> Bool {
        for _ in 0..<1_000_000 {
            if executor.queued == 0 { return true }
            await Task.yield()
        }
        return false
    }

    /// One process: connect, load (or create) the journal, run the runner from where the journal says.
    private func life(_ number: Int, gate: ProcessGate) async -> String {
        var configuration = SonyCameraConfiguration(
            host: "simulated-body", port: 15740,
            identity: HostIdentity(guid: PTPIPGUID(bytes: Array(repeating: 7, count: 16))!, friendlyName: "sim"))
        // A killed process opens nothing again.
        configuration.connector = { [body] _ in try body.connect(for: gate) }
        let camera = SonyCamera(configuration: configuration, clock: clock)
        defer { Task(executorPreference: TaskPlacement.worldExecutor) { await camera.disconnect() } }
        do {
            try await camera.connectRetrying()
        } catch {
            return "connect failed: \(error)"
        }
        if gate.isKilled { return "killed" }
        var journal: ShootJournal
        var existing: ShootJournal?
        do {
            existing = try await store.load(id: journalID)
        } catch .notFound {
            // Killed before the journal was created: the photographer runs the shoot again.
            existing = nil
        } catch {
            violation("journal-loads: after process life \(number - 1) the journal does not load: \(error)")
            return "stuck: journal does not load"
        }
        if let existing {
            journal = existing
        } else {
            journal = ShootJournal(
                id: journalID, plan: day.plan, camera: await camera.identity,
                outputDirectory: folder.appendingPathComponent("shoot").path)
            do {
                try await gate.pass { try await store.create(journal) }
            } catch {
                return "journal not created: \(error)"
            }
        }
        guard let start = journal.resumePosition else {
            await camera.disconnect()
            return "complete"
        }
        let resumingAsLoaded = ResumeState(
            saved: Set(
                journal.plan.positions.filter { position in
                    if case .done = journal.frame(at: position).state { return position > start }
                    return false
                }),
            inCamera: journal.framesInCamera, mayHaveFired: journal.interruptedFrames,
            knownFiles: journal.filesNamed)
        var resuming = resumingAsLoaded
        switch breakage {
        case .refireInCamera: resuming.inCamera = []
        case .resumeForgetsCamera: resuming = ResumeState(saved: resumingAsLoaded.saved)
        case .fireBeforeJournal, .saveBeforeFsync, .fullDiskUnseen, .fullCardUnread, nil: break
        }
        body.note(
            "run from \(start): saved \(resuming.saved.count) later, in camera \(resuming.inCamera), "
                + "may have fired \(resuming.mayHaveFired)")
        let recorder = GatedRecorder(
            inner: JournalRecorder(journal: journal, store: store), gate: gate, breakage: breakage)
        let runner = BracketRunner(
            camera: DiskCamera(inner: camera, disk: disk, gate: gate, breakage: breakage), plan: journal.plan,
            configuration: BracketRunner.Configuration(
                outputDirectory: URL(fileURLWithPath: journal.outputDirectory), bufferLimit: day.bufferLimit),
            recorder: recorder, clock: clock)
        let resumingFrom = resuming
        let result = await withTaskGroup(of: ShootResult?.self) { group in
            group.addTask { await self.control(runner) }
            group.addTask { await runner.run(from: start, resuming: resumingFrom) }
            var result: ShootResult?
            while let next = await group.next() {
                guard let next else { continue }
                result = next
                group.cancelAll()
            }
            return result!
        }
        await camera.disconnect()
        if gate.isKilled { return "killed" }
        if result.stopReason != nil { checkStop(result, journal: try? await store.load(id: journalID)) }
        if let reason = result.stopReason { return "stopped: \(reason)" }
        return result.saved == result.total ? "complete" : "ended at \(result.saved)/\(result.total)"
    }

    /// The photographer's Stop and Pause/Resume that fall in this life (each carried out once in the day); returns
    /// nil when the run ends first (cancelled).
    private func control(_ runner: BracketRunner) async -> ShootResult? {
        let done = controlsDone.withLock { $0 }
        for (index, control) in day.controls.enumerated() where control.at >= clock.now.offset && !done.contains(index)
        {
            do {
                try await clock.sleep(until: .init(offset: control.at))
            } catch {
                return nil
            }
            controlsDone.withLock { _ = $0.insert(index) }
            switch control.action {
            case .stop:
                body.note("the photographer presses Stop (fault)")
                await runner.stop()
            case let .pause(length):
                body.note("the photographer pauses for \(WorldBody.seconds(length)) (fault)")
                await runner.pause(reason: PauseReason(.user, detail: "simulated pause"))
                try? await clock.sleep(for: length)
                body.note("the photographer resumes")
                await runner.resume(reason: PauseReason(.user, detail: "simulated pause"))
            }
        }
        return nil
    }

    // MARK: - Invariants

    private func checkInvariants() async {
        let journal: ShootJournal
        do {
            journal = try await store.load(id: journalID)
        } catch {
            violation("journal-loads: the final journal does not load: \(error)")
            return
        }
        var referenced = Set<String>()
        for position in journal.plan.positions {
            let record = journal.frame(at: position)
            for image in record.earlierImages + (record.unmatchedImages ?? []) { referenced.insert(image.path) }
            guard case let .done(images, _) = record.state else {
                violation("every-frame-saved: frame \(position) is \(record.state) at the end")
                continue
            }
            if images.isEmpty { violation("every-frame-saved: frame \(position) is done with no image") }
            for image in images {
                referenced.insert(image.path)
                checkFile(image, of: position, plan: journal.plan)
            }
        }
        let fired = body.framesFired
        let planned = journal.plan.totalExposures
        let lost = disk.lostImages + body.imagesVanished
        if fired > planned + lost {
            // The body keeps its buffer across drops and kills; an image is lost only when a crash takes a whole
            // file the process had not made durable (`SimulatedDisk`). Every release beyond one per frame and one
            // per lost image fired a frame whose image was not proven gone.
            let attempts = journal.plan.positions.map { "\($0): \(journal.frame(at: $0).attempts)" }
            violation(
                "no-refire-without-loss: the body fired \(fired) times for \(planned) frames and \(lost) image(s) "
                    + "were lost (\(body.imagesVanished) vanished in the body); attempts per frame: \(attempts.joined(separator: ", "))"
            )
        }
        let shoot = URL(fileURLWithPath: journal.outputDirectory)
        if let files = FileManager.default.enumerator(at: shoot, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in files {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                if !referenced.contains(url.path) {
                    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? -1
                    violation(
                        "no-stray-files: \(url.path.dropFirst(shoot.path.count)) (\(size) B) lies among the images "
                            + "but the journal does not name it")
                }
            }
        }
    }

    private func checkFile(_ image: SavedImage, of position: ShootPosition, plan: BracketPlan) {
        guard let bytes = FileManager.default.contents(atPath: image.path) else {
            violation("saved-files-exist: frame \(position)'s \(image.fileName) is saved in the journal but missing")
            return
        }
        if bytes.count != image.byteCount || bytes.count != day.body.imageSize {
            violation(
                "saved-files-whole: frame \(position)'s \(image.fileName) is \(bytes.count) B; the journal says "
                    + "\(image.byteCount) B, the body made \(day.body.imageSize) B")
        }
        guard let speed = plan.speed(at: position) else { return }
        guard let exposure = try? ExifReader.read(Array(bytes)).exposureSeconds else {
            violation("file-is-its-frames: frame \(position)'s \(image.fileName) has no readable EXIF exposure")
            return
        }
        let expected = Double(speed.numerator) / Double(speed.denominator)
        if abs(exposure - expected) > expected * 0.02 {
            violation(
                "file-is-its-frames: frame \(position) is \(speed) but its file \(image.fileName) was exposed "
                    + "\(exposure) s (EXIF)")
        }
    }
}

/// What a killed process's journal calls throw: they never reach the disk.
struct ProcessKilled: Error {}
