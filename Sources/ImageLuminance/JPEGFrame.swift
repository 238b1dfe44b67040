/// One image component as a start-of-frame segment declares it (T.81 B.2.2).
struct FrameComponent: Sendable, Equatable {
    /// The component identifier scans refer to it by.
    let id: UInt8
    /// Horizontal sampling factor, 1...4.
    let horizontal: Int
    /// Vertical sampling factor, 1...4.
    let vertical: Int
    /// The quantisation table (0...3) its coefficients were divided by.
    let quantisationTable: Int
}

/// The frame header of a baseline or extended sequential JPEG: size, components, and the MCU grid they make.
struct JPEGFrame: Sendable, Equatable {
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int
    /// The components in frame order; the first is luma (Y) in a YCbCr or grey JPEG.
    let components: [FrameComponent]
    /// The largest horizontal sampling factor.
    let maxHorizontal: Int
    /// The largest vertical sampling factor.
    let maxVertical: Int

    /// MCUs across an interleaved scan.
    var mcusAcross: Int { (width + 8 * maxHorizontal - 1) / (8 * maxHorizontal) }
    /// MCU rows of an interleaved scan.
    var mcusDown: Int { (height + 8 * maxVertical - 1) / (8 * maxVertical) }

    /// Blocks across a component that hold image data (a non-interleaved scan codes exactly these).
    func blocksAcross(_ component: FrameComponent) -> Int {
        let samples = (width * component.horizontal + maxHorizontal - 1) / maxHorizontal
        return (samples + 7) / 8
    }

    /// Block rows of a component that hold image data.
    func blocksDown(_ component: FrameComponent) -> Int {
        let samples = (height * component.vertical + maxVertical - 1) / maxVertical
        return (samples + 7) / 8
    }

    /// Reads a SOF0/SOF1 segment's payload (after the length), refusing what the decoder cannot read and
    /// frames of more than `maximumPixels` pixels.
    static func parse(_ segment: inout SegmentReader, maximumPixels: Int) throws(LuminanceError) -> JPEGFrame {
        let start = segment.offset
        let precision = try segment.byte("frame precision")
        guard precision == 8 else {
            if precision == 12 { throw .unsupported("12-bit JPEG not supported") }
            throw .malformed(field: "frame header", offset: start, reason: "sample precision \(precision) bits")
        }
        let height = try segment.uint16("frame height")
        let width = try segment.uint16("frame width")
        guard height > 0 else { throw .unsupported("JPEG with its height in a DNL marker not supported") }
        guard width > 0 else { throw .malformed(field: "frame header", offset: start, reason: "width 0") }
        guard width * height <= maximumPixels else {
            throw .tooLarge(width: width, height: height, maximumPixels: maximumPixels)
        }
        let count = Int(try segment.byte("frame component count"))
        guard count == 1 || count == 3 else {
            if count == 4 { throw .unsupported("4-component (CMYK) JPEG not supported") }
            throw .malformed(field: "frame header", offset: start, reason: "\(count) components")
        }
        var components: [FrameComponent] = []
        for index in 0..<count {
            let at = segment.offset
            let id = try segment.byte("frame component \(index)")
            let sampling = try segment.byte("frame component \(index)")
            let table = Int(try segment.byte("frame component \(index)"))
            let horizontal = Int(sampling >> 4)
            let vertical = Int(sampling & 0x0F)
            guard (1...4).contains(horizontal), (1...4).contains(vertical) else {
                throw .malformed(
                    field: "frame component \(index)", offset: at,
                    reason: "sampling factors \(horizontal)x\(vertical) outside 1...4")
            }
            guard table <= 3 else {
                throw .malformed(
                    field: "frame component \(index)", offset: at, reason: "quantisation table \(table) outside 0...3")
            }
            guard !components.contains(where: { $0.id == id }) else {
                throw .malformed(field: "frame component \(index)", offset: at, reason: "identifier \(id) twice")
            }
            components.append(
                FrameComponent(id: id, horizontal: horizontal, vertical: vertical, quantisationTable: table))
        }
        let blocksPerMCU = components.reduce(0) { $0 + $1.horizontal * $1.vertical }
        guard blocksPerMCU <= 10 else {
            throw .malformed(
                field: "frame header", offset: start, reason: "\(blocksPerMCU) blocks per MCU, more than 10")
        }
        guard segment.remaining == 0 else {
            throw .malformed(field: "frame header", offset: start, reason: "\(segment.remaining) bytes too many")
        }
        return JPEGFrame(
            width: width, height: height, components: components,
            maxHorizontal: components.map(\.horizontal).max() ?? 1,
            maxVertical: components.map(\.vertical).max() ?? 1)
    }
}
