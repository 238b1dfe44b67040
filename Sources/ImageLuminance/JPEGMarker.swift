/// The JPEG marker codes the decoder acts on: the byte after `0xFF` (ITU-T T.81 table B.1).
enum JPEGMarker {
    /// Start of image.
    static let soi: UInt8 = 0xD8
    /// End of image.
    static let eoi: UInt8 = 0xD9
    /// Start of frame, baseline DCT, Huffman coding.
    static let sof0: UInt8 = 0xC0
    /// Start of frame, extended sequential DCT, Huffman coding.
    static let sof1: UInt8 = 0xC1
    /// Start of frame, progressive DCT, Huffman coding.
    static let sof2: UInt8 = 0xC2
    /// Define Huffman tables.
    static let dht: UInt8 = 0xC4
    /// Define arithmetic coding conditioning.
    static let dac: UInt8 = 0xCC
    /// Define quantisation tables.
    static let dqt: UInt8 = 0xDB
    /// Define restart interval.
    static let dri: UInt8 = 0xDD
    /// Start of scan.
    static let sos: UInt8 = 0xDA
    /// Define number of lines (only after the first scan, when SOF declared a height of 0).
    static let dnl: UInt8 = 0xDC
    /// Restart markers RST0...RST7.
    static let restart: ClosedRange<UInt8> = 0xD0...0xD7
    /// The temporary marker for arithmetic coding: stands alone, without a length.
    static let tem: UInt8 = 0x01

    /// What a start-of-frame marker this decoder does not read is, for the error message; nil for SOF0/SOF1
    /// and for markers that do not start a frame.
    static func unsupportedFrame(_ marker: UInt8) -> String? {
        switch marker {
        case 0xC2, 0xC6, 0xCA, 0xCE: return "progressive JPEG not supported"
        case 0xC3, 0xC7, 0xCB, 0xCF: return "lossless JPEG not supported"
        case 0xC5: return "hierarchical JPEG not supported"
        case 0xC9: return "arithmetic-coded JPEG not supported"
        default: return nil
        }
    }
}
