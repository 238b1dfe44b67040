import ByteCoding

/// The TIFF structure inside an EXIF block (a JPEG's APP1 payload after `Exif\0\0`) or a whole TIFF/ARW file.
///
/// Offsets in a TIFF count from its header. `available` holds the bytes given so far; `declaredLength`
/// is how long the block says it is (a JPEG segment's length) or nil when only the file's end bounds it
/// (ARW). A read past `declaredLength` is garbage; a read past `available` but inside the block means
/// more of the file is needed, and says how much (`base` turns TIFF offsets into file offsets).
struct TIFFView {
    let available: ArraySlice<UInt8>
    let order: ByteOrder
    let base: Int
    let declaredLength: Int?

    /// Reads the header (`II*\0` or `MM\0*`, then the IFD0 offset) and returns the view and IFD0's offset.
    static func open(
        _ bytes: ArraySlice<UInt8>, base: Int, declaredLength: Int?
    ) throws(ImageMetadataError) -> (TIFFView, Int) {
        if let declaredLength, declaredLength < 8 {
            throw .garbled(
                field: "TIFF header",
                reason: "the EXIF block holds \(declaredLength) bytes, fewer than a TIFF header's 8")
        }
        guard bytes.count >= 8 else { throw .truncated(field: "TIFF header", needed: base + 8) }
        let start = bytes.startIndex
        let order: ByteOrder
        switch (bytes[start], bytes[start + 1]) {
        case (0x49, 0x49): order = .littleEndian
        case (0x4D, 0x4D): order = .bigEndian
        default: throw .garbled(field: "TIFF header", reason: "byte order mark is neither II nor MM")
        }
        let view = TIFFView(available: bytes, order: order, base: base, declaredLength: declaredLength)
        var header = try view.reader(at: 2, count: 6, field: "TIFF header")
        let magic: UInt16 = try read(&header, "TIFF magic")
        guard magic == 42 else { throw .garbled(field: "TIFF header", reason: "magic number is \(magic), not 42") }
        let ifd0: UInt32 = try read(&header, "IFD0 offset")
        guard ifd0 >= 8 else { throw .garbled(field: "IFD0 offset", reason: "\(ifd0) points into the header") }
        return (view, Int(ifd0))
    }

    /// A reader over `count` bytes at TIFF offset `offset`, or why there is none.
    func reader(at offset: Int, count: Int, field: @autoclosure () -> String) throws(ImageMetadataError) -> ByteReader {
        let end = offset + count
        if let declaredLength, end > declaredLength {
            throw .garbled(
                field: field(), reason: "points past the end of the EXIF block (\(end) > \(declaredLength) bytes)")
        }
        guard end <= available.count else { throw .truncated(field: field(), needed: base + end) }
        let start = available.startIndex + offset
        return ByteReader(slice: available[start..<(start + count)], order: order)
    }

    /// The entries of the IFD at `offset`.
    func entries(at offset: Int, name: String) throws(ImageMetadataError) -> [IFDEntry] {
        var countReader = try reader(at: offset, count: 2, field: "\(name) entry count")
        let count = Int(try Self.read(&countReader, "\(name) entry count") as UInt16)
        guard count <= ExifLimits.entriesPerIFD else {
            throw .garbled(field: name, reason: "declares \(count) entries, more than \(ExifLimits.entriesPerIFD)")
        }
        var table = try reader(at: offset + 2, count: 12 * count, field: "\(name) entries")
        var entries: [IFDEntry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let tag: UInt16 = try Self.read(&table, "\(name) entry \(index)")
            let type: UInt16 = try Self.read(&table, "\(name) entry \(index)")
            let valueCount: UInt32 = try Self.read(&table, "\(name) entry \(index)")
            let _: UInt32 = try Self.read(&table, "\(name) entry \(index)") // the value or offset, read later by type
            entries.append(
                IFDEntry(tag: tag, type: type, count: Int(valueCount), fieldOffset: offset + 2 + 12 * index + 8))
        }
        return entries
    }

    /// A reader over an entry's values: inside its 4-byte field when they fit, else at the offset the field holds.
    func values(
        of entry: IFDEntry, as expected: [ExifFieldType], name: String, maximumCount: Int
    ) throws(ImageMetadataError) -> (ExifFieldType, ByteReader) {
        guard let type = ExifFieldType(rawValue: entry.type), expected.contains(type) else {
            throw .garbled(field: name, reason: "has field type \(entry.type), expected \(expected.map(\.rawValue))")
        }
        guard entry.count >= 1 else { throw .garbled(field: name, reason: "holds no value") }
        guard entry.count <= maximumCount else {
            throw .garbled(field: name, reason: "holds \(entry.count) values, more than \(maximumCount)")
        }
        let size = type.size * entry.count
        if size <= 4 { return (type, try reader(at: entry.fieldOffset, count: size, field: name)) }
        var field = try reader(at: entry.fieldOffset, count: 4, field: name)
        let offset: UInt32 = try Self.read(&field, name)
        return (type, try reader(at: Int(offset), count: size, field: name))
    }

    /// Reads one integer from a reader this view made (so already long enough); a short one is garbage, not a trap.
    static func read<T: FixedWidthInteger>(
        _ reader: inout ByteReader, _ field: @autoclosure () -> String
    ) throws(ImageMetadataError) -> T {
        do {
            return try reader.readInteger(T.self, field: field())
        } catch {
            throw .garbled(field: field(), reason: "\(error)")
        }
    }
}

/// One 12-byte IFD entry: tag, field type, value count, and where its 4-byte value/offset field is.
struct IFDEntry {
    let tag: UInt16
    let type: UInt16
    let count: Int
    /// TIFF offset of the entry's value-or-offset field.
    let fieldOffset: Int
}
