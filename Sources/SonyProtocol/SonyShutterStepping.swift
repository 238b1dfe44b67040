/// Shutter speed stepping for protocol 2.00 bodies, which take 0xD20D only as relative notches:
/// SDIO_ControlDevice (0x9207) with param 1 = 0xD20D and a one-byte (u8) data phase.
///
/// Direction (libgphoto2 camlibs/ptp2/config.c `_put_Sony_ShutterSpeed`, whose table runs from
/// 30" to 1/32000): moving to a shorter exposure sends `+n` (0x01...0x7F), to a longer one
/// `0x100 - n` (0xFF = one notch slower). That is the notch count as a two's-complement Int8,
/// positive = faster.
package enum SonyShutterStepping {
    /// The data type of the notch data phase.
    package static let notchDataType = PTPDataType.uint8

    /// The camera's values in notch order: longest exposure first (BULB, 30", ... 1/32000), the
    /// order Sony bodies list them in; invalid values are left out.
    package static func notchOrder(_ offered: [SonyShutterValue]) -> [SonyShutterValue] {
        offered.filter(\.isValid).sorted { $0.isLonger(than: $1) }
    }

    /// The signed notch count from `current` to `target` in the camera's list: positive = faster
    /// (shorter), negative = slower, 0 = already there. Both must be in `offered` (by value).
    package static func notches(
        from current: SonyShutterValue, to target: SonyShutterValue, in offered: [SonyShutterValue]
    ) throws -> Int {
        let order = notchOrder(offered)
        guard let from = order.firstIndex(where: { $0.isSameExposure(as: current) }) else {
            throw SonyProtocolError.shutterValueNotOffered(current)
        }
        guard let to = order.firstIndex(where: { $0.isSameExposure(as: target) }) else {
            throw SonyProtocolError.shutterValueNotOffered(target)
        }
        return to - from
    }

    /// The u8 data phase value for a notch count: `+n` faster, `0x100 - n` slower.
    package static func controlParameter(notches: Int) throws -> UInt8 {
        guard notches != 0, (-127...127).contains(notches) else { throw SonyProtocolError.notchOutOfRange(notches) }
        return UInt8(truncatingIfNeeded: notches)
    }

    /// The notch count a camera reads from a u8 data phase value (0x01 = +1, 0xFF = -1).
    package static func notches(controlParameter: UInt8) -> Int {
        Int(Int8(bitPattern: controlParameter))
    }

    /// The notch parameter that moves from `current` to `target` in the camera's list.
    package static func controlParameter(
        from current: SonyShutterValue, to target: SonyShutterValue, in offered: [SonyShutterValue]
    ) throws -> UInt8 {
        try controlParameter(notches: notches(from: current, to: target, in: offered))
    }

    /// Where `notches` lands from `current`, stopping at either end of the list as a dial does;
    /// nil when `current` is not in the list.
    package static func value(
        after notches: Int, from current: SonyShutterValue, in offered: [SonyShutterValue]
    ) -> SonyShutterValue? {
        let order = notchOrder(offered)
        guard let from = order.firstIndex(where: { $0.isSameExposure(as: current) }) else { return nil }
        let to = min(max(from + notches, 0), order.count - 1)
        return order[to]
    }
}
