import ImageLuminance
import SonyProtocol

/// The body's meter in M mode with `--scene`: 0xD1B5 Metered Manual Level (reference p. 398), INT16, read only,
/// a range; the exposure at the set shutter speed against the metered one, in EV × 1000 (see
/// `Scene.meteredManualLevel(seconds:)`). It follows every change of the shutter speed.
enum SceneMeter {
    /// Metered Manual Level = 0xD1B5 (p. 398).
    static let meteredManualLevel = SonyPropertyCode(rawValue: 0xD1B5)

    /// The descriptor a body shooting `scene` at `shutter` shows.
    static func descriptor(scene: Scene.Name, shutter: SonyShutterValue?) -> SonyPropertyDescriptor {
        SonyPropertyDescriptor(
            code: meteredManualLevel, dataType: .int16, getSet: 0, factoryValue: .int16(0),
            currentValue: value(scene: scene, shutter: shutter),
            form: .range(minimum: .int16(-5000), maximum: .int16(5000), step: .int16(1)))
    }

    /// The reading at `shutter` (BULB or none reads as the metered exposure: the meter has nothing to compare).
    static func value(scene: Scene.Name, shutter: SonyShutterValue?) -> PTPValue {
        guard let shutter, !shutter.isBulb, shutter.denominator != 0 else { return .int16(0) }
        let seconds = Double(shutter.numerator) / Double(shutter.denominator)
        return .int16(Scene.named(scene).meteredManualLevel(seconds: seconds))
    }
}
