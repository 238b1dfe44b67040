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
        (.movieShutterPriority, 0x0007_8052), (.movieManual, 0x0007_8053), (.panorama, 0x0006_8041)
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
