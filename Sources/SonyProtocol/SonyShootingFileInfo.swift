/// 0xD215 Shooting File Info (u16, read only): how many images wait in the camera's buffer.
///
/// On the wire, bit 15 set means "images waiting" and the low 15 bits count them; 0x8001 is one image, 0x8002
/// two (reference pp. 47-48 and 448-449). Decoded once here, so no other layer does the bit arithmetic. Bodies
/// are known to under-report the count, so callers fetch until the value returns to 0.
package struct SonyShootingFileInfo: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The largest count the low 15 bits hold.
    package static let maximumCount = 0x7FFF
    /// Bit 15: at least one image waits.
    private static let waitingFlag: UInt16 = 0x8000

    /// The raw 0xD215 value, as read or as encoded (kept for messages and the wire).
    package let rawValue: UInt16
    /// How many images the camera says wait (0 when bit 15 is clear).
    package let imagesWaiting: Int

    /// Decodes a raw 0xD215 value.
    package init(rawValue: UInt16) {
        self.rawValue = rawValue
        imagesWaiting = rawValue & Self.waitingFlag != 0 ? Int(rawValue & ~Self.waitingFlag) : 0
    }

    /// The value a camera reports with `imagesWaiting` images in its buffer: 0 for none, else bit 15 and the
    /// count (counts above `maximumCount` report `maximumCount`).
    package init(imagesWaiting: Int) {
        let count = min(max(imagesWaiting, 0), Self.maximumCount)
        self.init(rawValue: count == 0 ? 0 : Self.waitingFlag | UInt16(count))
    }

    /// No image waiting.
    package static let empty = Self(rawValue: 0)

    /// The value a camera reports with `count` images waiting (1...`maximumCount`).
    package static func waiting(_ count: Int) -> Self {
        precondition(count > 0 && count <= maximumCount, "waiting image count out of range")
        return Self(imagesWaiting: count)
    }

    /// Whether at least one image waits (the value is 0x8001 or more).
    package var hasImages: Bool { imagesWaiting > 0 }

    /// The raw value as the reference writes it, e.g. `0x8001`.
    package var description: String { "0x" + String(rawValue, radix: 16, uppercase: true) }
}
