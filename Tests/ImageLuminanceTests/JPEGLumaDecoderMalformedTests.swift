import ImageLuminance
import Testing

/// Bad bytes never trap the decoder: truncated, garbled and hostile JPEGs throw `LuminanceError` with context.
@Suite("JPEGLumaDecoder on malformed input")
struct JPEGLumaDecoderMalformedTests {
    /// A 24x16 grey JPEG made by hand: DQT (all ones), SOF0, the one-code DHT tables, SOS, and six blocks
    /// whose DC differences are all 0 (flat grey 128); then EOI. Each byte of the scan holds `0 0` (DC 0, EOB)
    /// four times.
    static let handMade: [UInt8] = {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64) // DQT table 0
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x18, 0x01, 0x01, 0x11, 0x00] // SOF0 24x16 grey
        let oneCode: [UInt8] = [0x01] + [UInt8](repeating: 0, count: 15) + [0x00] // one 1-bit code: symbol 0
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x00] + oneCode // DHT DC 0
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x10] + oneCode // DHT AC 0 (symbol 0 = end of block)
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00] // SOS
        bytes += [0x00, 0x0F] // 6 blocks x 2 bits = 12 zero bits, padded with ones
        bytes += [0xFF, 0xD9]
        return bytes
    }()

    @Test func handMadeJPEGDecodesToFlatGrey() throws {
        let image = try JPEGLumaDecoder.decode(Self.handMade)
        #expect(image.width == 3 && image.height == 2)
        #expect(image.samples == [Float](repeating: 128, count: 6))
    }

    @Test func everyTruncationThrows() {
        for length in 0..<Self.handMade.count {
            #expect(throws: LuminanceError.self, "cut at \(length) bytes") {
                try JPEGLumaDecoder.decode(Array(Self.handMade.prefix(length)))
            }
        }
    }

    @Test(.enabled(if: LibJPEG.hasCJPEG, "cjpeg (libjpeg-turbo-progs) is not installed"), arguments: [nil, "1b"])
    func everyTruncationOfACJPEGFileThrows(restart: String?) async throws {
        // A small colour 4:2:0 photo with real Huffman-coded AC data (and restart markers after every MCU).
        let image = SourceImage.photo(width: 40, height: 24)
        let jpeg = try await LibJPEG.cjpeg(
            image, options: ["-quality", "85", "-sample", "2x2"] + (restart.map { ["-restart", $0] } ?? []))
        _ = try JPEGLumaDecoder.decode(jpeg)
        for length in 0..<jpeg.count {
            #expect(throws: LuminanceError.self, "cut at \(length) of \(jpeg.count) bytes") {
                try JPEGLumaDecoder.decode(Array(jpeg.prefix(length)))
            }
        }
    }

    @Test func scanCutShortIsReportedAsTruncated() {
        let cut = Array(Self.handMade.prefix(Self.handMade.count - 3)) // the scan loses its last byte and EOI
        #expect(throws: LuminanceError.truncated(field: "scan data (MCU 4)", offset: cut.count)) {
            try JPEGLumaDecoder.decode(cut)
        }
    }

    @Test func everySingleByteCorruptionThrowsOrDecodes() {
        // Not a correctness check of the result: the decoder must come back (throw or return) for every byte
        // replaced by each of a few telling values, never trap.
        for index in Self.handMade.indices {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0xFF, 0xD9, 0xDA] {
                var bytes = Self.handMade
                bytes[index] = value
                let outcome = Result { () throws(LuminanceError) -> LumaImage in try JPEGLumaDecoder.decode(bytes) }
                if case let .success(image) = outcome { #expect(image.samples.allSatisfy { (0...255).contains($0) }) }
            }
        }
    }

    @Test func notAJPEGIsNamed() {
        #expect(
            throws: LuminanceError.malformed(
                field: "start-of-image marker", offset: 0, reason: "the file starts 0x8950, not 0xFFD8")
        ) {
            try JPEGLumaDecoder.decode([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        }
    }

    @Test func hugeFrameIsRefusedBeforeAllocating() {
        var bytes = Self.handMade
        // SOF0's height and width (bytes 78...81) become 65,000 x 65,000: 4.2 gigapixels.
        let sof = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFD, 0xE8, 0xFD, 0xE8])
        #expect(throws: LuminanceError.tooLarge(width: 65_000, height: 65_000, maximumPixels: 200_000_000)) {
            try JPEGLumaDecoder.decode(bytes)
        }
    }

    @Test func overFullHuffmanTableIsRefused() {
        var bytes = Self.handMade
        // The DC table claims three 1-bit codes; one bit holds two.
        let dht = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC4 }!
        bytes[dht + 5] = 3
        bytes[dht + 3] += 2
        bytes.insert(contentsOf: [0x01, 0x02], at: dht + 22)
        #expect(
            throws: LuminanceError.malformed(
                field: "Huffman table", offset: dht + 4, reason: "more codes of length 1 than 1 bits can hold")
        ) {
            try JPEGLumaDecoder.decode(bytes)
        }
    }

    @Test func aTableHeaderOutOfRangeIsRefusedWithItsKind() {
        // DQT's header byte: precision 2 (only 0 and 1 exist); the DC DHT's: class 2, table 1.
        var quantisation = Self.handMade
        let dqt = quantisation.indices.first { quantisation[$0] == 0xFF && quantisation[$0 + 1] == 0xDB }!
        quantisation[dqt + 4] = 0x20
        #expect(
            throws: LuminanceError.malformed(
                field: "quantisation table", offset: dqt + 4, reason: "precision 2 / table 0 (must be 0...1 / 0...3)")
        ) {
            try JPEGLumaDecoder.decode(quantisation)
        }
        var huffman = Self.handMade
        let dht = huffman.indices.first { huffman[$0] == 0xFF && huffman[$0 + 1] == 0xC4 }!
        huffman[dht + 4] = 0x21
        #expect(
            throws: LuminanceError.malformed(
                field: "Huffman table", offset: dht + 4, reason: "class 2 / table 1 (must be 0...1 / 0...3)")
        ) {
            try JPEGLumaDecoder.decode(huffman)
        }
    }

    @Test func scanNamingAMissingTableIsRefused() {
        var bytes = Self.handMade
        let sos = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }!
        bytes[sos + 6] = 0x11 // DC table 1, AC table 1: never defined
        #expect(
            throws: LuminanceError.malformed(
                field: "scan header", offset: sos + 5, reason: "DC Huffman table 1 is not defined")
        ) {
            try JPEGLumaDecoder.decode(bytes)
        }
    }

    @Test func arithmeticAndLosslessFramesAreRefusedByName() {
        for (marker, message) in [
            (UInt8(0xC9), "arithmetic-coded JPEG not supported"), (0xC3, "lossless JPEG not supported"),
            (0xC2, "progressive JPEG not supported")
        ] {
            var bytes = Self.handMade
            let sof = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
            bytes[sof + 1] = marker
            #expect(throws: LuminanceError.unsupported(message)) { try JPEGLumaDecoder.decode(bytes) }
        }
    }
}
