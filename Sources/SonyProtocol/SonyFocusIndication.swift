/// The focus indication of 0xD213 (u8) after a half-press (Camera Control PTP 3 Reference, p. 447).
package enum SonyFocusIndication: Hashable, Sendable {
    /// 0x01: no focus operation (S1 up).
    case unlocked
    /// 0x02 (AF-S) or 0x06 (AF-C): focused.
    case focused
    /// 0x03 (AF-S) or 0x07 (AF-C): not focused (low contrast).
    case notFocused
    /// 0x05 (AF-C tracking) and anything else: still working.
    case working(UInt8)

    /// Decodes a raw 0xD213 value.
    package init(rawValue: UInt8) {
        switch rawValue {
        case 0x01: self = .unlocked
        case 0x02, 0x06: self = .focused
        case 0x03, 0x07: self = .notFocused
        default: self = .working(rawValue)
        }
    }
}

extension SonyFocusMode {
    /// Whether a half-press focuses in this mode (every AF mode, and DMF, which starts with AF).
    package var autofocuses: Bool { self != .manual }

    /// The name photographers know: `MF`, `AF-S`, `AF-C`, `AF-A`, `DMF`, or the raw value.
    package var name: String {
        switch self {
        case .manual: "MF"
        case .singleAF: "AF-S"
        case .continuousAF: "AF-C"
        case .automaticAF: "AF-A"
        case .directManual: "DMF"
        case .other(let value): "focus mode 0x" + String(value, radix: 16, uppercase: true)
        }
    }
}
