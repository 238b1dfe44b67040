import ByteCoding

/// Writes EXIF fields as a TIFF block or as a JPEG APP1 segment: the reader's twin (used by the simulator).
///
/// Layout: the 8-byte TIFF header, IFD0 (Make, Model, Exif IFD pointer), its values, then the Exif IFD
/// (ExposureTime, ExifVersion `0232`, DateTimeOriginal) and its values. Values that do not fit an
/// entry's 4-byte field follow their IFD, each on an even offset; entries are sorted by tag, as TIFF
/// requires. Strings longer than 1,023 bytes are cut (the reader reads at most 1,024 with the NUL).
package enum ExifWriter {
    /// The APP1 segment to put right after a JPEG's SOI: `FF E1`, length, `Exif\0\0`, then the TIFF block.
    package static func jpegSegment(_ fields: ExifFields, order: ByteOrder = .littleEndian) -> [UInt8] {
        let tiff = tiffBlock(fields, order: order)
        let length = 2 + 6 + tiff.count // the length field counts itself, not the marker
        precondition(length <= 0xFFFF, "EXIF block too large for one APP1 segment")
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF), 0x45, 0x78, 0x69, 0x66, 0x00, 0x00] + tiff
    }

    /// The TIFF block alone: header, IFD0 and, when any of its fields is set, the Exif IFD.
    package static func tiffBlock(_ fields: ExifFields, order: ByteOrder = .littleEndian) -> [UInt8] {
        block(fields, order: order, embeddedJPEGLength: nil)
    }

    /// The head of a TIFF-structured RAW file (Sony ARW): the block `tiffBlock` writes, whose IFD0 also says
    /// a JPEG preview of `embeddedJPEGLength` bytes follows right after the head (NewSubfileType 1,
    /// JPEGInterchangeFormat 0x0201 = the head's length, JPEGInterchangeFormatLength 0x0202), as ARW's IFD0 does.
    ///
    /// The head's length is even, so the preview starts on an even offset.
    package static func rawFileHead(
        _ fields: ExifFields, embeddedJPEGLength: Int, order: ByteOrder = .littleEndian
    ) -> [UInt8] {
        block(fields, order: order, embeddedJPEGLength: embeddedJPEGLength)
    }

    private static func block(_ fields: ExifFields, order: ByteOrder, embeddedJPEGLength: Int?) -> [UInt8] {
        var exif: [Entry] = []
        if let time = fields.exposureTime {
            var value = ByteWriter(order: order)
            value.writeInteger(time.numerator)
            value.writeInteger(time.denominator)
            exif.append(Entry(tag: ExifTag.exposureTime, type: .rational, count: 1, value: value.bytes))
        }
        if !exif.isEmpty || fields.dateTimeOriginal != nil {
            exif.append(Entry(tag: ExifTag.exifVersion, type: .undefined, count: 4, value: Array("0232".utf8)))
        }
        if let date = fields.dateTimeOriginal { exif.append(ascii(ExifTag.dateTimeOriginal, date)) }

        var ifd0: [Entry] = []
        if embeddedJPEGLength != nil {
            // NewSubfileType 1: IFD0 describes a reduced-resolution image (the preview), as in an ARW.
            ifd0.append(Entry(tag: ExifTag.newSubfileType, type: .long, count: 1, value: long(1, order)))
        }
        if let make = fields.make { ifd0.append(ascii(ExifTag.make, make)) }
        if let model = fields.model { ifd0.append(ascii(ExifTag.model, model)) }
        let previewIndex = embeddedJPEGLength == nil ? nil : ifd0.count
        if let embeddedJPEGLength {
            // The offset is patched in once the head's length is known.
            ifd0.append(Entry(tag: ExifTag.jpegInterchangeFormat, type: .long, count: 1, value: [0, 0, 0, 0]))
            ifd0.append(
                Entry(
                    tag: ExifTag.jpegInterchangeFormatLength, type: .long, count: 1,
                    value: long(UInt32(clamping: embeddedJPEGLength), order)))
        }
        let pointerIndex = exif.isEmpty ? nil : ifd0.count
        if !exif.isEmpty { ifd0.append(Entry(tag: ExifTag.exifIFDPointer, type: .long, count: 1, value: [0, 0, 0, 0])) }

        var writer = ByteWriter(order: order)
        writer.writeBytes(order == .littleEndian ? [0x49, 0x49] : [0x4D, 0x4D])
        writer.writeInteger(UInt16(42))
        writer.writeInteger(UInt32(8))
        let pointerField = write(ifd0, into: &writer)
        if let pointerIndex {
            writer.patchInteger(UInt32(writer.count), at: pointerField[pointerIndex])
            _ = write(exif, into: &writer)
        }
        if let previewIndex {
            if writer.count % 2 != 0 { writer.writeBytes([0]) }
            writer.patchInteger(UInt32(writer.count), at: pointerField[previewIndex])
        }
        return writer.bytes
    }

    /// A LONG value in `order`.
    private static func long(_ value: UInt32, _ order: ByteOrder) -> [UInt8] {
        var writer = ByteWriter(order: order)
        writer.writeInteger(value)
        return writer.bytes
    }

    /// One entry to write: its values already in the writer's byte order.
    private struct Entry {
        let tag: UInt16
        let type: ExifFieldType
        let count: Int
        let value: [UInt8]
    }

    private static func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = Array(text.utf8.prefix(ExifLimits.stringBytes - 1)) + [0]
        return Entry(tag: tag, type: .ascii, count: bytes.count, value: bytes)
    }

    /// Writes an IFD at the writer's current (even) offset, then the values that do not fit their fields.
    /// Returns the offset of each entry's value field (to patch pointers in).
    private static func write(_ entries: [Entry], into writer: inout ByteWriter) -> [Int] {
        let start = writer.count
        var dataOffset = start + 2 + 12 * entries.count + 4
        var fieldOffsets: [Int] = []
        var data: [UInt8] = []
        writer.writeInteger(UInt16(entries.count))
        for entry in entries {
            writer.writeInteger(entry.tag)
            writer.writeInteger(entry.type.rawValue)
            writer.writeInteger(UInt32(entry.count))
            fieldOffsets.append(writer.count)
            if entry.value.count <= 4 {
                // Small values sit left-justified in the field.
                writer.writeBytes(entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count))
            } else {
                writer.writeInteger(UInt32(dataOffset))
                let padded = entry.value.count % 2 == 0 ? entry.value : entry.value + [0]
                data += padded
                dataOffset += padded.count
            }
        }
        writer.writeInteger(UInt32(0)) // no next IFD
        writer.writeBytes(data)
        return fieldOffsets
    }
}
