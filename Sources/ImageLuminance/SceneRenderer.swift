import Exposure

/// Renders a `Scene` as a camera would shoot it at a given exposure time: luminance × time through
/// `ToneCurve`, into a real baseline JPEG (grey) from `JPEGEncoder`.
package struct SceneRenderer: Sendable {
    /// Width of the rendered image in pixels.
    package let width: Int
    /// Height of the rendered image in pixels.
    package let height: Int
    /// The JPEG encoder (its quality).
    package let encoder: JPEGEncoder

    /// A renderer for `width` x `height` pictures (3:2 by default, small enough to render in milliseconds).
    package init(width: Int = 480, height: Int = 320, quality: Int = 90) {
        precondition(width > 0 && height > 0, "an image has pixels")
        self.width = width
        self.height = height
        encoder = JPEGEncoder(quality: quality)
    }

    /// The 8-bit levels of `scene` shot for `exposure`, row after row (the pixel centres are sampled).
    package func levels(_ scene: Scene, exposure: ShutterSpeed) -> [UInt8] {
        let seconds = exposure.seconds
        var levels = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height {
            let y = (Double(row) + 0.5) / Double(height)
            for column in 0..<width {
                let x = (Double(column) + 0.5) / Double(width)
                let level = ToneCurve.level(exposure: scene.luminance(x, y) * seconds)
                levels[row * width + column] = UInt8(min(255, max(0, level.rounded())))
            }
        }
        return levels
    }

    /// `scene` shot for `exposure`, as the bytes of a grey baseline JPEG.
    package func render(_ scene: Scene, exposure: ShutterSpeed) -> [UInt8] {
        encoder.encode(grey: levels(scene, exposure: exposure), width: width, height: height)
    }
}
