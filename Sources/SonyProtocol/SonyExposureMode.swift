/// The exposure program of 0x500E (u32), as Sony encodes it.
///
/// Values verified against rocc (`ExposureMode+SonyPTPPropValueConvertible.swift` and its tests)
/// and the RX100M7 dump, whose supported list holds 0x00010002, 0x00020003, 0x00030004 and
/// 0x00000001. The high 16 bits group the dial position (still, auto, scene, movie, ...).
package enum SonyExposureMode: Hashable, Sendable {
    /// M: 0x00000001.
    case manual
    /// P: 0x00010002.
    case programAuto
    /// A: 0x00020003.
    case aperturePriority
    /// S: 0x00030004.
    case shutterPriority
    /// Intelligent Auto: 0x00048000.
    case intelligentAuto
    /// Superior Auto: 0x00048001.
    case superiorAuto
    /// Movie P: 0x00078050.
    case movieProgramAuto
    /// Movie A: 0x00078051.
    case movieAperturePriority
    /// Movie S: 0x00078052.
    case movieShutterPriority
    /// Movie M: 0x00078053.
    case movieManual
    /// Sweep panorama: 0x00068041.
    case panorama
    /// Any other value (scenes, HFR, S&Q, ...), kept as sent.
    case other(UInt32)

    private static let table: [(SonyExposureMode, UInt32)] = [
        (.manual, 0x0000_0001), (.programAuto, 0x0001_0002), (.aperturePriority, 0x0002_0003),
        (.shutterPriority, 0x0003_0004), (.intelligentAuto, 0x0004_8000), (.superiorAuto, 0x0004_8001),
        (.movieProgramAuto, 0x0007_8050), (.movieAperturePriority, 0x0007_8051),
        (.movieShutterPriority, 0x0007_8052), (.movieManual, 0x0007_8053), (.panorama, 0x0006_8041),
    ]

    /// Decodes a raw 0x500E value.
    package init(rawValue: UInt32) {
        self = Self.table.first { $0.1 == rawValue }?.0 ?? .other(rawValue)
    }

    /// The raw 0x500E value.
    package var rawValue: UInt32 {
        if case let .other(value) = self { return value }
        return Self.table.first { $0.0 == self }!.1
    }

    /// Whether hdrshoot can set the shutter speed in this mode (M or S only).
    package var allowsShutterSpeedControl: Bool { self == .manual || self == .shutterPriority }

    /// The dial letter or name a photographer knows (`M`, `S`, `A`, `P`, ...).
    package var name: String {
        switch self {
        case .manual: "M"
        case .programAuto: "P"
        case .aperturePriority: "A"
        case .shutterPriority: "S"
        case .intelligentAuto: "Intelligent Auto"
        case .superiorAuto: "Superior Auto"
        case .movieProgramAuto: "Movie P"
        case .movieAperturePriority: "Movie A"
        case .movieShutterPriority: "Movie S"
        case .movieManual: "Movie M"
        case .panorama: "Sweep Panorama"
        case let .other(value): "mode " + hex32(value)
        }
    }
}

/// The focus mode of 0x500A (u16), verified against rocc's Sony focus-mode mapping; the RX100M7
/// reports AF-A (0x8005).
package enum SonyFocusMode: Hashable, Sendable {
    /// MF: 0x0001.
    case manual
    /// AF-S: 0x0002.
    case singleAF
    /// AF-C: 0x8004.
    case continuousAF
    /// AF-A: 0x8005.
    case automaticAF
    /// DMF: 0x8006.
    case directManual
    /// Any other value, kept as sent.
    case other(UInt16)

    private static let table: [(SonyFocusMode, UInt16)] = [
        (.manual, 0x0001), (.singleAF, 0x0002), (.continuousAF, 0x8004), (.automaticAF, 0x8005),
        (.directManual, 0x8006),
    ]

    /// Decodes a raw 0x500A value.
    package init(rawValue: UInt16) {
        self = Self.table.first { $0.1 == rawValue }?.0 ?? .other(rawValue)
    }

    /// The raw 0x500A value.
    package var rawValue: UInt16 {
        if case let .other(value) = self { return value }
        return Self.table.first { $0.0 == self }!.1
    }
}

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
