// Journal benchmark: the cost of one journal save through the real code path (JournalRecorder ->
// JournalStore: encode, safety check, temp file, fsync, rename, directory fsync), as a shoot makes them.
// Prints figures, asserts nothing. Run in release: `swift run -c release hdrshoot-bench journal`.
import Exposure
import Foundation
import Shooting

/// Registers `hdrshoot-bench journal`.
enum JournalBenchmark {
    /// The benchmark's entry in `Benchmarks.all`.
    static let benchmark = Benchmark(
        name: "journal",
        summary: "median µs per journal save (15- and 100-frame shoots), on disk and on tmpfs (fsync cost separated)"
    ) { arguments in
        let saves = BenchmarkSupport.option("saves", in: arguments).flatMap(Int.init) ?? 400
        let disk = BenchmarkSupport.option("dir", in: arguments) ?? FileManager.default.temporaryDirectory.path
        let memory = BenchmarkSupport.option("tmpfs", in: arguments) ?? "/dev/shm"
        BenchmarkSupport.blocking { await run(saves: max(10, saves), disk: disk, memory: memory) }
        return 0
    }

    /// Where a round of saves is written.
    struct Place {
        let name: String
        let path: String
    }

    static func run(saves: Int, disk: String, memory: String) async {
        print("Journal saves (JournalRecorder -> JournalStore, the path `hdrshoot run` takes; one save before each")
        print("  frame fires and one after it is saved; \(saves) measured saves per case after one warm-up shoot)")
        var places = [Place(name: "disk", path: disk)]
        if FileManager.default.fileExists(atPath: memory) { places.append(Place(name: "tmpfs", path: memory)) }
        for frames in [15, 100] {
            var medians: [String: Duration] = [:]
            for place in places {
                do {
                    let median = try await measure(frames: frames, saves: saves, in: place.path)
                    medians[place.name] = median
                    print(
                        "  \(frames) frames, \(place.name) (\(place.path)): median \(BenchmarkSupport.format(median, in: .microseconds)) per save"
                    )
                } catch {
                    print("  \(frames) frames, \(place.name) (\(place.path)): failed: \(error)")
                }
            }
            if let onDisk = medians["disk"], let inMemory = medians["tmpfs"] {
                print(
                    "  \(frames) frames: local work (tmpfs) \(BenchmarkSupport.format(inMemory, in: .microseconds)), "
                        + "fsyncs and disk \(BenchmarkSupport.format(onDisk - inMemory, in: .microseconds)) per save")
            }
        }
    }

    /// Shoots journals of `frames` frames (sets of 5) in a fresh state directory under `base` until `saves`
    /// saves are timed (after one untimed warm-up shoot); returns the median time per save.
    static func measure(frames: Int, saves: Int, in base: String) async throws -> Duration {
        let folder = URL(fileURLWithPath: base).appendingPathComponent("hdrshoot-bench-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = JournalStore(directory: folder)
        let speeds = (0..<5).map { ShutterSpeed(numerator: 1, denominator: 1000 >> $0) }
        let plan = BracketPlan(sets: Array(repeating: speeds, count: (frames + 4) / 5))
        let camera = CameraIdentity(
            model: "ILCE-7M4", serialNumber: "0123456789", address: "192.168.122.1:15740", ssid: "DIRECT-bench")
        let clock = ContinuousClock()
        var samples: [Duration] = []
        var shoot = 0
        while samples.count < saves {
            let journal = ShootJournal(
                id: String(format: "20260101-000000-%04x", shoot), plan: plan, camera: camera,
                outputDirectory: folder.path)
            try await store.create(journal)
            let recorder = JournalRecorder(journal: journal, store: store)
            var timed: [Duration] = []
            func timing(_ save: () async throws -> Void) async throws {
                let start = clock.now
                try await save()
                timed.append(clock.now - start)
            }
            try await timing { try await recorder.runWillStart(at: .start, restartingSet: false) }
            for position in plan.positions {
                let setting = CameraShutterSpeed.timed(plan.sets[position.set - 1][position.frame - 1])
                try await timing { try await recorder.frameWillFire(at: position, setting: setting) }
                let name = String(format: "DSC%05d.ARW", position.set * 100 + position.frame)
                let image = SavedImage(
                    fileName: name, path: folder.path + "/set-\(position.set)/" + name, byteCount: 24_117_248)
                try await timing {
                    try await recorder.frameDidSave(at: position, frame: CapturedFrame(images: [image]))
                }
            }
            if shoot > 0 { samples += timed.prefix(saves - samples.count) } // shoot 0 warms up
            shoot += 1
        }
        return BenchmarkSupport.median(samples)
    }
}
