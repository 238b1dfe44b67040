/// A camera-like tone curve: from relative exposure (scene luminance × exposure time) to an 8-bit level.
///
/// Two stages, as a camera's JPEG engine has them: a soft shoulder `s = 1 - e^-x` (linear for small exposures,
/// rolling off towards white instead of cutting at it), then an sRGB-like gamma `255 · s^(1/2.2)`. A relative
/// exposure of 0.18 comes out near level 112 (middle grey), 1.81 at 235 (the range check's clipping level) and
/// 0.028 at 50 (its shadow level): about 6 EV between the two, as in a camera JPEG.
package enum ToneCurve {
    /// The gamma of the second stage.
    package static let gamma = 2.2

    /// The level (0...255, not rounded) of a relative exposure `x` (0 or more).
    package static func level(exposure x: Double) -> Double {
        guard x > 0 else { return 0 }
        let shoulder = 1 - Math.exp2(-x / Math.ln2)
        return 255 * Math.pow(shoulder, 1 / gamma)
    }

    /// The relative exposure that comes out at `level` (0 < level < 255): the curve's inverse.
    package static func exposure(level: Double) -> Double {
        precondition(level > 0 && level < 255, "the curve reaches levels strictly between 0 and 255")
        let shoulder = Math.pow(level / 255, gamma)
        return -Math.log2(1 - shoulder) * Math.ln2
    }
}
