import ByteCoding

/// What kind of image file a run of bytes is, told from its first bytes alone (its "magic").
///
/// A camera names its files, but a garbled or empty GetObjectInfo leaves the client with nothing but the
/// bytes; this names the file from what it is. Sony bodies write JPEG, ARW (a TIFF) and HEIF
/// (Camera Control PTP 3 Reference, pp. 47-48, names RAW+JPEG and RAW+HEIF pairs).
package enum ImageFormat: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// A JPEG: SOI marker `FF D8` followed by another marker.
    case jpeg
    /// A TIFF-structured file (Sony ARW, DNG, plain TIFF), `II*\0` (little-endian) or `MM\0*` (big-endian).
    case tiff(ByteOrder)
    /// An ISO base media file with a HEIF brand (`ftyp` box at offset 4: heic, heix, mif1, ...).
    case heif
    /// None of the above (or too few bytes to tell).
    case unknown

    /// How many leading bytes `init(detecting:)` looks at; fewer may be given, which can only make it `unknown`.
    package static let detectionLength = 12

    /// Tells the format from the first bytes of a file.
    package init<C: Collection>(detecting bytes: C) where C.Element == UInt8 {
        let head = Array(bytes.prefix(Self.detectionLength))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF {
            self = .jpeg
        } else if head.count >= 4, head[0..<4] == [0x49, 0x49, 0x2A, 0x00] {
            self = .tiff(.littleEndian)
        } else if head.count >= 4, head[0..<4] == [0x4D, 0x4D, 0x00, 0x2A] {
            self = .tiff(.bigEndian)
        } else if head.count >= 12, head[4..<8] == Array("ftyp".utf8)[...],
            Self.heifBrands.contains(Array(head[8..<12]))
        {
            self = .heif
        } else {
            self = .unknown
        }
    }

    /// The file extension to give a file named from its content (no dot, upper case as a camera writes it).
    ///
    /// A TIFF from a Sony body is its RAW file, so `ARW`; HEIF is `HIF` as Sony names it; an unknown
    /// format keeps its bytes under `BIN`.
    package var fileExtension: String {
        switch self {
        case .jpeg: return "JPG"
        case .tiff: return "ARW"
        case .heif: return "HIF"
        case .unknown: return "BIN"
        }
    }

    /// A word for messages: `JPEG`, `TIFF/ARW`, `HEIF`, `unknown`.
    package var description: String {
        switch self {
        case .jpeg: return "JPEG"
        case .tiff: return "TIFF/ARW"
        case .heif: return "HEIF"
        case .unknown: return "unknown"
        }
    }

    /// Major brands of the `ftyp` box that mean a HEIF still image.
    private static let heifBrands: Set<[UInt8]> = Set(
        ["heic", "heix", "heim", "heis", "mif1", "msf1", "avif"].map { Array($0.utf8) })
}
