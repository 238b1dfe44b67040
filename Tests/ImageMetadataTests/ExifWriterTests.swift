import ByteCoding
import Testing

@testable import ImageMetadata

@Suite("EXIF writer and reader are twins")
struct ExifWriterTests {
    @Test(arguments: [
        ExifSamples.frameFields,
        ExifFields(exposureTime: ExifRational(numerator: 1, denominator: 8000)),
        ExifFields(exposureTime: ExifRational(numerator: 40, denominator: 1), model: "ILCE-7M3"),
        ExifFields(dateTimeOriginal: "2026:01:01 00:00:00"),
        ExifFields(model: "ILCE-7RM4"),
        ExifFields(model: "A"),
        ExifFields()
    ])
    func writtenFieldsReadBackUnchangedInBothByteOrders(fields: ExifFields) throws {
        for order in [ByteOrder.littleEndian, .bigEndian] {
            #expect(try ExifReader.read(ExifSamples.jpeg(exif: ExifWriter.jpegSegment(fields, order: order))) == fields)
            #expect(try ExifReader.read(ExifWriter.tiffBlock(fields, order: order)) == fields)
        }
    }

    @Test func aSegmentRightAfterSOIIsFoundToo() throws {
        let jpeg = ExifSamples.jpeg(exif: ExifWriter.jpegSegment(ExifSamples.frameFields), leadingSegments: false)
        #expect(Array(jpeg[2..<4]) == [0xFF, 0xE1])
        #expect(try ExifReader.read(jpeg) == ExifSamples.frameFields)
    }

    @Test func theSegmentIsAnAPP1WithExifHeaderAndLittleEndianTIFF() {
        let segment = ExifWriter.jpegSegment(ExifSamples.frameFields)
        #expect(Array(segment.prefix(2)) == [0xFF, 0xE1])
        #expect(Int(segment[2]) << 8 | Int(segment[3]) == segment.count - 2)
        #expect(Array(segment[4..<10]) == Array("Exif".utf8) + [0, 0])
        #expect(Array(segment[10..<14]) == [0x49, 0x49, 0x2A, 0x00])
    }

    @Test func exposureIsKeptExactlyAsWritten() throws {
        let fields = try ExifReader.read(
            ExifWriter.tiffBlock(ExifFields(exposureTime: ExifRational(numerator: 25, denominator: 10))))
        #expect(fields.exposureTime == ExifRational(numerator: 25, denominator: 10))
        #expect(fields.exposureTime?.isSameValue(as: ExifRational(numerator: 5, denominator: 2)) == true)
        #expect(fields.exposureSeconds == 2.5)
    }

    @Test func aRawFileHeadPointsIFD0AtTheJPEGThatFollowsItInBothByteOrders() throws {
        for order in [ByteOrder.littleEndian, .bigEndian] {
            let head = ExifWriter.rawFileHead(ExifSamples.frameFields, embeddedJPEGLength: 12_345, order: order)
            #expect(head.count % 2 == 0)
            #expect(try ExifReader.read(head) == ExifSamples.frameFields)
            let (view, ifd0) = try TIFFView.open(head[...], base: 0, declaredLength: nil)
            let entries = try view.entries(at: ifd0, name: "IFD0")
            // Sorted by tag, as TIFF requires: NewSubfileType, Make, Model, the JPEG's offset and length, Exif IFD.
            #expect(entries.map(\.tag) == [0x00FE, 0x010F, 0x0110, 0x0201, 0x0202, 0x8769])
            func long(_ tag: UInt16) throws -> UInt32? {
                guard let entry = entries.first(where: { $0.tag == tag }) else { return nil }
                var (_, reader) = try view.values(of: entry, as: [.long], name: "tag \(tag)", maximumCount: 1)
                return try reader.readInteger(UInt32.self, field: "tag \(tag)")
            }
            #expect(try long(0x00FE) == 1)
            #expect(try long(0x0201) == UInt32(head.count))
            #expect(try long(0x0202) == 12_345)
        }
    }

    @Test func overlongStringsAreCutToWhatTheReaderAccepts() throws {
        let long = String(repeating: "x", count: 5000)
        let fields = try ExifReader.read(ExifWriter.tiffBlock(ExifFields(model: long)))
        #expect(fields.model == String(repeating: "x", count: ExifLimits.stringBytes - 1))
    }
}
