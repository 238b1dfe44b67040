// Luma decode benchmark: how long the DC-only JPEG decoder takes for a 24 MP camera-sized JPEG (issue 22's goal
// is under 100 ms). Prints figures, asserts nothing. Run in release: `swift run -c release hdrshoot-bench luma`.
import Foundation
import Glibc
import ImageLuminance

/// `hdrshoot-bench luma [--file JPEG-or-ARW] [--quality N] [--sample HxV] [--rounds N] [--save PATH]`.
///
/// Without `--file` it makes a 6000x4000 test picture (sky-to-ground ramps, blocky "buildings", sensor-like
/// noise) and encodes it with cjpeg when installed (default quality 95, `-sample 2x1`: 4:2:2 like a Sony fine
/// JPEG), else with ImageLuminance's own encoder (quality 95, 4:2:0); then times `LumaReader.read` (best and
/// median of the rounds, wall and thread CPU time). `--save` writes the JPEG it made, to time other decoders
/// (`djpeg -scale 1/8`) on the same bytes.
enum LumaBenchmark {
    static let benchmark = Benchmark(
        name: "luma", summary: "DC-only luma decode of a 24 MP JPEG (ms, MB/s); --file decodes a camera file instead"
    ) { arguments in
        run(arguments)
    }

    static func run(_ arguments: [String]) -> Int32 {
        let rounds = Int(BenchmarkSupport.option("rounds", in: arguments) ?? "") ?? 7
        let quality = Int(BenchmarkSupport.option("quality", in: arguments) ?? "") ?? 95
        let sampling = BenchmarkSupport.option("sample", in: arguments) ?? "2x1"
        let bytes: [UInt8]
        let source: String
        if let path = BenchmarkSupport.option("file", in: arguments) {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("hdrshoot-bench luma: cannot read \(path)\n".utf8))
                return 1
            }
            bytes = Array(data)
            source = path
        } else {
            let (width, height) = (6000, 4000)
            let rgb = testPicture(width: width, height: height)
            if let encoded = cjpeg(rgb: rgb, width: width, height: height, quality: quality, sampling: sampling) {
                bytes = encoded
                source = "cjpeg -quality \(quality) -sample \(sampling), \(width)x\(height)"
            } else {
                bytes = JPEGEncoder(quality: quality).encode(rgb: rgb, width: width, height: height)
                source = "hdrshoot's encoder (cjpeg not installed), quality \(quality) 4:2:0, \(width)x\(height)"
            }
        }
        if let path = BenchmarkSupport.option("save", in: arguments) {
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        }
        print("Luma decode (DC of every 8x8 block, AC Huffman-decoded and skipped):")
        print("  input: \(source), \(String(format: "%.1f", Double(bytes.count) / 1_048_576)) MB")
        var image: LumaImage?
        var samples: [Duration] = []
        var cpu: [Duration] = []
        let clock = ContinuousClock()
        for _ in 0..<max(1, rounds) {
            let start = clock.now
            let cpuStart = threadCPUTime()
            do {
                image = try LumaReader.read(bytes)
            } catch {
                FileHandle.standardError.write(Data("hdrshoot-bench luma: \(error)\n".utf8))
                return 1
            }
            cpu.append(threadCPUTime() - cpuStart)
            samples.append(clock.now - start)
        }
        guard let image else { return 1 }
        let best = samples.min() ?? .zero
        let median = BenchmarkSupport.median(samples)
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) * 1e-18
        print(
            "  output: \(image.width)x\(image.height) block means, mean level "
                + String(format: "%.1f", image.mean))
        print(
            "  time: best \(BenchmarkSupport.format(best, in: .milliseconds)), median "
                + "\(BenchmarkSupport.format(median, in: .milliseconds)) of \(samples.count) rounds; "
                + String(format: "%.0f MB/s", Double(bytes.count) / 1_048_576 / seconds))
        // On a shared machine the wall time includes waiting for a core; the thread's CPU time does not.
        print(
            "  cpu: best \(BenchmarkSupport.format(cpu.min() ?? .zero, in: .milliseconds)), median "
                + "\(BenchmarkSupport.format(BenchmarkSupport.median(cpu), in: .milliseconds)) of the decoding thread")
        return 0
    }

    /// The CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID).
    static func threadCPUTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    /// A 6000x4000-like RGB picture: sky ramp above, darker ground below, blocky shapes, and ±12 levels of noise.
    static func testPicture(width: Int, height: Int) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                let noise = Int(state % 25) - 12
                var level = y < height / 2 ? 230 - 80 * y / height : 90 - 40 * (y - height / 2) / height
                if (x / 350) % 3 == 1, y > height / 3 { level = 40 + (x / 350 % 5) * 30 }
                let index = 3 * (y * width + x)
                rgb[index] = UInt8(clamping: level + noise)
                rgb[index + 1] = UInt8(clamping: level + noise - 5)
                rgb[index + 2] = UInt8(clamping: level + noise + (y < height / 2 ? 20 : -10))
            }
        }
        return rgb
    }

    /// Encodes with cjpeg (a child process; not timed), or nil when cjpeg is missing or fails.
    static func cjpeg(rgb: [UInt8], width: Int, height: Int, quality: Int, sampling: String) -> [UInt8]? {
        let paths = ["/usr/bin/cjpeg", "/usr/local/bin/cjpeg"]
        guard let tool = paths.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hdrshoot-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let input = folder.appendingPathComponent("picture.ppm")
            let output = folder.appendingPathComponent("picture.jpg")
            try Data(Array("P6\n\(width) \(height)\n255\n".utf8) + rgb).write(to: input)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = ["-quality", "\(quality)", "-sample", sampling, "-outfile", output.path, input.path]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return nil }
            return Array(try Data(contentsOf: output))
        } catch {
            return nil
        }
    }
}
