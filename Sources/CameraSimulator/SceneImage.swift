import Exposure
import ImageLuminance
import Synchronization

/// The picture of a `--scene` frame: the scene rendered at the frame's exposure time through `SceneRenderer`
/// (a camera-like tone curve into a real baseline JPEG), cut to the segments `GeneratedImage` puts after its own
/// SOI, EXIF and comments.
///
/// Renders are kept per scene and exposure (a bracket repeats its speeds set after set, and a RAW+JPEG capture
/// needs the same picture twice): at most a few hundred of about 30 KB each.
enum SceneImage {
    private static let renderer = SceneRenderer()
    private static let cache = Mutex<[String: [UInt8]]>([:])

    /// The segments after SOI and APP0 of `scene` shot for `seconds` (more than 0).
    static func picture(of scene: Scene.Name, seconds: ExposureSeconds) -> [UInt8] {
        let key = "\(scene.rawValue) \(seconds.numerator)/\(seconds.denominator)"
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let speed = ShutterSpeed(numerator: seconds.numerator, denominator: seconds.denominator)
        let jpeg = renderer.render(Scene.named(scene), exposure: speed)
        let picture = Array(jpeg[segmentsStart(of: jpeg)...])
        cache.withLock { $0[key] = picture }
        return picture
    }

    /// Where the segments after SOI and a leading APP0 start (the encoder always writes both).
    private static func segmentsStart(of jpeg: [UInt8]) -> Int {
        guard jpeg.count > 6, jpeg[2] == 0xFF, jpeg[3] == 0xE0 else { return 2 }
        return 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
    }

    /// An exposure time as a fraction of seconds (both parts 1 or more).
    struct ExposureSeconds: Sendable, Equatable {
        /// Seconds, numerator.
        let numerator: Int
        /// Seconds, denominator.
        let denominator: Int
    }
}
