import ImageLuminance
import Testing

/// The DC-only decoder against a real encoder: cjpeg (libjpeg-turbo) encodes known images at several qualities
/// and subsamplings, and every decoded block mean must match the source's 8x8 block mean.
///
/// Tolerances, from the quantiser: the decoded mean is a multiple of DCquant/8 (2 levels at quality 50, 1 at 75,
/// 0.25 at 95), so rounding alone is up to half a step, and cjpeg's 8-bit colour conversion adds up to half a
/// level per pixel; AC quantisation does not move the DC. Measured here (`printsAgreementFigures`, 203x157
/// gradient and 211x149 noisy photo): mean absolute error 0.50 / 0.25 / 0.09 levels and maximum 1.15 / 0.65 /
/// 0.33 at quality 50 / 75 / 95, the same for every subsampling. The bounds (mean < 1.0, max < 2.0) leave margin
/// without hiding a real error: a misplaced block or a wrong quantiser is off by tens of levels.
@Suite("JPEGLumaDecoder against cjpeg")
struct JPEGLumaDecoderTests {
    /// One cjpeg configuration.
    struct Case: Sendable, CustomTestStringConvertible {
        let quality: Int
        /// cjpeg's `-sample` for luma (`1x1` is 4:4:4, `2x1` 4:2:2, `2x2` 4:2:0), or nil for `-grayscale`.
        let sampling: String?
        let photo: Bool

        var options: [String] {
            ["-quality", "\(quality)"] + (sampling.map { ["-sample", $0] } ?? ["-grayscale"])
        }
        var image: SourceImage { photo ? Self.photoImage : Self.gradientImage }
        /// The luma block means a decoder must find in `image`.
        var blockMeans: LumaImage { photo ? Self.photoMeans : Self.gradientMeans }

        // Made once for all cases (each is the same fixed image; building it in debug code costs more than cjpeg).
        private static let photoImage = SourceImage.photo()
        private static let gradientImage = SourceImage.gradient()
        private static let photoMeans = photoImage.blockMeans
        private static let gradientMeans = gradientImage.blockMeans
        var testDescription: String {
            "\(photo ? "photo" : "gradient") q\(quality) \(sampling ?? "grayscale")"
        }
    }

    static let cases: [Case] = [50, 75, 95].flatMap { quality in
        [nil, "1x1", "2x1", "2x2"].flatMap { sampling in
            [false, true].map { Case(quality: quality, sampling: sampling, photo: $0) }
        }
    }

    // cjpeg comes from Debian's libjpeg-turbo-progs, which .ci/run installs; without it there is no encoder to
    // compare with.
    @Test(.enabled(if: LibJPEG.hasCJPEG, "cjpeg (libjpeg-turbo-progs) is not installed"), arguments: cases)
    func blockMeansMatchTheSource(_ testCase: Case) async throws {
        let image = testCase.image
        let jpeg = try await LibJPEG.cjpeg(image, options: testCase.options)
        let decoded = try JPEGLumaDecoder.decode(jpeg)
        let expected = testCase.blockMeans
        #expect(decoded.width == expected.width && decoded.height == expected.height)
        let agreement = Agreement(decoded, expected)
        #expect(agreement.meanAbsoluteError < 1.0, "\(testCase.testDescription): \(agreement)")
        #expect(agreement.maximumError < 2.0, "\(testCase.testDescription): \(agreement)")
    }

    @Test(.enabled(if: LibJPEG.hasCJPEG, "cjpeg (libjpeg-turbo-progs) is not installed"))
    func optimizedHuffmanTablesDecodeTheSame() async throws {
        // -optimize writes tables fitted to the image, with codes longer than the look-up table's 9 bits.
        let image = SourceImage.photo()
        let standard = try JPEGLumaDecoder.decode(try await LibJPEG.cjpeg(image, options: ["-quality", "90"]))
        let optimized = try JPEGLumaDecoder.decode(
            try await LibJPEG.cjpeg(image, options: ["-quality", "90", "-optimize"]))
        #expect(standard == optimized)
    }

    @Test(.enabled(if: LibJPEG.hasCJPEG, "cjpeg (libjpeg-turbo-progs) is not installed"), arguments: ["1", "3", "1b"])
    func restartMarkersAreFollowed(_ interval: String) async throws {
        // -restart 1 puts an RST marker after every MCU row; 3 after every three rows; 1b after every MCU.
        let image = SourceImage.photo()
        let plain = try JPEGLumaDecoder.decode(try await LibJPEG.cjpeg(image, options: ["-quality", "80"]))
        let jpeg = try await LibJPEG.cjpeg(image, options: ["-quality", "80", "-restart", interval])
        #expect(jpeg.count > 0 && jpeg.indices.dropLast().contains { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xD0 })
        #expect(try JPEGLumaDecoder.decode(jpeg) == plain)
    }

    @Test(.enabled(if: LibJPEG.hasCJPEG, "cjpeg (libjpeg-turbo-progs) is not installed"))
    func progressiveJPEGIsRefusedByName() async throws {
        let jpeg = try await LibJPEG.cjpeg(.gradient(), options: ["-progressive"])
        #expect(throws: LuminanceError.unsupported("progressive JPEG not supported")) {
            try JPEGLumaDecoder.decode(jpeg)
        }
    }

    @Test(.enabled(if: LibJPEG.hasCJPEG, "cjpeg (libjpeg-turbo-progs) is not installed"))
    func printsAgreementFigures() async throws {
        // The figures behind the tolerances above and the README; each must also be inside them.
        var worstMean = 0.0
        var worstMaximum = 0.0
        for testCase in Self.cases {
            let image = testCase.image
            let decoded = try JPEGLumaDecoder.decode(try await LibJPEG.cjpeg(image, options: testCase.options))
            let agreement = Agreement(decoded, testCase.blockMeans)
            print("luma agreement \(testCase.testDescription): \(agreement)")
            worstMean = max(worstMean, agreement.meanAbsoluteError)
            worstMaximum = max(worstMaximum, agreement.maximumError)
        }
        print("luma agreement worst: mean abs error \(worstMean), max \(worstMaximum)")
        #expect(worstMean < 1.0 && worstMaximum < 2.0)
    }
}
