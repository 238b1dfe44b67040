/// 0xD215 (u16): whether images wait in the camera's buffer.
///
/// Bit 15 set means "images waiting", the low 15 bits a count; 0x8001 = one image. Bodies are
/// known to under-report the count, so callers fetch until the value returns to 0.
package struct SonyShootingFileInfo: RawRepresentable, Hashable, Sendable {
    /// The raw 0xD215 value.
    package let rawValue: UInt16
    /// Wraps a raw value.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// No image waiting.
    package static let empty = Self(rawValue: 0)

    /// The value a camera reports with `count` images waiting (1...0x7FFF).
    package static func waiting(_ count: Int) -> Self {
        precondition(count > 0 && count <= 0x7FFF, "waiting image count out of range")
        return Self(rawValue: 0x8000 | UInt16(count))
    }

    /// Whether at least one image waits (the value is 0x8001 or more).
    package var hasImages: Bool { rawValue >= 0x8001 }

    /// How many images the camera says wait (0 when bit 15 is clear).
    package var imageCount: Int { rawValue & 0x8000 != 0 ? Int(rawValue & 0x7FFF) : 0 }
}
