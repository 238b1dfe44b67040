import ImageMetadata

/// Why a luma image could not be read from a JPEG (or from the JPEG preview inside a TIFF/ARW).
///
/// Every case names the part of the file that was wrong and the byte offset where it was found, so a message
/// can point at it. The same bytes always give the same answer: no case is transient.
package enum LuminanceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes end at or before `offset`, inside `field`: the file was cut short.
    case truncated(field: String, offset: Int)
    /// `field`, at byte `offset`, holds something no well-formed baseline JPEG holds.
    case malformed(field: String, offset: Int, reason: String)
    /// A valid JPEG this decoder does not read (progressive, arithmetic-coded, lossless, 12-bit, ...).
    case unsupported(String)
    /// The frame declares more pixels than the decoder is allowed to hold (checked before any allocation).
    case tooLarge(width: Int, height: Int, maximumPixels: Int)
    /// A TIFF/ARW whose IFDs point at no JPEG preview.
    case noPreview
    /// The TIFF/ARW structure around the preview could not be read.
    case container(ImageMetadataError)
    /// Neither a JPEG nor a TIFF/ARW.
    case unsupportedFormat(ImageFormat)

    /// Never: the same bytes give the same answer.
    package var isTransient: Bool { false }

    package var description: String {
        switch self {
        case let .truncated(field, offset):
            return "the JPEG ends at byte \(offset), inside its \(field)"
        case let .malformed(field, offset, reason):
            return "the JPEG's \(field) at byte \(offset) is damaged: \(reason)"
        case let .unsupported(what):
            return what
        case let .tooLarge(width, height, maximumPixels):
            return "the JPEG is \(width)x\(height), more than the \(maximumPixels) pixels hdrshoot reads"
        case .noPreview:
            return "the raw file holds no JPEG preview"
        case let .container(error):
            return "\(error)"
        case let .unsupportedFormat(format):
            return "the image is \(format == .unknown ? "of an unknown format" : "a \(format) file"), not a JPEG or ARW"
        }
    }
}
