import Foundation
import ImageLuminance
import TestSupport
import Testing

/// An 8-bit RGB test image to encode with a real encoder, with the luma block means a decoder must find.
struct SourceImage: Sendable {
    /// What it shows, for messages.
    let name: String
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int
    /// `width * height * 3` bytes, R G B per pixel, row after row.
    let rgb: [UInt8]

    /// A diagonal ramp with a slower vertical ramp in green and a fixed blue: smooth, nearly no AC energy.
    static func gradient(width: Int = 203, height: Int = 157) -> SourceImage {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                rgb.append(UInt8((x * 255) / (width - 1)))
                rgb.append(UInt8(((x + y) * 255) / (width + height - 2)))
                rgb.append(UInt8(40 + (y * 150) / (height - 1)))
            }
        }
        return SourceImage(name: "gradient", width: width, height: height, rgb: rgb)
    }

    /// A synthetic "photo": a sky-to-ground ramp, a dark rectangle, a bright disc, thin lines and strong noise
    /// (so every block has many AC coefficients to skip), from a fixed seed.
    static func photo(width: Int = 211, height: Int = 149, seed: UInt64 = 0x5EED) -> SourceImage {
        var random = SplitMix64(seed: seed)
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let red = 200 - y * 150 / height
                let green = 190 - y * 120 / height
                let blue = 230 - y * 200 / height
                var value: [Int] = [red, green, blue]
                if x > width / 5, x < width / 2, y > height / 2 { value = [35, 30, 25] } // a dark doorway
                let dx = x - 3 * width / 4
                let dy = y - height / 4
                if dx * dx + dy * dy < (height / 6) * (height / 6) { value = [255, 250, 235] } // the sun
                if (x + 2 * y) % 37 < 2 { value = value.map { $0 / 3 } } // wires
                let noise = Int(random.next() % 61) - 30
                for channel in value { rgb.append(UInt8(clamping: channel + noise)) }
            }
        }
        return SourceImage(name: "photo", width: width, height: height, rgb: rgb)
    }

    /// The image as a binary PPM (P6), the input cjpeg reads.
    var ppm: [UInt8] { Array("P6\n\(width) \(height)\n255\n".utf8) + rgb }

    /// Luma of each pixel as libjpeg computes it (JFIF: Y = 0.299 R + 0.587 G + 0.114 B).
    var luma: [Double] {
        (0..<(width * height)).map { index -> Double in
            let red = 0.299 * Double(rgb[3 * index])
            let green = 0.587 * Double(rgb[3 * index + 1])
            let blue = 0.114 * Double(rgb[3 * index + 2])
            return red + green + blue
        }
    }

    /// The mean luma of each 8x8 block, edge pixels repeated to fill partial blocks as libjpeg pads them.
    var blockMeans: LumaImage {
        let luma = self.luma
        let across = (width + 7) / 8
        let down = (height + 7) / 8
        var means: [Float] = []
        for blockY in 0..<down {
            for blockX in 0..<across {
                var sum = 0.0
                for y in (8 * blockY)..<(8 * blockY + 8) {
                    for x in (8 * blockX)..<(8 * blockX + 8) {
                        sum += luma[min(y, height - 1) * width + min(x, width - 1)]
                    }
                }
                means.append(Float(sum / 64))
            }
        }
        return LumaImage(width: across, height: down, samples: means)
    }
}

/// How far a decoded luma image is from the expected block means.
struct Agreement: CustomStringConvertible {
    /// The mean of |decoded - expected| over all blocks, in levels.
    let meanAbsoluteError: Double
    /// The largest |decoded - expected|, in levels.
    let maximumError: Double

    /// Compares two images of the same size.
    init(_ decoded: LumaImage, _ expected: LumaImage) {
        precondition(decoded.width == expected.width && decoded.height == expected.height)
        var sum = 0.0
        var maximum = 0.0
        for (a, b) in zip(decoded.samples, expected.samples) {
            let error = abs(Double(a) - Double(b))
            sum += error
            maximum = max(maximum, error)
        }
        meanAbsoluteError = sum / Double(max(1, decoded.samples.count))
        maximumError = maximum
    }

    /// Both figures in one phrase.
    var description: String {
        "mean abs error \(String(format: "%.3f", meanAbsoluteError)), max \(String(format: "%.2f", maximumError))"
    }
}

/// SplitMix64: a tiny deterministic generator, so test images are the same on every run.
struct SplitMix64 {
    /// The generator's state.
    var state: UInt64
    /// A generator starting from `seed`.
    init(seed: UInt64) { state = seed }
    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// libjpeg-turbo's command-line tools (Debian's libjpeg-turbo-progs), run as real child processes.
enum LibJPEG {
    /// The path of `tool` (cjpeg, djpeg) on PATH or in /usr/bin, or nil when it is not installed.
    static func path(_ tool: String) -> URL? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in directories + ["/usr/bin", "/usr/local/bin"] {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(tool)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Whether cjpeg is installed (the comparison tests need it).
    static let hasCJPEG = path("cjpeg") != nil
    /// Whether djpeg is installed (the encoder tests need it).
    static let hasDJPEG = path("djpeg") != nil

    /// Encodes `image` with cjpeg and the given options, and returns the JPEG's bytes.
    static func cjpeg(_ image: SourceImage, options: [String]) async throws -> [UInt8] {
        try await cjpeg(input: image.ppm, options: options)
    }

    /// Encodes a PPM/PGM file's bytes with cjpeg and the given options, and returns the JPEG's bytes.
    static func cjpeg(input: [UInt8], options: [String]) async throws -> [UInt8] {
        let folder = try TemporaryFolder(prefix: "hdrshoot-luma")
        defer { folder.remove() }
        let source = folder.url.appendingPathComponent("in.pnm")
        let output = folder.url.appendingPathComponent("out.jpg")
        try Data(input).write(to: source)
        let tool = try #require(path("cjpeg"))
        let result = try await ProcessRunner.run(tool, arguments: options + ["-outfile", output.path, source.path])
        guard result.exitCode == 0 else { throw ToolFailure(tool: "cjpeg", result: result) }
        return Array(try Data(contentsOf: output))
    }

    /// Decodes a JPEG with djpeg (and `extraOptions`) into a binary PGM/PPM; returns its size, channels, samples.
    static func djpeg(
        _ jpeg: [UInt8], extraOptions: [String] = []
    ) async throws -> (width: Int, height: Int, channels: Int, samples: [UInt8]) {
        let folder = try TemporaryFolder(prefix: "hdrshoot-luma")
        defer { folder.remove() }
        let input = folder.url.appendingPathComponent("in.jpg")
        let output = folder.url.appendingPathComponent("out.pnm")
        try Data(jpeg).write(to: input)
        let tool = try #require(path("djpeg"))
        let result = try await ProcessRunner.run(
            tool, arguments: ["-pnm"] + extraOptions + ["-outfile", output.path, input.path])
        guard result.exitCode == 0 else { throw ToolFailure(tool: "djpeg", result: result) }
        return try PNM.parse(Array(try Data(contentsOf: output)))
    }
}

/// A tool that exited with an error.
struct ToolFailure: Error, CustomStringConvertible {
    /// The tool's name.
    let tool: String
    /// How it ended.
    let result: ProcessResult
    /// Its exit status and standard error.
    var description: String { "\(tool) exited \(result.exitCode): \(result.standardError)" }
}

/// Binary PGM (P5) and PPM (P6) files as djpeg writes them.
enum PNM {
    /// Not a binary PGM/PPM with maxval 255.
    struct Malformed: Error {}

    /// Parses the header (magic, width, height, 255) and returns the samples after it.
    static func parse(_ bytes: [UInt8]) throws -> (width: Int, height: Int, channels: Int, samples: [UInt8]) {
        var fields: [String] = []
        var index = 0
        while fields.count < 4 {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            var field = ""
            while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x0A {
                field.append(Character(UnicodeScalar(bytes[index])))
                index += 1
            }
            guard !field.isEmpty else { throw Malformed() }
            fields.append(field)
        }
        index += 1 // the single whitespace after maxval
        guard let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255" else { throw Malformed() }
        let channels = fields[0] == "P5" ? 1 : 3
        guard fields[0] == "P5" || fields[0] == "P6", bytes.count - index == width * height * channels else {
            throw Malformed()
        }
        return (width, height, channels, Array(bytes[index...]))
    }
}
