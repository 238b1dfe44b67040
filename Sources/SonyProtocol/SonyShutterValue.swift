import Exposure

/// A value of Sony's shutter speed property 0xD20D: u32 `numerator << 16 | denominator` seconds,
/// with 0 meaning BULB.
///
/// The camera's own encoding is kept (30" is 300/10 on the RX100M7, 0.4" is 4/10), because
/// that is what it wants back; comparisons with the planner's `ShutterSpeed` go by value.
package struct SonyShutterValue: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw 0xD20D value.
    package let rawValue: UInt32
    /// Wraps a raw 0xD20D value (any value; see `isValid`).
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// BULB: the shutter stays open while S2 is held.
    package static let bulb = SonyShutterValue(rawValue: 0)

    /// `numerator/denominator` seconds in Sony's encoding.
    package init(numerator: UInt16, denominator: UInt16) {
        self.rawValue = UInt32(numerator) << 16 | UInt32(denominator)
    }

    /// The encoding of `speed` as given (1/250 → 0x000100FA); nil when a term exceeds 16 bits.
    package init?(_ speed: ShutterSpeed) {
        guard let numerator = UInt16(exactly: speed.numerator), let denominator = UInt16(exactly: speed.denominator)
        else {
            return nil
        }
        self.init(numerator: numerator, denominator: denominator)
    }

    /// The value of a 0xD20D descriptor field; nil unless it is a u32.
    package init?(_ value: PTPValue) {
        guard case let .uint32(raw) = value else { return nil }
        self.init(rawValue: raw)
    }

    /// The descriptor value (u32) for this shutter value.
    package var ptpValue: PTPValue { .uint32(rawValue) }

    /// The high 16 bits.
    package var numerator: UInt16 { UInt16(truncatingIfNeeded: rawValue >> 16) }
    /// The low 16 bits.
    package var denominator: UInt16 { UInt16(truncatingIfNeeded: rawValue) }

    /// Whether this is BULB (raw 0).
    package var isBulb: Bool { rawValue == 0 }

    /// The exposure time, or nil for BULB and for values that are no time at all (a zero term,
    /// such as 0x00000001; see `isValid`).
    package var speed: ShutterSpeed? {
        guard numerator > 0, denominator > 0 else { return nil }
        return ShutterSpeed(numerator: Int(numerator), denominator: Int(denominator))
    }

    /// Whether the value is BULB or a real time.
    package var isValid: Bool { isBulb || speed != nil }

    /// Seconds of exposure; nil for BULB and invalid values.
    package var seconds: Double? { speed?.seconds }

    /// What the camera shows: `BULB`, `30"`, `0.4"`, `1/32000`; raw hex for invalid values.
    package var label: String {
        if isBulb { return "BULB" }
        if let speed { return speed.label }
        return hex32(rawValue)
    }

    /// The label.
    package var description: String { label }

    /// Whether both values mean the same exposure (BULB = BULB; 300/10 = 30/1).
    package func isSameExposure(as other: SonyShutterValue) -> Bool {
        if rawValue == other.rawValue { return true }
        guard let mine = speed, let theirs = other.speed else { return false }
        return mine == theirs
    }

    /// Whether this exposure is longer than `other` (BULB is longer than any time).
    package func isLonger(than other: SonyShutterValue) -> Bool {
        if isBulb { return !other.isBulb }
        if other.isBulb { return false }
        return UInt64(numerator) * UInt64(other.denominator) > UInt64(other.numerator) * UInt64(denominator)
    }

    /// The camera's own encoding of `speed` among the values it offers, matched by value.
    ///
    /// `OfferedSpeeds.choice(for:substituting:)` on the camera's encodings, without substitution or BULB (the
    /// runner resolved BULB and substitutions before the set; BULB is `.bulb`).
    package static func matching(_ speed: ShutterSpeed, among offered: [SonyShutterValue]) -> SonyShutterValue? {
        guard
            case let .offered(value)? = OfferedSpeeds(offered, offersBulb: false, speed: \.speed)
                .choice(for: speed, substituting: false)
        else { return nil }
        return value
    }
}
