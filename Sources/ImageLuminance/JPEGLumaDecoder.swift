/// Reads the 1/8-scale luma image of a baseline (or extended sequential, 8-bit) JPEG: the mean of every 8x8
/// luma block, from its DC coefficient alone, with no inverse DCT.
///
/// It walks the markers from SOI to EOI (ITU-T T.81 annex B): APPn, COM and other segments are skipped; DQT,
/// DHT and DRI define tables; SOF0/SOF1 the frame (grey, or three components with any sampling such as 4:4:4,
/// 4:2:2, 4:2:0); every SOS scan is Huffman-decoded block by block (AC coefficients too, since they must be
/// read to find the next block), restart markers included. The first component is luma.
///
/// Bytes are never trusted: every read is bounds-checked, the frame's size is checked against `maximumPixels`
/// before anything is allocated, and a truncated or malformed file throws `LuminanceError` with the offset of
/// the problem; nothing traps. Progressive, lossless, hierarchical, arithmetic-coded and 12-bit JPEGs throw
/// `.unsupported` (a progressive one says "progressive JPEG not supported").
package enum JPEGLumaDecoder {
    /// The most pixels a frame may have by default: 200 MP, above any camera's JPEG (Sony's largest is 61 MP).
    package static let defaultMaximumPixels = 200_000_000

    /// Decodes the luma block means of the JPEG in `bytes`.
    package static func decode(
        _ bytes: [UInt8], maximumPixels: Int = defaultMaximumPixels
    ) throws(LuminanceError) -> LumaImage {
        try decode(bytes[...], maximumPixels: maximumPixels)
    }

    /// Decodes the luma block means of the JPEG in `bytes` (offsets in errors count from the slice's start).
    package static func decode(
        _ bytes: ArraySlice<UInt8>, maximumPixels: Int = defaultMaximumPixels
    ) throws(LuminanceError) -> LumaImage {
        var reader = SegmentReader(bytes, base: 0)
        let soi = try reader.uint16("start-of-image marker")
        guard soi == 0xFFD8 else {
            throw .malformed(
                field: "start-of-image marker", offset: 0,
                reason: "the file starts 0x\(String(soi, radix: 16, uppercase: true)), not 0xFFD8")
        }
        var tables = JPEGTables()
        var frame: JPEGFrame?
        var luma: LumaPlane?
        while true {
            let (marker, at) = try nextMarker(&reader)
            switch marker {
            case JPEGMarker.eoi:
                guard frame != nil else {
                    throw .malformed(field: "end-of-image marker", offset: at, reason: "no frame header before it")
                }
                guard let luma, luma.isDecoded else {
                    throw .malformed(
                        field: "end-of-image marker", offset: at, reason: "no scan coded the luma component")
                }
                return LumaImage(width: luma.width, height: luma.height, samples: luma.samples)
            case JPEGMarker.soi:
                throw .malformed(field: "marker", offset: at, reason: "a second start-of-image marker")
            case JPEGMarker.restart, JPEGMarker.tem:
                continue // stand-alone markers without a length; a stray restart marker carries nothing
            default:
                break
            }
            if let unsupported = JPEGMarker.unsupportedFrame(marker) { throw .unsupported(unsupported) }
            if marker == JPEGMarker.dac { throw .unsupported("arithmetic-coded JPEG not supported") }
            let length = try reader.uint16("segment length")
            guard length >= 2 else {
                throw .malformed(
                    field: "segment 0xFF\(hex(marker))", offset: at,
                    reason: "length \(length) is shorter than its own 2 bytes")
            }
            var segment = try reader.segment(length - 2, "segment 0xFF\(hex(marker))")
            switch marker {
            case JPEGMarker.sof0, JPEGMarker.sof1:
                guard frame == nil else {
                    throw .malformed(field: "frame header", offset: at, reason: "a second frame header")
                }
                let parsed = try JPEGFrame.parse(&segment, maximumPixels: maximumPixels)
                let component = parsed.components[0]
                let width = parsed.blocksAcross(component)
                let height = parsed.blocksDown(component)
                luma = LumaPlane(
                    width: width, height: height, samples: [Float](repeating: 0, count: width * height))
                frame = parsed
            case JPEGMarker.dqt:
                try tables.readQuantisation(&segment)
            case JPEGMarker.dht:
                try tables.readHuffman(&segment)
            case JPEGMarker.dri:
                try tables.readRestartInterval(&segment)
            case JPEGMarker.sos:
                guard let frame, var plane = luma else {
                    throw .malformed(field: "scan header", offset: at, reason: "no frame header before the scan")
                }
                let scan = try JPEGScanHeader.parse(&segment, frame: frame, tables: tables)
                let quantiser = tables.dcQuantisers[frame.components[0].quantisationTable]
                luma = nil // keep the samples uniquely referenced while the scan writes them
                let used = try ScanDecoder(scan).decode(
                    scan, frame: frame, restartInterval: tables.restartInterval, lumaQuantiser: quantiser,
                    data: reader.rest, base: reader.offset, luma: &plane)
                luma = plane
                try reader.move(to: reader.offset + used)
            default:
                break // APPn, COM, DNL, JPGn and reserved segments: nothing the luma needs
            }
        }
    }

    /// Reads the next marker, skipping fill bytes (0xFF) before it, and returns it with its offset.
    ///
    /// Between segments only a marker may come; after a scan the decoder stops at the marker that ends it.
    private static func nextMarker(_ reader: inout SegmentReader) throws(LuminanceError) -> (UInt8, Int) {
        let at = reader.offset
        let first = try reader.byte("marker")
        guard first == 0xFF else {
            throw .malformed(field: "marker", offset: at, reason: "found 0x\(hex(first)) where 0xFF must be")
        }
        var marker = try reader.byte("marker")
        while marker == 0xFF { marker = try reader.byte("marker") }
        guard marker != 0x00 else {
            throw .malformed(field: "marker", offset: at, reason: "0xFF00 outside entropy-coded data")
        }
        return (marker, at)
    }
}
