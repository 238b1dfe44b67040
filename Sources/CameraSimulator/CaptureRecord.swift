import SonyProtocol

/// One fired frame, as written to the capture log: what was asked and what was actually exposed.
package struct CaptureRecord: Sendable, Equatable, Codable {
    /// 1, 2, ... in firing order since the simulator started.
    package var frame: Int
    /// Seconds since the simulator started at which S2 fired the shutter.
    package var time: Double
    /// The raw 0xD20D value (numerator << 16 | denominator; 0 = BULB).
    package var value: UInt32
    /// The shutter speed as a camera shows it (`1/250`, `2.5"`, `BULB`).
    package var label: String
    /// The nominal exposure in seconds; nil for BULB.
    package var seconds: Double?
    /// How long the exposure was actually held (after `--exposure-cap`; for BULB, while S2 was held).
    package var exposureSeconds: Double
    /// How long the Long Exposure NR dark frame after the exposure lasted; absent (nil) when NR did not run.
    package var noiseReductionSeconds: Double?

    /// Creates a record from the camera's timeline.
    package init(frame: Int, started: Duration, shutterValue: UInt32, exposure: Duration) {
        let shutter = SonyShutterValue(rawValue: shutterValue)
        self.frame = frame
        time = Self.seconds(started)
        value = shutterValue
        label = shutter.label
        seconds = shutter.speed?.seconds
        exposureSeconds = Self.seconds(exposure)
    }

    /// The label made safe for a file name: `1/250` -> `1-250s`, `2.5"` -> `2.5s`, `BULB` stays.
    package static func fileLabel(_ label: String) -> String {
        if label.hasPrefix("1/") { return String(label.map { $0 == "/" ? "-" : $0 }) + "s" }
        if label.hasSuffix("\"") { return String(label.dropLast()) + "s" }
        return label
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
