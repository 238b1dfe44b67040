import ByteCoding
import ImageLuminance
import ImageMetadata
import Testing

/// A camera file's luma: a JPEG directly, an ARW through the largest JPEG preview its IFDs point at.
@Suite("LumaReader")
struct LumaReaderTests {
    @Test func jpegIsDecodedDirectly() throws {
        #expect(try LumaReader.read(JPEGLumaDecoderMalformedTests.handMade).width == 3)
    }

    @Test(arguments: [ByteOrder.littleEndian, .bigEndian])
    func arwUsesItsLargestPreview(order: ByteOrder) throws {
        // IFD0 points at the small preview, a SubIFD at the large one (the order does not decide).
        let small = JPEGLumaDecoderMalformedTests.handMade
        let large = try #require(Self.flatJPEG(blocksAcross: 6, blocksDown: 4))
        let arw = EmbeddedJPEG.tiff(previews: [small, large], order: order)
        #expect(try EmbeddedJPEG.previews(in: arw[...]).map(\.count) == [small.count, large.count])
        let image = try LumaReader.read(arw)
        #expect(image.width == 6 && image.height == 4)
    }

    @Test func arwWithManySubIFDsFindsEveryPreview() throws {
        let previews =
            [JPEGLumaDecoderMalformedTests.handMade]
            + (1...3).compactMap {
                Self.flatJPEG(blocksAcross: $0, blocksDown: 1)
            }
        let arw = EmbeddedJPEG.tiff(previews: previews)
        #expect(try EmbeddedJPEG.previews(in: arw[...]).map(\.count) == previews.map(\.count))
        #expect(try LumaReader.read(arw).width == 3)
    }

    @Test func arwPointingPastItsEndIsTruncated() throws {
        let arw = EmbeddedJPEG.tiff(previews: [JPEGLumaDecoderMalformedTests.handMade])
        let cut = Array(arw.dropLast(10))
        #expect(throws: LuminanceError.container(.truncated(field: "IFD0 JPEG preview", needed: arw.count))) {
            try LumaReader.read(cut)
        }
    }

    @Test func arwPointingAtNoJPEGIsGarbled() throws {
        var arw = EmbeddedJPEG.tiff(previews: [JPEGLumaDecoderMalformedTests.handMade])
        let start = try #require(try EmbeddedJPEG.previews(in: arw[...]).first).lowerBound
        arw[start] = 0x00 // the preview's SOI
        #expect(
            throws: LuminanceError.container(
                .garbled(field: "IFD0 JPEG preview", reason: "the bytes at \(start) are no JPEG"))
        ) {
            try LumaReader.read(arw)
        }
    }

    @Test func tiffWithoutPreviewSaysSo() throws {
        // A TIFF header and an IFD0 with no entries.
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        #expect(throws: LuminanceError.noPreview) { try LumaReader.read(tiff) }
    }

    @Test func otherFormatsAreNamed() {
        #expect(throws: LuminanceError.unsupportedFormat(.unknown)) { try LumaReader.read(Array("GIF89a".utf8)) }
        #expect(throws: LuminanceError.truncated(field: "file signature", offset: 2)) {
            try LumaReader.read([0xFF, 0xD8])
        }
    }

    /// The hand-made flat grey JPEG resized to `blocksAcross` x `blocksDown` blocks (all DC 0, EOB).
    static func flatJPEG(blocksAcross: Int, blocksDown: Int) -> [UInt8]? {
        var bytes = JPEGLumaDecoderMalformedTests.handMade
        guard let sof = bytes.indices.first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else { return nil }
        let width = 8 * blocksAcross
        let height = 8 * blocksDown
        bytes.replaceSubrange(
            (sof + 5)..<(sof + 9),
            with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        // Two zero bits per block, padded with ones to a whole byte.
        let bits = 2 * blocksAcross * blocksDown
        var scan = [UInt8](repeating: 0, count: bits / 8)
        if bits % 8 != 0 { scan.append(UInt8(0xFF >> (bits % 8))) }
        bytes.replaceSubrange((bytes.count - 4)..<(bytes.count - 2), with: scan)
        return bytes
    }
}
