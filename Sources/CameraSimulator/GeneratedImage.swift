import ImageMetadata

/// A valid JPEG (or a Sony ARW, see GeneratedImage+ARW.swift) of an exact size, produced in slices so that a
/// 25 MB image is never built in memory.
///
/// JPEG layout: SOI, then either an EXIF APP1 (as a Sony body writes it: no JFIF header) or a JFIF APP0,
/// a comment naming the shot, as many padding comment segments (COM, 0xFFFE) as the size needs, then
/// a tiny but complete 8x8 grey baseline image (DQT, SOF0, DHT, SOS, one scan byte, EOI), or, with
/// `--scene`, the scene rendered at the frame's exposure (see `SceneImage`). Decoders skip comment segments,
/// so every size from `minimumSize(comment:exif:)` up is a real JPEG.
package struct GeneratedImage: Sendable, Equatable {
    /// The total number of bytes.
    package let size: Int
    /// The file name the camera reports for it, e.g. `DSC00001_1-250s.JPG`.
    package let fileName: String
    /// The EXIF fields it carries (nil: no EXIF, a JFIF APP0 instead).
    package let exif: ExifFields?
    /// How the bytes are laid out.
    let layout: Layout

    /// The two kinds of file a body writes, each described by what is needed to produce any slice of it.
    indirect enum Layout: Sendable, Equatable {
        /// A JPEG: the bytes before the padding segments (SOI, APP1 or APP0, the naming comment), then the
        /// padding comment segments, then the picture (tables, frame, scan, EOI: the tiny image or a scene).
        case jpeg(head: [UInt8], padding: [PaddingRun], picture: [UInt8])
        /// A TIFF-structured RAW (ARW): the TIFF head, the embedded preview JPEG right after it, then zeros
        /// (standing for the sensor data) up to the size.
        case raw(head: [UInt8], preview: GeneratedImage)
    }

    /// What kind of file this is.
    package var format: GeneratedImageFormat {
        if case .raw = layout { return .arw }
        return .jpeg
    }

    /// Padding comment segments in a row: each `length` bytes including its marker, `repeats` of them.
    struct PaddingRun: Sendable, Equatable {
        let length: Int
        let repeats: Int
    }

    /// Largest comment segment: a 2-byte marker plus a length field that counts itself and 65,533 bytes.
    private static let maximumSegment = 4 + 65_533
    private static let paddingByte: UInt8 = 0x20

    /// The smallest image this generator can produce with the given comment and EXIF fields.
    package static func minimumSize(comment: String, exif: ExifFields? = nil, picture: [UInt8]? = nil) -> Int {
        head(exif: exif, comment: comment, extra: 0).count + (picture ?? tinyImage).count
    }

    /// Creates an image of `size` bytes (raised to the minimum when smaller) carrying `comment` and `exif`;
    /// `picture` (the segments of a JPEG after its SOI and APP0, see `SceneImage`) replaces the tiny grey image.
    package init(
        size requested: Int, fileName: String, comment: String, exif: ExifFields? = nil, picture: [UInt8]? = nil
    ) {
        self.fileName = fileName
        self.exif = exif
        let picture = picture ?? Self.tinyImage
        let base = Self.minimumSize(comment: comment, exif: exif, picture: picture)
        size = max(requested, base)
        var spare = size - base
        // Fewer than 4 spare bytes cannot form a segment of their own: lengthen the naming comment instead.
        let extra = spare < 4 ? spare : 0
        spare -= extra
        let head = Self.head(exif: exif, comment: comment, extra: extra)
        var runs: [PaddingRun] = []
        let full = spare / Self.maximumSegment
        let rest = spare % Self.maximumSegment
        if rest == 0 {
            if full > 0 { runs.append(PaddingRun(length: Self.maximumSegment, repeats: full)) }
        } else if rest >= 4 {
            if full > 0 { runs.append(PaddingRun(length: Self.maximumSegment, repeats: full)) }
            runs.append(PaddingRun(length: rest, repeats: 1))
        } else {
            // 1-3 bytes over whole segments (full >= 1 here): split the last whole one in two valid segments.
            if full > 1 { runs.append(PaddingRun(length: Self.maximumSegment, repeats: full - 1)) }
            runs.append(PaddingRun(length: Self.maximumSegment - 4, repeats: 1))
            runs.append(PaddingRun(length: rest + 4, repeats: 1))
        }
        layout = .jpeg(head: head, padding: runs, picture: picture)
    }

    /// An image with an explicit layout (the ARW initialiser builds one).
    init(size: Int, fileName: String, exif: ExifFields?, layout: Layout) {
        self.size = size
        self.fileName = fileName
        self.exif = exif
        self.layout = layout
    }

    /// The bytes in `range`, clamped to the image; cost is proportional to the slice, not the image.
    package func bytes(in range: Range<Int>) -> [UInt8] {
        let lower = max(0, range.lowerBound)
        let upper = min(size, range.upperBound)
        guard lower < upper else { return [] }
        let window = lower..<upper
        switch layout {
        case let .jpeg(head, padding, picture):
            return jpegBytes(in: window, head: head, padding: padding, picture: picture)
        case let .raw(head, preview): return rawBytes(in: window, head: head, preview: preview)
        }
    }

    private func jpegBytes(in window: Range<Int>, head: [UInt8], padding: [PaddingRun], picture: [UInt8]) -> [UInt8] {
        let lower = window.lowerBound
        let upper = window.upperBound
        var out = [UInt8](repeating: Self.paddingByte, count: upper - lower)
        Self.copy(head, at: 0, into: &out, window: window)
        var offset = head.count
        for run in padding {
            let runEnd = offset + run.length * run.repeats
            if runEnd <= lower || offset >= upper {
                offset = runEnd
                continue
            }
            // First segment of the run that reaches into the window.
            var index = max(0, (lower - offset) / run.length - 1)
            while index < run.repeats {
                let start = offset + index * run.length
                if start >= upper { break }
                Self.copy(Self.commentHeader(length: run.length), at: start, into: &out, window: window)
                index += 1
            }
            offset = runEnd
        }
        Self.copy(picture, at: size - picture.count, into: &out, window: window)
        return out
    }

    /// All bytes at once (for small images and tests).
    package var allBytes: [UInt8] { bytes(in: 0..<size) }

    private static func commentHeader(length: Int) -> [UInt8] {
        let field = length - 2 // the length field counts itself but not the marker
        return [0xFF, 0xFE, UInt8(truncatingIfNeeded: field >> 8), UInt8(truncatingIfNeeded: field)]
    }

    static func copy(_ source: [UInt8], at position: Int, into out: inout [UInt8], window: Range<Int>) {
        let lower = max(position, window.lowerBound)
        let upper = min(position + source.count, window.upperBound)
        guard lower < upper else { return }
        for index in lower..<upper { out[index - window.lowerBound] = source[index - position] }
    }

    private static func head(exif: ExifFields?, comment: String, extra: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8] // SOI
        if let exif {
            // APP1 Exif right after SOI, little-endian TIFF inside, as Sony bodies write it.
            bytes += ExifWriter.jpegSegment(exif)
        } else {
            // APP0: JFIF 1.01, aspect-ratio units, 1:1, no thumbnail.
            bytes += [
                0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
                0x00
            ]
        }
        let text = Array(comment.utf8.prefix(60_000)) + [UInt8](repeating: paddingByte, count: extra)
        bytes += commentHeader(length: text.count + 4) + text
        return bytes
    }

    /// An 8x8 single-component baseline image whose only block is flat grey.
    private static let tinyImage: [UInt8] = {
        var bytes: [UInt8] = []
        // DQT: table 0, 8-bit precision, all ones.
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        // SOF0: 8-bit, 8x8, one component (id 1, 1x1 sampling, quantisation table 0).
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]
        // DHT DC 0 and AC 0: a single code of length 1 each (DC category 0; AC end-of-block).
        let oneCode: [UInt8] = [0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x00] + oneCode
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x10] + oneCode
        // SOS: one component, tables 0/0, spectral 0...63.
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        // Scan: bit 0 (DC difference 0), bit 0 (end of block), padded with ones; then EOI.
        bytes += [0x3F, 0xFF, 0xD9]
        return bytes
    }()
}
