import CameraSimulator
import Foundation
import Posix
import Shooting
import Synchronization

/// The world's local disk as a device with a drawn size (issue 37's full local disk): bound as `FileSpace.current`
/// for the day, so every write hdrshoot makes (images, journal) is granted only the room left, then fails with
/// `ENOSPC` as write(2) does, and the free bytes hdrshoot asks for (`FileSpace.available`) are that room.
///
/// The room used is what the world's folder holds now (the journal and the images, summed), so a deleted or
/// replaced file gives its room back, as on a real device. Drawn at a byte count: the disk fills at a moment in
/// the shoot. Once a life ended on it, the photographer frees space (`freeSpace`) and runs `resume`.
final class WorldDevice: FileSpace.Device {
    private struct State {
        var capacity: Int?
        /// Writes refused for want of room.
        var refused = 0
        /// Times hdrshoot met the full disk (a write refused, or a look at the room that found less than an
        /// image) since the world last asked (`takeTimesMet`).
        var met = 0
    }

    let folder: URL
    /// The deliberate break `full-disk-unseen`: hdrshoot's free-space check is told there is room, so a download
    /// starts on a full disk (the writes still fail).
    let hidesFullness: Bool
    private let state: Mutex<State>

    /// The size of the day's images: a look at the room that finds less has met the full disk.
    let imageSize: Int

    init(folder: URL, capacity: Int, imageSize: Int, hidesFullness: Bool = false) {
        self.folder = folder
        self.imageSize = imageSize
        self.hidesFullness = hidesFullness
        state = Mutex(State(capacity: capacity))
    }

    /// The free bytes hdrshoot is told (`FileSpace.available`).
    func freeBytes() -> Int {
        let room = room()
        if room < imageSize { state.withLock { $0.met += 1 } }
        return hidesFullness ? 1 << 40 : room
    }

    /// Times hdrshoot met the full disk since the last call.
    func takeTimesMet() -> Int {
        state.withLock { state in
            defer { state.met = 0 }
            return state.met
        }
    }

    /// The room left: the capacity less what the folder holds (effectively unlimited once space was freed).
    func room() -> Int {
        guard let capacity = state.withLock({ $0.capacity }) else { return 1 << 40 }
        return max(0, capacity - used())
    }

    func grant(_ count: Int) -> Int {
        let free = room()
        if free < count {
            state.withLock {
                $0.refused += 1
                $0.met += 1
            }
        }
        return min(count, free)
    }

    /// Whether the disk is full for an image of `size` bytes (the room hdrshoot needs to fetch it).
    func isFull(for size: Int) -> Bool { room() < size }

    /// Writes refused with `ENOSPC` so far.
    var writesRefused: Int { state.withLock { $0.refused } }

    /// The photographer freed space: no limit for the rest of the day.
    func freeSpace() { state.withLock { $0.capacity = nil } }

    /// The bytes the world's folder holds (its regular files, summed).
    private func used() -> Int {
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey])
        else { return 0 }
        var total = 0
        for case let url as URL in files {
            total += (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        return total
    }
}

extension SimulationWorld {
    /// Before a resume: what the photographer does about a full card or a full disk the last life ended on (they
    /// read the stop message). The card is swapped (the body's buffer is its own memory and is kept); the disk gets
    /// space freed. Each is noted in the timeline as a fault, and counted.
    func mendFullMedia() {
        // What the last life met is its own.
        _ = body.takePressesOnFullCard()
        _ = device?.takeTimesMet()
        if body.cardIsFull {
            body.swapCard()
            mediaFaults.withLock { $0.cardSwaps += 1 }
        }
        if let device, device.isFull(for: day.body.imageSize + 65_536) {
            device.freeSpace()
            body.note("the photographer frees space on the disk (fault: it was full)")
            mediaFaults.withLock { $0.spaceFreed += 1 }
        }
    }

    /// `stop-says-what-happened`: a life that ended early while the card or the disk was full stopped with a
    /// reason that names it, and the counts its end line is made of (saved, in the camera, where `resume` starts)
    /// agree with the journal on disk.
    func checkStop(_ result: ShootResult, journal: ShootJournal?) {
        guard let reason = result.stopReason else { return }
        var said: String
        var failed = true
        switch reason {
        case let .failed(error): said = "\(error)"
        case let .recordingFailed(error): said = "the journal could not be written: \(error)"
        case let .reconnectGaveUp(_, error): said = "reconnect gave up: \(error.map { "\($0)" } ?? "-")"
        case .stopRequested: (said, failed) = ("stop requested", false)
        case .cancelled: (said, failed) = ("cancelled", false)
        }
        // The day's folder has a name of its own on each run; the timeline says it the same way on every replay.
        said = said.replacingOccurrences(of: folder.path, with: "<day>")
        body.note(
            "the run stops: \(said); \(result.fired) of \(result.total) fired: \(result.saved) saved, "
                + "\(result.inCamera) in the camera; resume from \(result.resumePosition.map { "\($0)" } ?? "-")")
        // Full, and met by this life: it pressed the shutter on the full card, or found (or hit) the disk full. A
        // stop for another reason while the card is full but was never pressed (or the disk never looked at) need
        // not name it.
        let cardFull = body.takePressesOnFullCard() > 0 && body.cardIsFull
        let diskFull = (device?.takeTimesMet() ?? 0) > 0 && device?.isFull(for: day.body.imageSize) == true
        // The photographer's own Stop says why it stopped by itself.
        guard failed, cardFull || diskFull else { return }
        if result.resumePosition == nil {
            violation("stop-says-what-happened: the run stopped (\(said)) but says no frame to resume from")
        }
        if let journal {
            let saved = journal.plan.positions.filter {
                if case .done = journal.frame(at: $0).state { return true }
                return false
            }.count
            if saved != result.saved {
                violation(
                    "stop-says-what-happened: the stop says \(result.saved) saved, the journal \(saved) (\(said))")
            }
        }
        // The cause named: a full card as such, a full disk by its space (either when both are full).
        let names = said.lowercased()
        let namesDisk = names.contains("disk") || names.contains("space")
        let namesCard = names.contains("cardfull") || names.contains("card")
        if diskFull, !cardFull, !namesDisk {
            violation("stop-says-what-happened: the disk was full and the stop said: \(said)")
        } else if cardFull, !diskFull, !namesCard {
            violation("stop-says-what-happened: the card was full and the stop said: \(said)")
        } else if cardFull, diskFull, !namesCard, !namesDisk {
            violation("stop-says-what-happened: the card and the disk were full and the stop said: \(said)")
        }
    }
}

/// How often a campaign drew the full card and the full disk, and what they did (printed by the quick run).
struct MediaTally: CustomStringConvertible {
    var cardDays = 0
    var cardSwaps = 0
    var diskDays = 0
    var spaceFreed = 0
    var writesRefused = 0
    /// Lives that ended on each cause, from the timeline's "the run stops" lines.
    var stops: [String: Int] = [:]

    mutating func count(_ world: SimulationWorld) {
        if world.day.cardShots != nil { cardDays += 1 }
        if world.day.diskCapacity != nil { diskDays += 1 }
        let (swaps, freed) = world.mediaFaults.withLock { ($0.cardSwaps, $0.spaceFreed) }
        cardSwaps += swaps
        spaceFreed += freed
        writesRefused += world.device?.writesRefused ?? 0
        for line in world.body.timeline where line.contains("the run stops: ") {
            let cause = line.split(separator: ":").dropFirst().first.map {
                String($0.drop { $0 == " " }.prefix { $0.isLetter || $0 == " " })
            }
            stops[cause ?? "?", default: 0] += 1
        }
    }

    var description: String {
        "full card drawn on \(cardDays) days, card swapped \(cardSwaps) times; full disk drawn on \(diskDays) days, "
            + "space freed \(spaceFreed) times, \(writesRefused) writes refused with ENOSPC; runs stopped by: "
            + stops.keys.sorted().map { "\($0) \(stops[$0]!)" }.joined(separator: ", ")
    }
}

extension WorldBody {
    /// Shutter-button operations received while the card was full, since the last call.
    func takePressesOnFullCard() -> Int {
        state.withLock { state in
            defer { state.pressesOnFullCard = 0 }
            return state.pressesOnFullCard
        }
    }

    /// Whether the body's card is full (0xD249 reads 0: it fires nothing).
    var cardIsFull: Bool { state.withLock { $0.camera.cardIsFull } }

    /// The photographer puts in an empty card (`SimulatedCamera.cardSwapped`).
    func swapCard() {
        state.withLock { state in
            state.camera.cardSwapped(shots: 9_999)
            state.timeline.append("t+\(Self.seconds(state.now)) the photographer swaps the full card (fault)")
        }
    }
}
