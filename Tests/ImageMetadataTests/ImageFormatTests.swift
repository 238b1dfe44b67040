import ByteCoding
import ImageMetadata
import Testing

@Suite("Image formats told from their first bytes")
struct ImageFormatTests {
    @Test(
        arguments: [
            ([0xFF, 0xD8, 0xFF, 0xE1], ImageFormat.jpeg, "JPG"),
            ([0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00], .tiff(.littleEndian), "ARW"),
            ([0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08], .tiff(.bigEndian), "ARW"),
            // ISO BMFF: box size, "ftyp", brand "heic".
            ([0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63], .heif, "HIF"),
            // PNG signature.
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .unknown, "BIN"),
            ([0xFF, 0xD8], .unknown, "BIN"),
            ([], .unknown, "BIN")
        ] as [([UInt8], ImageFormat, String)])
    func magicBytesNameTheFormatAndItsExtension(bytes: [UInt8], format: ImageFormat, fileExtension: String) {
        #expect(ImageFormat(detecting: bytes) == format)
        #expect(ImageFormat(detecting: bytes).fileExtension == fileExtension)
    }

    @Test func aGeneratedExifJPEGAndTheHandBuiltARWAreRecognised() {
        #expect(
            ImageFormat(detecting: ExifSamples.jpeg(exif: ExifWriter.jpegSegment(ExifSamples.frameFields))) == .jpeg)
        #expect(ImageFormat(detecting: ExifSamples.bigEndianARW) == .tiff(.bigEndian))
    }
}
