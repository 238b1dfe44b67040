import ImageMetadata

/// The kinds of file the simulated body writes, with their PTP ObjectFormatCode.
package enum GeneratedImageFormat: Sendable, Equatable {
    /// EXIF/JPEG.
    case jpeg
    /// Sony ARW (a TIFF-structured RAW).
    case arw

    /// The ObjectFormatCode GetObjectInfo reports: EXIF/JPEG 0x3801 (PTP 1.0 §6.2); Sony's ARW 0xB101 (a
    /// vendor format code, as libgphoto2's PTP_OFC_SONY_RAW names it).
    package var objectFormat: UInt16 {
        switch self {
        case .jpeg: return 0x3801
        case .arw: return 0xB101
        }
    }

    /// The file extension a Sony card uses.
    package var fileExtension: String {
        switch self {
        case .jpeg: return "JPG"
        case .arw: return "ARW"
        }
    }
}

// MARK: - ARW: a TIFF head, an embedded JPEG preview, then the sensor data

extension GeneratedImage {
    /// A Sony ARW of `size` bytes (raised to the minimum the head and preview need): a little-endian TIFF
    /// (`II*\0`) whose IFD0 names Make and Model and points to the Exif IFD (ExposureTime, DateTimeOriginal)
    /// and to a real baseline JPEG preview of `previewSize` bytes right after the head
    /// (JPEGInterchangeFormat / JPEGInterchangeFormatLength); zeros stand for the sensor data after it.
    ///
    /// Like the JPEG, any slice is produced on demand: a 25 MB ARW is never built in memory.
    package init(
        rawSize: Int, fileName: String, exif: ExifFields, previewSize: Int, comment: String, picture: [UInt8]? = nil
    ) {
        let preview = GeneratedImage(size: previewSize, fileName: fileName, comment: comment, picture: picture)
        let head = ExifWriter.rawFileHead(exif, embeddedJPEGLength: preview.size)
        self.init(
            size: max(rawSize, head.count + preview.size), fileName: fileName, exif: exif,
            layout: .raw(head: head, preview: preview))
    }

    /// Where the embedded preview starts and how long it is (nil for a JPEG).
    package var embeddedPreview: Range<Int>? {
        guard case let .raw(head, preview) = layout else { return nil }
        return head.count..<(head.count + preview.size)
    }

    /// The bytes of an ARW in `window`: the head, the preview's slice, zeros elsewhere.
    func rawBytes(in window: Range<Int>, head: [UInt8], preview: GeneratedImage) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: window.count)
        Self.copy(head, at: 0, into: &out, window: window)
        let previewRange = head.count..<(head.count + preview.size)
        let overlap = previewRange.clamped(to: window)
        if !overlap.isEmpty {
            let slice = preview.bytes(in: (overlap.lowerBound - head.count)..<(overlap.upperBound - head.count))
            Self.copy(slice, at: overlap.lowerBound, into: &out, window: window)
        }
        return out
    }
}
