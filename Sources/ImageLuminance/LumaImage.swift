/// A grey image of luma samples (0...255, row-major), here usually the 1/8-scale image of a JPEG's DC terms.
///
/// Each sample of a decoded JPEG is the mean luma of one 8x8 block of the full image: the DC coefficient of a
/// block is 8 times its mean (after the level shift of 128), so no inverse DCT is needed. Samples are `Float` so
/// the mean keeps the quantiser's resolution instead of being rounded to whole levels.
package struct LumaImage: Sendable, Equatable {
    /// Samples per row.
    package let width: Int
    /// Rows.
    package let height: Int
    /// `width * height` samples, row after row, each 0...255.
    package let samples: [Float]

    /// Creates an image; `samples` must hold exactly `width * height` values.
    package init(width: Int, height: Int, samples: [Float]) {
        precondition(width >= 0 && height >= 0 && samples.count == width * height, "samples do not fill the image")
        self.width = width
        self.height = height
        self.samples = samples
    }

    /// The sample at column `x`, row `y` (both must be inside the image).
    package subscript(x: Int, y: Int) -> Float {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "sample outside the image")
        return samples[y * width + x]
    }

    /// The mean of all samples (0 for an empty image).
    package var mean: Double {
        guard !samples.isEmpty else { return 0 }
        var sum = 0.0
        for sample in samples { sum += Double(sample) }
        return sum / Double(samples.count)
    }
}
