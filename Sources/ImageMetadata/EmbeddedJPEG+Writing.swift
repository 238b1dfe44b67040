import ByteCoding

extension EmbeddedJPEG {
    /// Writes a TIFF-structured file shaped like a Sony ARW around JPEG previews: the finder's twin.
    ///
    /// IFD0 points at the first preview (JPEGInterchangeFormat/Length) and, when there are more, lists one
    /// SubIFD per further preview, each pointing at its JPEG; the JPEG streams follow the IFDs, each at an even
    /// offset. No raw data is written: this is what the luma reader and its tests need from an ARW.
    package static func tiff(previews: [[UInt8]], order: ByteOrder = .littleEndian) -> [UInt8] {
        precondition(!previews.isEmpty, "a preview file holds at least one preview")
        let subCount = previews.count - 1
        let ifd0Entries = subCount > 0 ? 3 : 2
        let ifd0Size = 2 + 12 * ifd0Entries + 4
        // SubIFD offsets that do not fit the entry's 4-byte field follow IFD0.
        let subOffsetsSize = subCount > 1 ? 4 * subCount : 0
        let subIFDSize = 2 + 12 * 2 + 4
        let firstSubIFD = 8 + ifd0Size + subOffsetsSize
        var dataOffset = firstSubIFD + subCount * subIFDSize
        var previewOffsets: [Int] = []
        for preview in previews {
            previewOffsets.append(dataOffset)
            dataOffset += preview.count + preview.count % 2
        }

        var writer = ByteWriter(order: order, capacity: dataOffset)
        writer.writeBytes(order == .littleEndian ? [0x49, 0x49] : [0x4D, 0x4D])
        writer.writeInteger(UInt16(42))
        writer.writeInteger(UInt32(8))
        writer.writeInteger(UInt16(ifd0Entries))
        if subCount > 0 {
            let field = subCount == 1 ? firstSubIFD : 8 + ifd0Size
            writeEntry(&writer, tag: ExifTag.subIFDs, type: .long, count: subCount, value: UInt32(field))
        }
        writeEntry(&writer, tag: interchangeFormat, type: .long, count: 1, value: UInt32(previewOffsets[0]))
        writeEntry(&writer, tag: interchangeFormatLength, type: .long, count: 1, value: UInt32(previews[0].count))
        writer.writeInteger(UInt32(0)) // no next IFD
        if subCount > 1 {
            for index in 0..<subCount { writer.writeInteger(UInt32(firstSubIFD + index * subIFDSize)) }
        }
        for index in 1..<previews.count {
            writer.writeInteger(UInt16(2))
            writeEntry(&writer, tag: interchangeFormat, type: .long, count: 1, value: UInt32(previewOffsets[index]))
            writeEntry(
                &writer, tag: interchangeFormatLength, type: .long, count: 1, value: UInt32(previews[index].count))
            writer.writeInteger(UInt32(0))
        }
        for preview in previews {
            writer.writeBytes(preview)
            if preview.count % 2 == 1 { writer.writeZeros(1) }
        }
        return writer.bytes
    }

    private static func writeEntry(
        _ writer: inout ByteWriter, tag: UInt16, type: ExifFieldType, count: Int, value: UInt32
    ) {
        writer.writeInteger(tag)
        writer.writeInteger(type.rawValue)
        writer.writeInteger(UInt32(count))
        writer.writeInteger(value)
    }
}
