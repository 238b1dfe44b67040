import ByteCoding

/// Reads ExposureTime, DateTimeOriginal, Make and Model from the bytes of a JPEG or a TIFF (Sony ARW).
///
/// A JPEG's EXIF is the APP1 segment that starts `Exif\0\0` among the segments before the image data;
/// it holds a small TIFF. A TIFF/ARW file is that TIFF itself. Either way the reader walks IFD0, the Exif
/// IFD it points to (tag 0x8769) and any SubIFDs (0x014A); the first value found for a field wins.
///
/// Bytes are never trusted: every offset and count is checked before use, at most 32 IFDs are read and
/// none twice (an IFD pointing to itself ends the walk instead of looping). Bad bytes throw
/// `ImageMetadataError`, never trap.
///
/// **Reading from disk.** The reader needs only a prefix of the file: give it the first
/// `suggestedPrefixLength` bytes. When they are not enough it throws `.truncated(field:needed:)`
/// with the prefix length that lets it go on (a JPEG's EXIF segment comes first, so 64 KiB almost
/// always suffices; an ARW's IFDs may point anywhere in the file). `read(maximumLength:readPrefix:)`
/// does that loop for you.
package enum ExifReader {
    /// How many leading bytes to read first: one whole APP1 segment fits in it after a short APP0.
    package static let suggestedPrefixLength = 65_536

    /// Reads the EXIF fields from the first bytes (or all) of a JPEG or TIFF/ARW file.
    package static func read<C: Collection>(_ bytes: C) throws(ImageMetadataError) -> ExifFields
    where C.Element == UInt8 {
        try read(Array(bytes)[...])
    }

    /// Reads the EXIF fields from the first bytes (or all) of a JPEG or TIFF/ARW file, without copying them.
    package static func read(_ bytes: ArraySlice<UInt8>) throws(ImageMetadataError) -> ExifFields {
        let format = ImageFormat(detecting: bytes)
        switch format {
        case .jpeg:
            return try readJPEG(bytes)
        case .tiff:
            let (view, ifd0) = try TIFFView.open(bytes, base: 0, declaredLength: nil)
            return try readDirectories(view, firstIFD: ifd0)
        case .heif, .unknown:
            // Too few bytes to tell is a truncation, not a verdict on the format.
            if bytes.count < 4 { throw .truncated(field: "file signature", needed: 4) }
            throw .unsupportedFormat(format)
        }
    }

    /// Reads a file's EXIF by asking `readPrefix(n)` for its first `n` bytes (fewer at the end of the file):
    /// `suggestedPrefixLength` first, then as many as the reader says it needs, never more than `maximumLength`.
    ///
    /// Throws what `readPrefix` throws, or an `ImageMetadataError`.
    package static func read(maximumLength: Int = 64 << 20, readPrefix: (Int) throws -> [UInt8]) throws -> ExifFields {
        var length = min(suggestedPrefixLength, maximumLength)
        while true {
            let bytes = try readPrefix(length)
            do {
                return try read(bytes[...])
            } catch {
                // Only a truncation of a full-length read can be cured by reading more: a short read was
                // the file's end.
                guard case let .truncated(field, needed) = error, bytes.count >= length, needed > length else {
                    throw error
                }
                guard needed <= maximumLength else {
                    throw ImageMetadataError.garbled(
                        field: field,
                        reason: "lies \(needed) bytes into the file, beyond the \(maximumLength)-byte reading limit")
                }
                // Each round reads strictly more (at least double, up to the limit), so the loop ends.
                length = max(needed, min(length * 2, maximumLength))
            }
        }
    }

    // MARK: - JPEG

    /// Walks the JPEG's marker segments from SOI to the first APP1 `Exif` segment.
    static func readJPEG(_ bytes: ArraySlice<UInt8>) throws(ImageMetadataError) -> ExifFields {
        func byte(_ offset: Int) -> UInt8 { bytes[bytes.startIndex + offset] }
        var offset = 2 // after SOI
        while true {
            guard offset + 2 <= bytes.count else {
                throw .truncated(field: "JPEG marker at byte \(offset)", needed: offset + 2)
            }
            guard byte(offset) == 0xFF else {
                throw .garbled(
                    field: "JPEG marker at byte \(offset)", reason: "found 0x\(hex(byte(offset))) where 0xFF must be")
            }
            let marker = byte(offset + 1)
            switch marker {
            case 0xFF:
                offset += 1 // a fill byte before the marker
                continue
            case 0xDA, 0xD9:
                throw .noExif // the image data (or the end) comes before any EXIF
            case 0x01, 0xD0...0xD7:
                offset += 2 // markers without a length
                continue
            case 0x00, 0xD8:
                throw .garbled(
                    field: "JPEG marker at byte \(offset)", reason: "0xFF\(hex(marker)) cannot start a header segment")
            default:
                break
            }
            guard offset + 4 <= bytes.count else {
                throw .truncated(field: "JPEG segment length at byte \(offset)", needed: offset + 4)
            }
            let length = Int(byte(offset + 2)) << 8 | Int(byte(offset + 3))
            guard length >= 2 else {
                throw .garbled(
                    field: "JPEG segment at byte \(offset)", reason: "length \(length) is shorter than its own 2 bytes")
            }
            let payload = offset + 4
            let end = offset + 2 + length
            if marker == 0xE1, length - 2 >= 6 {
                guard payload + 6 <= bytes.count else {
                    throw .truncated(field: "APP1 identifier", needed: payload + 6)
                }
                if bytes[(bytes.startIndex + payload)..<(bytes.startIndex + payload + 5)].elementsEqual(exifIdentifier)
                {
                    // "Exif\0" and a pad byte, then the TIFF.
                    let tiffStart = payload + 6
                    let available = bytes[(bytes.startIndex + tiffStart)..<(bytes.startIndex + min(bytes.count, end))]
                    let (view, ifd0) = try TIFFView.open(available, base: tiffStart, declaredLength: end - tiffStart)
                    return try readDirectories(view, firstIFD: ifd0)
                }
            }
            offset = end // another APPn (JFIF, XMP, MPF), a table, or a comment
        }
    }

    /// `Exif\0`: the first five bytes of an EXIF APP1 payload (the sixth is padding).
    private static let exifIdentifier: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00]

    // MARK: - IFDs

    /// Walks IFD0, then the Exif IFD, then SubIFDs (breadth first), collecting the fields.
    static func readDirectories(_ view: TIFFView, firstIFD: Int) throws(ImageMetadataError) -> ExifFields {
        var fields = ExifFields()
        var pending: [(offset: Int, name: String)] = [(firstIFD, "IFD0")]
        var visited: Set<Int> = []
        while !pending.isEmpty {
            let (offset, name) = pending.removeFirst()
            // Already read: a loop or a shared IFD; reading it again could add nothing.
            guard visited.insert(offset).inserted else { continue }
            guard visited.count <= ExifLimits.directories else {
                throw .garbled(field: name, reason: "the file links more than \(ExifLimits.directories) IFDs")
            }
            var exifIFDs: [(Int, String)] = []
            var subIFDs: [(Int, String)] = []
            for entry in try view.entries(at: offset, name: name) {
                switch entry.tag {
                case ExifTag.make where fields.make == nil:
                    fields.make = try string(entry, view, "\(name) Make")
                case ExifTag.model where fields.model == nil:
                    fields.model = try string(entry, view, "\(name) Model")
                case ExifTag.dateTimeOriginal where fields.dateTimeOriginal == nil:
                    fields.dateTimeOriginal = try string(entry, view, "\(name) DateTimeOriginal")
                case ExifTag.exposureTime where fields.exposureTime == nil:
                    fields.exposureTime = try rational(entry, view, "\(name) ExposureTime")
                case ExifTag.exifIFDPointer:
                    exifIFDs += try offsets(entry, view, "\(name) Exif IFD pointer", maximumCount: 1).map {
                        ($0, "Exif IFD")
                    }
                case ExifTag.subIFDs:
                    subIFDs += try offsets(entry, view, "\(name) SubIFDs", maximumCount: ExifLimits.subIFDs)
                        .enumerated()
                        .map { ($0.element, "SubIFD \($0.offset + 1)") }
                default:
                    break
                }
            }
            pending += exifIFDs.map { (offset: $0.0, name: $0.1) } + subIFDs.map { (offset: $0.0, name: $0.1) }
        }
        return fields
    }

    private static func string(
        _ entry: IFDEntry, _ view: TIFFView, _ name: String
    ) throws(ImageMetadataError) -> String {
        var (_, reader) = try view.values(of: entry, as: [.ascii], name: name, maximumCount: ExifLimits.stringBytes)
        let bytes = reader.readRemainingSlice()
        var text = Array(bytes.prefix { $0 != 0 })
        while text.last == 0x20 { text.removeLast() }
        return String(decoding: text, as: UTF8.self)
    }

    private static func rational(
        _ entry: IFDEntry, _ view: TIFFView, _ name: String
    ) throws(ImageMetadataError) -> ExifRational {
        var (_, reader) = try view.values(of: entry, as: [.rational], name: name, maximumCount: 1)
        let numerator: UInt32 = try TIFFView.read(&reader, name)
        let denominator: UInt32 = try TIFFView.read(&reader, name)
        guard denominator != 0 else { throw .garbled(field: name, reason: "\(numerator)/0 has a zero denominator") }
        return ExifRational(numerator: numerator, denominator: denominator)
    }

    private static func offsets(
        _ entry: IFDEntry, _ view: TIFFView, _ name: String, maximumCount: Int
    ) throws(ImageMetadataError) -> [Int] {
        var (_, reader) = try view.values(of: entry, as: [.long, .ifd], name: name, maximumCount: maximumCount)
        var result: [Int] = []
        for _ in 0..<entry.count {
            let offset: UInt32 = try TIFFView.read(&reader, name)
            guard offset >= 8 else {
                throw .garbled(field: name, reason: "offset \(offset) points into the TIFF header")
            }
            result.append(Int(offset))
        }
        return result
    }
}

/// Two hex digits, upper case.
func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
