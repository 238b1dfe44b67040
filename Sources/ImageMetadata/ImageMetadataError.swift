/// Why EXIF metadata could not be read from an image's bytes.
package enum ImageMetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes end before `field`; at least the first `needed` bytes of the file must be given to go on.
    case truncated(field: String, needed: Int)
    /// `field` holds something no well-formed file holds (a bad marker, an offset outside the data, a loop).
    case garbled(field: String, reason: String)
    /// The file is not a JPEG or a TIFF (ARW), so it has no EXIF this reader understands.
    case unsupportedFormat(ImageFormat)
    /// A JPEG whose header segments end (at the image data) without an EXIF APP1 segment.
    case noExif

    /// Never: the same bytes give the same answer; only reading more of the file can help (see `prefixLengthNeeded`).
    package var isTransient: Bool { false }

    /// For `truncated`, how many leading bytes of the file the next attempt must read; nil otherwise.
    package var prefixLengthNeeded: Int? {
        if case let .truncated(_, needed) = self { return needed }
        return nil
    }

    package var description: String {
        switch self {
        case let .truncated(field, needed):
            return "the image ends before its \(field) (the first \(needed) bytes are needed)"
        case let .garbled(field, reason):
            return "the image's \(field) is damaged: \(reason)"
        case let .unsupportedFormat(format):
            return
                "the image is \(format == .unknown ? "of an unknown format" : "a \(format) file"), which has no EXIF hdrshoot can read"
        case .noExif:
            return "the JPEG has no EXIF metadata"
        }
    }
}
