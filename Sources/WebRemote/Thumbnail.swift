import ImageLuminance

/// The small image the page shows for a saved frame, made on the server so a phone never pulls a camera's
/// 10-25 MB JPEG over the field Wi-Fi.
///
/// A small JPEG (the simulator's, a body's postview) is sent as it is. A large one is read the way the range
/// check reads it, by its 1/8-scale luma (the DC terms, no inverse DCT), scaled down by whole-pixel box
/// averaging to at most `maximumWidth` wide and encoded as a grey baseline JPEG. Grey, because the DC-only
/// decoder keeps no chroma; the page's histogram and clipping figures are luma figures anyway.
package enum Thumbnail {
    /// JPEGs up to this size go to the page unchanged.
    package static let passThroughBytes = 256 << 10
    /// The widest thumbnail made.
    package static let maximumWidth = 480
    /// The encoder's quality.
    package static let quality = 80

    /// The thumbnail of `jpeg`: the bytes themselves when small, a grey JPEG at most `maximumWidth` wide when
    /// large; nil when a large file is not a JPEG the decoder reads (progressive, damaged).
    package static func make(fromJPEG jpeg: [UInt8]) -> [UInt8]? {
        guard jpeg.count > passThroughBytes else { return jpeg }
        guard let luma = try? JPEGLumaDecoder.decode(jpeg), luma.width > 0, luma.height > 0 else { return nil }
        let factor = max(1, (luma.width + maximumWidth - 1) / maximumWidth)
        let width = max(1, luma.width / factor)
        let height = max(1, luma.height / factor)
        var samples = [UInt8](repeating: 0, count: width * height)
        let area = Float(factor * factor)
        for y in 0..<height {
            for x in 0..<width {
                var sum: Float = 0
                for dy in 0..<factor {
                    let row = (y * factor + dy) * luma.width + x * factor
                    for dx in 0..<factor { sum += luma.samples[row + dx] }
                }
                samples[y * width + x] = UInt8(max(0, min(255, (sum / area).rounded())))
            }
        }
        return JPEGEncoder(quality: quality).encode(grey: samples, width: width, height: height)
    }
}
