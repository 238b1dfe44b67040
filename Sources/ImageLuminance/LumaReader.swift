import ImageMetadata

/// Reads the luma image of a camera file: a JPEG directly, a TIFF/ARW through its largest JPEG preview.
package enum LumaReader {
    /// The 1/8-scale luma image of the JPEG or TIFF/ARW file `bytes` (see `JPEGLumaDecoder`).
    ///
    /// For an ARW, errors inside the preview count offsets from the preview's first byte.
    package static func read(
        _ bytes: [UInt8], maximumPixels: Int = JPEGLumaDecoder.defaultMaximumPixels
    ) throws(LuminanceError) -> LumaImage {
        let format = ImageFormat(detecting: bytes)
        switch format {
        case .jpeg:
            return try JPEGLumaDecoder.decode(bytes[...], maximumPixels: maximumPixels)
        case .tiff:
            let preview: Range<Int>?
            do {
                preview = try EmbeddedJPEG.largestPreview(in: bytes[...])
            } catch {
                throw .container(error)
            }
            guard let preview else { throw .noPreview }
            return try JPEGLumaDecoder.decode(bytes[preview], maximumPixels: maximumPixels)
        case .heif, .unknown:
            if bytes.count < 4 { throw .truncated(field: "file signature", offset: bytes.count) }
            throw .unsupportedFormat(format)
        }
    }
}
