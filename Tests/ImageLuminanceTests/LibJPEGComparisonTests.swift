import ImageLuminance
import Testing

/// The decoder against libjpeg's own DC-only decoder: `djpeg -scale 1/8` also stops at each block's DC and
/// writes round(DC x quantiser / 8) + 128 per block (jidctred.c, `jpeg_idct_1x1`), so every sample, rounded,
/// must equal djpeg's exactly, whatever the quality, sampling, Huffman tables or restart markers.
@Suite("JPEGLumaDecoder against djpeg -scale 1/8")
struct LibJPEGComparisonTests {
    static let options: [[String]] = [
        ["-quality", "50", "-sample", "2x2"], ["-quality", "95", "-sample", "2x1"],
        ["-quality", "100", "-sample", "1x1"],
        ["-quality", "95", "-grayscale"], ["-quality", "85", "-optimize"], ["-quality", "75", "-restart", "1b"]
    ]

    // cjpeg and djpeg come from Debian's libjpeg-turbo-progs, which .ci/run installs.
    @Test(
        .enabled(if: LibJPEG.hasCJPEG && LibJPEG.hasDJPEG, "cjpeg/djpeg (libjpeg-turbo-progs) are not installed"),
        arguments: options)
    func everySampleRoundsToDJPEGs(_ options: [String]) async throws {
        let jpeg = try await LibJPEG.cjpeg(.photo(width: 333, height: 219, seed: 7), options: options)
        let ours = try JPEGLumaDecoder.decode(jpeg)
        let theirs = try await LibJPEG.djpeg(jpeg, extraOptions: ["-scale", "1/8", "-grayscale"])
        #expect(theirs.width == ours.width && theirs.height == ours.height && theirs.channels == 1)
        let rounded = ours.samples.map { UInt8(($0 + 0.5).rounded(.down)) }
        let differing = zip(rounded, theirs.samples).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(rounded.count) samples differ from djpeg's")
    }
}
