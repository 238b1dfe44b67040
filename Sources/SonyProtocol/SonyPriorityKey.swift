/// 0xD25A (u8): who has priority over settings, the camera's dials or the remote.
///
/// The RX100M7 offers [0, 1] with 0 current right after connecting. Sony's SDK names the two
/// states CameraPosition and PCRemote (SDK-level 1 and 2); on the wire they are 0 and 1 (inferred
/// from the recorded enumeration, not from a capture of the set).
package struct SonyPriorityKey: RawRepresentable, Hashable, Sendable {
    /// The raw 0xD25A value.
    package let rawValue: UInt8
    /// Wraps a raw value.
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: the camera's dials and keys win.
    package static let cameraPosition = Self(rawValue: 0)
    /// 0x01: settings made by the remote win (what hdrshoot sets when settable).
    package static let pcRemote = Self(rawValue: 1)
}
