/// Where 0xD222 (u16) says stills go: values from libgphoto2's `sony_capturetarget` table.
package struct SonySaveDestination: RawRepresentable, Hashable, Sendable {
    /// The raw 0xD222 value.
    package let rawValue: UInt16
    /// Wraps a raw value.
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0x0001: the host only (the image waits in the camera's buffer as 0xFFFFC001).
    package static let host = Self(rawValue: 0x0001)
    /// 0x0010: the memory card only.
    package static let camera = Self(rawValue: 0x0010)
    /// 0x0011: host and memory card.
    package static let hostAndCamera = Self(rawValue: 0x0011)
}
