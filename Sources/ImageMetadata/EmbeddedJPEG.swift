/// Finds the JPEG previews a TIFF-structured raw file (Sony ARW) carries, by walking its IFDs.
///
/// An ARW's IFD0 (and, in some bodies, IFD1 or a SubIFD) points at a JPEG preview with the TIFF tags
/// JPEGInterchangeFormat (0x0201, the offset) and JPEGInterchangeFormatLength (0x0202, the byte count).
/// The walk reads IFD0, the chain of next IFDs after it, and the SubIFDs (0x014A) of each, at most
/// `ExifLimits.directories` IFDs and none twice, with the same bounds checks as `ExifReader`. A pointer outside
/// the file, or at bytes that do not start with SOI (`FF D8`), is an error: the file is damaged.
package enum EmbeddedJPEG {
    /// JPEGInterchangeFormat: LONG offset of the JPEG stream (TIFF 6.0 section 22).
    static let interchangeFormat: UInt16 = 0x0201
    /// JPEGInterchangeFormatLength: LONG byte count of the JPEG stream.
    static let interchangeFormatLength: UInt16 = 0x0202

    /// The byte ranges of every JPEG preview in the TIFF/ARW file `bytes`, in the order the IFDs are walked.
    package static func previews(in bytes: ArraySlice<UInt8>) throws(ImageMetadataError) -> [Range<Int>] {
        let (view, ifd0) = try TIFFView.open(bytes, base: 0, declaredLength: nil)
        var previews: [Range<Int>] = []
        var pending: [(offset: Int, name: String)] = [(ifd0, "IFD0")]
        var visited: Set<Int> = []
        while !pending.isEmpty {
            let (offset, name) = pending.removeFirst()
            guard visited.insert(offset).inserted else { continue }
            guard visited.count <= ExifLimits.directories else {
                throw .garbled(field: name, reason: "the file links more than \(ExifLimits.directories) IFDs")
            }
            let entries = try view.entries(at: offset, name: name)
            var start: Int?
            var length: Int?
            for entry in entries {
                switch entry.tag {
                case interchangeFormat: start = try long(entry, view, "\(name) JPEGInterchangeFormat")
                case interchangeFormatLength: length = try long(entry, view, "\(name) JPEGInterchangeFormatLength")
                case ExifTag.subIFDs:
                    var (_, reader) = try view.values(
                        of: entry, as: [.long, .ifd], name: "\(name) SubIFDs", maximumCount: ExifLimits.subIFDs)
                    for index in 0..<entry.count {
                        let subIFD: UInt32 = try TIFFView.read(&reader, "\(name) SubIFDs")
                        if subIFD >= 8 { pending.append((Int(subIFD), "\(name) SubIFD \(index + 1)")) }
                    }
                default: break
                }
            }
            if let start, let length, length > 0 {
                let end = start + length
                guard end <= bytes.count else { throw .truncated(field: "\(name) JPEG preview", needed: end) }
                let first = bytes.startIndex + start
                guard length >= 2, bytes[first] == 0xFF, bytes[first + 1] == 0xD8 else {
                    throw .garbled(field: "\(name) JPEG preview", reason: "the bytes at \(start) are no JPEG")
                }
                previews.append(start..<end)
            }
            // The next IFD in the chain: the 4 bytes after the entries (0 ends it).
            var next = try view.reader(at: offset + 2 + 12 * entries.count, count: 4, field: "\(name) next IFD")
            let nextOffset: UInt32 = try TIFFView.read(&next, "\(name) next IFD")
            if nextOffset >= 8 { pending.append((Int(nextOffset), "IFD after \(name)")) }
        }
        return previews
    }

    /// The largest JPEG preview in the TIFF/ARW file `bytes` (by byte count), or nil when it has none.
    package static func largestPreview(in bytes: ArraySlice<UInt8>) throws(ImageMetadataError) -> Range<Int>? {
        try previews(in: bytes).max { $0.count < $1.count }
    }

    private static func long(_ entry: IFDEntry, _ view: TIFFView, _ name: String) throws(ImageMetadataError) -> Int {
        var (type, reader) = try view.values(of: entry, as: [.long, .short], name: name, maximumCount: 1)
        if type == .short { return Int(try TIFFView.read(&reader, name) as UInt16) }
        return Int(try TIFFView.read(&reader, name) as UInt32)
    }
}
