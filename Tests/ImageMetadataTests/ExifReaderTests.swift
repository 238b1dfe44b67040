import ByteCoding
import Testing

@testable import ImageMetadata

@Suite("EXIF reader")
struct ExifReaderTests {
    @Test func readsABigEndianARWWithExifAndSubIFDs() throws {
        let fields = try ExifReader.read(ExifSamples.bigEndianARW)
        #expect(fields.exposureTime == ExifRational(numerator: 1, denominator: 250))
        #expect(fields.dateTimeOriginal == "2026:11:23 15:04:05")
        #expect(
            fields.dateTimeOriginalValue == ExifDateTime(year: 2026, month: 11, day: 23, hour: 15, minute: 4, second: 5)
        )
        #expect(fields.make == "SONY" && fields.model == "ILCE-7M3")
        #expect(fields.exposureSeconds == 0.004)
    }

    @Test func anIFDThatLinksToItselfEndsTheWalk() throws {
        #expect(try ExifReader.read(ExifSamples.selfLinkedTIFF) == ExifFields(model: "A"))
    }

    @Test func everyPrefixShorterThanWhatTheReaderNeedsIsATruncationThatAsksForMore() throws {
        for file in [ExifSamples.bigEndianARW, ExifWriter.tiffBlock(ExifSamples.frameFields)] {
            let expected = try ExifReader.read(file)
            // The shortest prefix that reads: the last IFD's next-IFD pointer may lie beyond it.
            let minimal = try #require((0...file.count).first { (try? ExifReader.read(file.prefix($0))) != nil })
            #expect(minimal >= file.count - 4)
            for length in 0..<minimal {
                do {
                    _ = try ExifReader.read(file.prefix(length))
                    Issue.record("a prefix of \(length) bytes read without error")
                } catch {
                    #expect(
                        error.prefixLengthNeeded.map { $0 > length && $0 <= minimal } == true,
                        "prefix \(length): \(error)")
                }
            }
            for length in minimal...file.count { #expect(try ExifReader.read(file.prefix(length)) == expected) }
        }
    }

    @Test func everyJPEGPrefixShorterThanTheExifSegmentIsATruncation() throws {
        let segment = ExifWriter.jpegSegment(ExifSamples.frameFields)
        let jpeg = ExifSamples.jpeg(exif: segment)
        let segmentEnd = try #require(jpeg.firstRange(of: segment)).upperBound
        for length in 0..<segmentEnd {
            do {
                _ = try ExifReader.read(jpeg.prefix(length))
                Issue.record("a prefix of \(length) bytes read without error")
            } catch {
                #expect(
                    error.prefixLengthNeeded.map { $0 > length && $0 <= segmentEnd } == true,
                    "prefix \(length): \(error)")
            }
        }
        #expect(try ExifReader.read(jpeg.prefix(segmentEnd)) == ExifSamples.frameFields)
    }

    @Test func thePrefixLoopReadsOnlyWhatAFarAwayExifIFDNeeds() throws {
        // An ARW-like file whose Exif IFD sits 300,000 bytes in, past the first 64 KiB read.
        let file = Self.tiffWithDistantExifIFD(at: 300_000)
        var requests: [Int] = []
        let fields = try ExifReader.read { length in
            requests.append(length)
            return Array(file.prefix(length))
        }
        #expect(fields.exposureTime == ExifRational(numerator: 1, denominator: 60))
        #expect(requests.first == ExifReader.suggestedPrefixLength)
        #expect(requests.count >= 2 && requests.count <= 5)
        #expect(zip(requests, requests.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func thePrefixLoopStopsAtTheFileEndAndAtItsLimit() {
        let file = Self.tiffWithDistantExifIFD(at: 300_000)
        let cut = Array(file.prefix(200_000))
        #expect(throws: ImageMetadataError.self) { try ExifReader.read { Array(cut.prefix($0)) } }
        do {
            _ = try ExifReader.read(maximumLength: 100_000) { Array(file.prefix($0)) }
            Issue.record("read past the limit")
        } catch let error as ImageMetadataError {
            guard case .garbled = error else {
                Issue.record("expected garbled, got \(error)")
                return
            }
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aBadByteOrderMarkIsNotATIFF() {
        // Byte order mark "IM".
        #expect(throws: ImageMetadataError.unsupportedFormat(.unknown)) {
            try ExifReader.read([0x49, 0x4D, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00])
        }
    }

    @Test(
        arguments: [
            // IFD0 offset 4: inside the header.
            [0x49, 0x49, 0x2A, 0x00, 0x04, 0x00, 0x00, 0x00],
            // IFD0 declaring 65,535 entries.
            [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0xFF, 0xFF],
            // ExposureTime 1/0.
            ExifSamples.patched(
                ExifWriter.tiffBlock(ExifFields(exposureTime: ExifRational(numerator: 1, denominator: 1))),
                denominatorTo: 0),
            // ExposureTime written as SHORT: its type field patched from 5 to 3.
            ExifSamples.patchedExposureType(
                ExifWriter.tiffBlock(ExifFields(exposureTime: ExifRational(numerator: 1, denominator: 1))), to: 3),
            // A JPEG whose second segment does not start with 0xFF.
            [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0x12, 0x34],
            // A JPEG segment length of 1.
            [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01],
            // An EXIF APP1 of 14 bytes whose IFD0 lies past the segment's end (its 6 TIFF bytes hold no IFD).
            [
                0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x10, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00,
                0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0xFF, 0xD9, 0, 0, 0, 0, 0, 0
            ]
        ] as [[UInt8]])
    func garbledBytesAreReportedAsGarbled(bytes: [UInt8]) {
        do {
            let fields = try ExifReader.read(bytes)
            Issue.record("read \(fields) from garbage")
        } catch {
            guard case .garbled = error else {
                Issue.record("expected garbled, got \(error)")
                return
            }
            #expect(!error.description.isEmpty)
        }
    }

    @Test func aJPEGWithoutExifSaysSo() {
        #expect(throws: ImageMetadataError.noExif) { try ExifReader.read(ExifSamples.jpeg(exif: [])) }
    }

    @Test func aPNGAndABigTIFFAreNotSupported() {
        #expect(throws: ImageMetadataError.unsupportedFormat(.unknown)) {
            try ExifReader.read([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])
        }
        // BigTIFF: "II", magic 43.
        #expect(throws: ImageMetadataError.unsupportedFormat(.unknown)) {
            try ExifReader.read([0x49, 0x49, 0x2B, 0x00, 0x08, 0x00, 0x00, 0x00])
        }
    }

    @Test func everySingleByteCorruptionThrowsOrReadsNeverTraps() {
        let files = [ExifSamples.bigEndianARW, ExifSamples.jpeg(exif: ExifWriter.jpegSegment(ExifSamples.frameFields))]
        var outcomes = (read: 0, failed: 0)
        for file in files {
            for index in file.indices {
                for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF, file[index] ^ 0x55] {
                    var corrupted = file
                    corrupted[index] = value
                    if (try? ExifReader.read(corrupted)) != nil { outcomes.read += 1 } else { outcomes.failed += 1 }
                }
            }
        }
        // Many corruptions hit bytes the reader never looks at; some break the structure it needs.
        #expect(outcomes.read > 0 && outcomes.failed > 0)
    }

    /// A little-endian TIFF: IFD0 with one Exif IFD pointer to `offset`, zeros up to it, then the Exif IFD
    /// holding ExposureTime 1/60 (its value right after the IFD).
    static func tiffWithDistantExifIFD(at offset: Int) -> [UInt8] {
        var writer = ByteWriter(order: .littleEndian)
        writer.writeBytes([0x49, 0x49, 0x2A, 0x00])
        writer.writeInteger(UInt32(8))
        writer.writeInteger(UInt16(1))
        writer.writeBytes([0x69, 0x87, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00])
        writer.writeInteger(UInt32(offset))
        writer.writeInteger(UInt32(0))
        writer.writeZeros(offset - writer.count)
        writer.writeInteger(UInt16(1))
        writer.writeBytes([0x9A, 0x82, 0x05, 0x00, 0x01, 0x00, 0x00, 0x00])
        writer.writeInteger(UInt32(offset + 18))
        writer.writeInteger(UInt32(0))
        writer.writeInteger(UInt32(1))
        writer.writeInteger(UInt32(60))
        return writer.bytes
    }
}

extension ExifSamples {
    /// A writer-made little-endian TIFF holding only ExposureTime, with its denominator replaced.
    static func patched(_ tiff: [UInt8], denominatorTo value: UInt32) -> [UInt8] {
        var bytes = tiff
        // The rational is the last 8 bytes except ExifVersion/DateTime: the writer puts it right after the Exif IFD.
        let valueOffset = Int(tiff[exposureEntry(tiff) + 8]) | Int(tiff[exposureEntry(tiff) + 9]) << 8
        for index in 0..<4 { bytes[valueOffset + 4 + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
        return bytes
    }

    /// A writer-made little-endian TIFF with ExposureTime's field type replaced.
    static func patchedExposureType(_ tiff: [UInt8], to type: UInt16) -> [UInt8] {
        var bytes = tiff
        bytes[exposureEntry(tiff) + 2] = UInt8(type)
        return bytes
    }

    /// Where the ExposureTime entry (tag 9A 82 little-endian, type 5) starts.
    private static func exposureEntry(_ tiff: [UInt8]) -> Int {
        (0..<(tiff.count - 3)).first { tiff[$0] == 0x9A && tiff[$0 + 1] == 0x82 && tiff[$0 + 2] == 0x05 }!
    }
}
