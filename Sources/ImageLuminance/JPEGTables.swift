/// The tables a JPEG's header segments define before (and between) its scans: quantisation, Huffman and the
/// restart interval. A later segment replaces a table of the same number, as T.81 allows.
struct JPEGTables: Sendable {
    /// The DC quantiser of each quantisation table 0...3 (the first of its 64 values), nil when not defined.
    var dcQuantisers: [Int?] = [nil, nil, nil, nil]
    /// DC Huffman tables 0...3.
    var dcTables: [HuffmanDecodingTable?] = [nil, nil, nil, nil]
    /// AC Huffman tables 0...3.
    var acTables: [HuffmanDecodingTable?] = [nil, nil, nil, nil]
    /// MCUs between restart markers; 0 means no restart markers.
    var restartInterval = 0

    /// A DQT or DHT table's header byte (T.81 B.2.4.1, B.2.4.2): its high nibble (`kind`: the precision or the
    /// class, 0 or 1) and its table (0...3), with the offset it was read at; anything else is malformed.
    private static func tableHeader(
        _ segment: inout SegmentReader, field: String, kind: String
    ) throws(LuminanceError) -> (high: Int, table: Int, at: Int) {
        let at = segment.offset
        let header = try segment.byte("\(field) header")
        let high = Int(header >> 4)
        let table = Int(header & 0x0F)
        guard high <= 1, table <= 3 else {
            throw .malformed(
                field: field, offset: at, reason: "\(kind) \(high) / table \(table) (must be 0...1 / 0...3)")
        }
        return (high, table, at)
    }

    /// Reads a DQT segment's payload: one or more tables of 64 8-bit or 16-bit values (T.81 B.2.4.1).
    mutating func readQuantisation(_ segment: inout SegmentReader) throws(LuminanceError) {
        while segment.remaining > 0 {
            let (precision, table, at) = try Self.tableHeader(&segment, field: "quantisation table", kind: "precision")
            let values = try segment.slice(precision == 0 ? 64 : 128, "quantisation table \(table)")
            let first = values.startIndex
            let dc = precision == 0 ? Int(values[first]) : Int(values[first]) << 8 | Int(values[first + 1])
            guard dc > 0 else {
                throw .malformed(field: "quantisation table \(table)", offset: at, reason: "DC quantiser 0")
            }
            dcQuantisers[table] = dc
        }
    }

    /// Reads a DHT segment's payload: one or more Huffman tables (T.81 B.2.4.2).
    mutating func readHuffman(_ segment: inout SegmentReader) throws(LuminanceError) {
        while segment.remaining > 0 {
            let (tableClass, table, at) = try Self.tableHeader(&segment, field: "Huffman table", kind: "class")
            let counts = Array(try segment.slice(16, "Huffman table code counts"))
            let total = counts.reduce(0) { $0 + Int($1) }
            guard total <= 256 else {
                throw .malformed(field: "Huffman table", offset: at, reason: "\(total) codes, more than 256")
            }
            let symbols = Array(try segment.slice(total, "Huffman table symbols"))
            let decoding = try HuffmanDecodingTable(counts: counts, symbols: symbols, offset: at)
            if tableClass == 0 { dcTables[table] = decoding } else { acTables[table] = decoding }
        }
    }

    /// Reads a DRI segment's payload: the restart interval (T.81 B.2.4.4).
    mutating func readRestartInterval(_ segment: inout SegmentReader) throws(LuminanceError) {
        let at = segment.offset
        restartInterval = try segment.uint16("restart interval")
        guard segment.remaining == 0 else {
            throw .malformed(
                field: "restart interval", offset: at, reason: "segment holds \(segment.remaining + 2) bytes, not 2")
        }
    }
}

/// One component of a scan: which frame component, and which Huffman tables code it.
struct ScanComponent: Sendable {
    /// Index of the component in the frame's component list.
    let frameIndex: Int
    /// DC Huffman table.
    let dcTable: HuffmanDecodingTable
    /// AC Huffman table.
    let acTable: HuffmanDecodingTable
}

/// A start-of-scan header (T.81 B.2.3), checked against the frame and the tables defined so far.
struct JPEGScanHeader: Sendable {
    /// The scan's components, in the order their blocks come in an MCU.
    let components: [ScanComponent]

    /// Reads a SOS segment's payload; the frame and every table the scan names must already be defined.
    static func parse(
        _ segment: inout SegmentReader, frame: JPEGFrame, tables: JPEGTables
    ) throws(LuminanceError) -> JPEGScanHeader {
        let start = segment.offset
        let count = Int(try segment.byte("scan component count"))
        guard (1...4).contains(count) else {
            throw .malformed(field: "scan header", offset: start, reason: "\(count) components")
        }
        var components: [ScanComponent] = []
        for index in 0..<count {
            let at = segment.offset
            let id = try segment.byte("scan component \(index)")
            let selectors = try segment.byte("scan component \(index)")
            guard let frameIndex = frame.components.firstIndex(where: { $0.id == id }) else {
                throw .malformed(field: "scan header", offset: at, reason: "component \(id) is not in the frame")
            }
            guard !components.contains(where: { $0.frameIndex == frameIndex }) else {
                throw .malformed(field: "scan header", offset: at, reason: "component \(id) twice")
            }
            let dc = Int(selectors >> 4)
            let ac = Int(selectors & 0x0F)
            guard dc <= 3, let dcTable = tables.dcTables[dc] else {
                throw .malformed(field: "scan header", offset: at, reason: "DC Huffman table \(dc) is not defined")
            }
            guard ac <= 3, let acTable = tables.acTables[ac] else {
                throw .malformed(field: "scan header", offset: at, reason: "AC Huffman table \(ac) is not defined")
            }
            components.append(ScanComponent(frameIndex: frameIndex, dcTable: dcTable, acTable: acTable))
        }
        let at = segment.offset
        let spectralStart = try segment.byte("scan spectral selection")
        let spectralEnd = try segment.byte("scan spectral selection")
        let approximation = try segment.byte("scan successive approximation")
        guard spectralStart == 0, spectralEnd == 63, approximation == 0 else {
            throw .malformed(
                field: "scan header", offset: at,
                reason:
                    "spectral selection \(spectralStart)...\(spectralEnd), approximation \(approximation) in a sequential JPEG"
            )
        }
        guard segment.remaining == 0 else {
            throw .malformed(field: "scan header", offset: start, reason: "\(segment.remaining) bytes too many")
        }
        if count > 1 {
            let blocks = components.reduce(0) {
                $0 + frame.components[$1.frameIndex].horizontal * frame.components[$1.frameIndex].vertical
            }
            guard blocks <= 10 else {
                throw .malformed(field: "scan header", offset: start, reason: "\(blocks) blocks per MCU, more than 10")
            }
        }
        return JPEGScanHeader(components: components)
    }
}
