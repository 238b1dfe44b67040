/// The exposure program of 0x500E, as Sony encodes it in either protocol.
///
/// Protocol 3.00 writes a u32 whose high 16 bits group the dial position (still, auto, scene, movie, ...):
/// the values of the Camera Control PTP 3 Reference pp. 171-172, verified against rocc and the RX100M7 dump
/// (whose supported list holds 0x00010002, 0x00020003, 0x00030004 and 0x00000001). Protocol 2.00 bodies write
/// the same mode as a u16, the low 16 bits alone: the ILCE-6000 reports S as 0x0004 and its iAuto as 0x8000.
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

    /// Decodes a raw 0x500E value of either protocol: a 3.00 u32 as it is, a 2.00 u16 (no group bits) by the
    /// low 16 bits of the 3.00 value it stands for.
    package init(rawValue: UInt32) {
        if let mode = Self.table.first(where: { $0.1 == rawValue })?.0 {
            self = mode
        } else if rawValue <= 0xFFFF, let mode = Self.table.first(where: { $0.1 & 0xFFFF == rawValue })?.0 {
            self = mode
        } else {
            self = .other(rawValue)
        }
    }

    /// The raw 0x500E value (the 3.00 encoding, or the value as sent for `.other`).
    package var rawValue: UInt32 {
        if case let .other(value) = self { return value }
        return Self.table.first { $0.0 == self }!.1
    }

    /// Whether hdrshoot can set the shutter speed in this mode (M or S only).
    package var allowsShutterSpeedControl: Bool { self == .manual || self == .shutterPriority }

    /// The dial letter or the mode's name as a photographer knows it (`M`, `S`, `Intelligent Auto`, `Sunset`,
    /// `Movie M`); an unknown value as `mode 0x...`.
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
        case let .other(value): Self.otherName(value) ?? "mode " + hex32(value)
        }
    }

    /// The reference's name of a value no case stands for, in either encoding.
    private static func otherName(_ value: UInt32) -> String? {
        if let name = otherNames[value] { return name }
        guard value <= 0xFFFF else { return nil }
        return otherNames.first { $0.key & 0xFFFF == value }?.value
    }

    /// The other values of 0x500E and their names (Camera Control PTP 3 Reference pp. 171-172).
    private static let otherNames: [UInt32: String] = [
        0x0000_0005: "Program Creative", 0x0000_0006: "Program Action", 0x0000_0007: "Portrait",
        0x0000_8008: "P_A", 0x0000_8009: "P_S",
        0x0005_8011: "Sports Action", 0x0005_8012: "Sunset", 0x0005_8013: "Night Scene", 0x0005_8014: "Landscape",
        0x0005_8015: "Macro", 0x0005_8016: "Hand-held Twilight", 0x0005_8017: "Night Portrait",
        0x0005_8018: "Anti Motion Blur", 0x0005_8019: "Pet", 0x0005_801A: "Gourmet", 0x0005_801B: "Fireworks",
        0x0005_801C: "High Sensitivity", 0x0000_8020: "Memory Recall (MR)", 0x0000_8030: "Continuous Priority AE",
        0x0000_8031: "Tele-Zoom Continuous Priority AE 8 pics", 0x0000_8032: "Tele-Zoom Continuous Priority AE 10 pics",
        0x0000_8033: "Continuous Priority AE 12 pics", 0x0006_8040: "3D Sweep Panorama",
        0x0007_8054: "Movie Auto", 0x0009_8059: "S&Q Movie P", 0x0009_805A: "S&Q Movie A",
        0x0009_805B: "S&Q Movie S", 0x0009_805C: "S&Q Movie M", 0x0009_805D: "S&Q Movie Auto",
        0x0000_8060: "Flash Off", 0x0000_8070: "Picture Effect", 0x0008_8080: "High Frame Rate P",
        0x0008_8081: "High Frame Rate A", 0x0008_8082: "High Frame Rate S", 0x0008_8083: "High Frame Rate M",
        0x0000_8084: "S&Q Motion P", 0x0000_8085: "S&Q Motion A", 0x0000_8086: "S&Q Motion S",
        0x0000_8087: "S&Q Motion M", 0x000A_8088: "Movie", 0x000A_8089: "Still", 0x000B_808A: "F (Movie or S&Q)",
        0x0007_8090: "Movie F Mode", 0x0009_8091: "S&Q F Mode", 0x000C_8092: "Interval REC (Movie) F Mode",
        0x000C_8093: "Interval REC (Movie) P", 0x000C_8094: "Interval REC (Movie) A",
        0x000C_8095: "Interval REC (Movie) S", 0x000C_8096: "Interval REC (Movie) M",
        0x000C_8097: "Interval REC (Movie) Auto"
    ]
}
