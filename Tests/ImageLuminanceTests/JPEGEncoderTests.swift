import ImageLuminance
import Testing

/// The small encoder writes JPEGs that libjpeg's djpeg decodes to the pixels it was given, and that the DC-only
/// decoder reads back to the same block means.
@Suite("JPEGEncoder")
struct JPEGEncoderTests {
    // djpeg comes from Debian's libjpeg-turbo-progs, which .ci/run installs.
    @Test(.enabled(if: LibJPEG.hasDJPEG, "djpeg (libjpeg-turbo-progs) is not installed"), arguments: [50, 90])
    func djpegDecodesGreyToTheSourcePixels(quality: Int) async throws {
        let image = SourceImage.gradient(width: 77, height: 45)
        let grey = image.luma.map { UInt8(min(255, max(0, $0.rounded()))) }
        let jpeg = JPEGEncoder(quality: quality).encode(grey: grey, width: image.width, height: image.height)
        let decoded = try await LibJPEG.djpeg(jpeg)
        #expect(decoded.width == 77 && decoded.height == 45 && decoded.channels == 1)
        // A smooth gradient through lossy quantisation: pixels within a few levels, the mean almost exact.
        let errors = zip(decoded.samples, grey).map { abs(Int($0) - Int($1)) }
        let meanError = Double(errors.reduce(0, +)) / Double(errors.count)
        #expect(meanError < (quality == 90 ? 1.0 : 2.0), "mean error \(meanError)")
        #expect(errors.max() ?? 0 <= (quality == 90 ? 4 : 10))
    }

    @Test(.enabled(if: LibJPEG.hasDJPEG, "djpeg (libjpeg-turbo-progs) is not installed"))
    func djpegDecodesColourToTheSourcePixels() async throws {
        let image = SourceImage.gradient(width: 50, height: 34)
        let jpeg = JPEGEncoder(quality: 95).encode(rgb: image.rgb, width: image.width, height: image.height)
        let decoded = try await LibJPEG.djpeg(jpeg)
        #expect(decoded.width == 50 && decoded.height == 34 && decoded.channels == 3)
        let errors = zip(decoded.samples, image.rgb).map { abs(Int($0) - Int($1)) }
        let meanError = Double(errors.reduce(0, +)) / Double(errors.count)
        #expect(meanError < 2.0, "mean error \(meanError)")
    }

    @Test func decoderReadsTheEncodersBlockMeans() throws {
        let image = SourceImage.photo(width: 61, height: 43)
        let jpeg = JPEGEncoder(quality: 95).encode(rgb: image.rgb, width: image.width, height: image.height)
        let agreement = Agreement(try JPEGLumaDecoder.decode(jpeg), image.blockMeans)
        // Quality 95: the DC quantiser is 2, a step of 0.25 levels; float colour conversion adds nothing.
        #expect(agreement.meanAbsoluteError < 0.2 && agreement.maximumError < 0.5, "\(agreement)")
    }

    @Test func everyTruncationOfAnEncodedFileThrows() {
        let image = SourceImage.photo(width: 24, height: 17)
        let jpeg = JPEGEncoder(quality: 75).encode(rgb: image.rgb, width: image.width, height: image.height)
        for length in 0..<jpeg.count {
            #expect(throws: LuminanceError.self, "cut at \(length) of \(jpeg.count) bytes") {
                try JPEGLumaDecoder.decode(Array(jpeg.prefix(length)))
            }
        }
    }

    @Test(.enabled(if: LibJPEG.hasCJPEG, "cjpeg (libjpeg-turbo-progs) is not installed"))
    func tablesAreTheOnesCJPEGWrites() async throws {
        // cjpeg writes Annex K's Huffman tables and the same quality scaling: the table segments must be identical.
        let image = SourceImage.gradient(width: 16, height: 16)
        let ours = JPEGEncoder(quality: 75).encode(rgb: image.rgb, width: 16, height: 16)
        let theirs = try await LibJPEG.cjpeg(image, options: ["-quality", "75", "-sample", "2x2"])
        #expect(Self.segments(0xDB, in: ours) == Self.segments(0xDB, in: theirs))
        #expect(Set(Self.segments(0xC4, in: ours)) == Set(Self.segments(0xC4, in: theirs)))
        #expect(!Self.segments(0xC4, in: ours).isEmpty)
    }

    /// The payloads of every segment with `marker` before the first scan, split into one table each for DHT.
    static func segments(_ marker: UInt8, in jpeg: [UInt8]) -> [[UInt8]] {
        var found: [[UInt8]] = []
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if jpeg[offset + 1] == marker {
                var payload = Array(jpeg[(offset + 4)..<(offset + 2 + length)])
                while !payload.isEmpty {
                    // One table: a header byte, then 64 values (DQT) or 16 counts and their symbols (DHT).
                    let size = marker == 0xDB ? 65 : 17 + payload[1..<17].reduce(0) { $0 + Int($1) }
                    found.append(Array(payload.prefix(size)))
                    payload.removeFirst(min(size, payload.count))
                }
            }
            offset += 2 + length
        }
        return found
    }
}
