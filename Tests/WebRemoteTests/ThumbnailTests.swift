import Foundation
import ImageLuminance
import Testing

@testable import WebRemote

/// The page's thumbnails: a camera-sized JPEG becomes a small grey JPEG made from the luma the range check
/// reads; a small one goes as it is.
@Suite struct ThumbnailTests {
    /// A grey 2400x1600 JPEG with a gradient and fine noise (so it compresses like a photograph, to ~1 MB).
    ///
    /// The noise comes from a seeded SplitMix64 step inlined here: the system generator cost one getrandom(2)
    /// per pixel, 3.8 million calls and 2.6 of this test's 3.1 s. The same image every run, too.
    static let large: [UInt8] = {
        let (width, height) = (2400, 1600)
        var state: UInt64 = 0x2400_1600
        var samples = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                let base = 40 + 170 * x / width
                samples[y * width + x] = UInt8(clamping: base + Int(z % 61) - 30)
            }
        }
        return JPEGEncoder(quality: 95).encode(grey: samples, width: width, height: height)
    }()

    @Test func aLargeJPEGBecomesASmallGreyJPEGWithTheSameLuminance() throws {
        #expect(Self.large.count > Thumbnail.passThroughBytes)
        let thumbnail = try #require(Thumbnail.make(fromJPEG: Self.large))
        print("thumbnail: \(Self.large.count) bytes -> \(thumbnail.count) bytes")
        #expect(thumbnail.count < 64 << 10)
        let original = try JPEGLumaDecoder.decode(Self.large)
        let small = try JPEGLumaDecoder.decode(thumbnail)
        // 2400x1600 has a 300x200 luma image: the thumbnail is that size, its blocks 1/8 of it.
        #expect(small.width == (300 + 7) / 8 && small.height == 200 / 8)
        #expect(abs(small.mean - original.mean) < 2, "mean \(small.mean) vs \(original.mean)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/djpeg")))
    func libjpegReadsTheThumbnail() throws {
        let thumbnail = try #require(Thumbnail.make(fromJPEG: Self.large))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hdrshoot-thumb-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("thumb.jpg")
        try Data(thumbnail).write(to: file)
        let djpeg = Process()
        djpeg.executableURL = URL(fileURLWithPath: "/usr/bin/djpeg")
        djpeg.arguments = ["-pnm", file.path]
        let pipe = Pipe()
        djpeg.standardOutput = pipe
        djpeg.standardError = FileHandle.nullDevice
        try djpeg.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        djpeg.waitUntilExit()
        #expect(djpeg.terminationStatus == 0)
        #expect(output.starts(with: Array("P5\n300 200\n255\n".utf8)))
    }

    @Test func aSmallJPEGGoesAsItIs() {
        let small = JPEGEncoder(quality: 90).encode(
            grey: [UInt8](repeating: 128, count: 480 * 320), width: 480, height: 320)
        #expect(Thumbnail.make(fromJPEG: small) == small)
    }

    @Test func aLargeFileThatIsNoJPEGGetsNoThumbnail() {
        #expect(Thumbnail.make(fromJPEG: [UInt8](repeating: 0xAB, count: Thumbnail.passThroughBytes + 1)) == nil)
    }
}
