/// The camera's properties as last reported: every descriptor of a full 0x9209 dump, kept
/// current by applying later change-only dumps (0x9209 with param 1 = 1).
///
/// A value type: the camera module keeps one in its actor; the simulator keeps one as the
/// camera's state and diffs two of them to answer a change-only request.
package struct SonyPropertyTable: Hashable, Sendable {
    /// Property codes in the order they were first reported.
    package private(set) var codes: [SonyPropertyCode] = []
    private var byCode: [SonyPropertyCode: SonyPropertyDescriptor] = [:]

    /// An empty table.
    package init() {}

    /// A table holding every descriptor of `dump` (a later duplicate code replaces the earlier one).
    package init(_ dump: SonyPropertyDump) {
        apply(dump)
    }

    /// The number of properties known.
    package var count: Int { codes.count }

    /// The descriptors in first-reported order.
    package var descriptors: [SonyPropertyDescriptor] { codes.compactMap { byCode[$0] } }

    /// The whole table as a full dump (what a full 0x9209 answer holds).
    package var dump: SonyPropertyDump { SonyPropertyDump(descriptors: descriptors) }

    /// The descriptor of `code`, if the camera reported it.
    package subscript(code: SonyPropertyCode) -> SonyPropertyDescriptor? { byCode[code] }

    /// Stores `descriptor`, replacing the one with the same code; returns whether anything changed.
    @discardableResult
    package mutating func update(_ descriptor: SonyPropertyDescriptor) -> Bool {
        let previous = byCode.updateValue(descriptor, forKey: descriptor.code)
        if previous == nil { codes.append(descriptor.code) }
        return previous != descriptor
    }

    /// Applies a (full or change-only) dump; returns the codes whose descriptor is new or differs.
    @discardableResult
    package mutating func apply(_ dump: SonyPropertyDump) -> [SonyPropertyCode] {
        var changed: [SonyPropertyCode] = []
        for descriptor in dump.descriptors where update(descriptor) && !changed.contains(descriptor.code) {
            changed.append(descriptor.code)
        }
        return changed
    }

    /// Sets the current value of `code` (the simulator's side of a set); returns whether it changed.
    /// The value must have the descriptor's data type; false when `code` is unknown.
    @discardableResult
    package mutating func setCurrentValue(_ value: PTPValue, for code: SonyPropertyCode) -> Bool {
        guard var descriptor = byCode[code] else { return false }
        precondition(
            value.dataType == descriptor.dataType,
            "value of type \(value.dataType) for \(code) of type \(descriptor.dataType)")
        descriptor.currentValue = value
        return update(descriptor)
    }

    /// What a change-only 0x9209 reports after `older`: descriptors that are new or differ, in order.
    package func changes(since older: SonyPropertyTable) -> SonyPropertyDump {
        SonyPropertyDump(descriptors: descriptors.filter { older[$0.code] != $0 })
    }

    /// The current value of `code`.
    package func currentValue(of code: SonyPropertyCode) -> PTPValue? { byCode[code]?.currentValue }

    // MARK: - Properties hdrshoot reads

    /// The current shutter speed (0xD20D).
    package var shutterSpeed: SonyShutterValue? { currentValue(of: .shutterSpeed).flatMap(SonyShutterValue.init) }

    /// The shutter speeds the camera accepts now (0xD20D's first list on 3.00; the only list on 2.00).
    package var settableShutterSpeeds: [SonyShutterValue] {
        byCode[.shutterSpeed]?.settableValues.compactMap(SonyShutterValue.init) ?? []
    }

    /// Every shutter speed the camera supports (0xD20D's second list on 3.00; the only list on 2.00).
    package var supportedShutterSpeeds: [SonyShutterValue] {
        byCode[.shutterSpeed]?.supportedValues.compactMap(SonyShutterValue.init) ?? []
    }

    /// The exposure program (0x500E).
    package var exposureMode: SonyExposureMode? {
        currentValue(of: .exposureProgramMode)?.uint32Value.map(SonyExposureMode.init(rawValue:))
    }

    /// The focus mode (0x500A).
    package var focusMode: SonyFocusMode? {
        currentValue(of: .focusMode)?.uint16Value.map(SonyFocusMode.init(rawValue:))
    }

    /// Whether images wait in the camera's buffer (0xD215).
    package var shootingFileInfo: SonyShootingFileInfo? {
        currentValue(of: .shootingFileInfo)?.uint16Value.map(SonyShootingFileInfo.init(rawValue:))
    }

    /// Where stills are saved (0xD222).
    package var saveDestination: SonySaveDestination? {
        currentValue(of: .saveDestination)?.uint16Value.map(SonySaveDestination.init(rawValue:))
    }

    /// Who has priority over settings (0xD25A).
    package var priorityKey: SonyPriorityKey? {
        currentValue(of: .priorityKeySettings)?.integerValue.flatMap(UInt8.init(exactly:)).map(
            SonyPriorityKey.init(rawValue:))
    }
}
