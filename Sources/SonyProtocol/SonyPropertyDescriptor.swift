import ByteCoding

/// One Sony extended property descriptor, as SDIO_GetAllExtDevicePropInfo (0x9209) sends it.
///
/// Layout (Sony "Camera Control PTP" reference; libgphoto2 `ptp_unpack_Sony_DPD`):
/// `u16 code, u16 dataType, u8 getSet, u8 isEnabled, factory value, current value, u8 formFlag`,
/// then for a range form `min, max, step`, and for an enumeration form one u16-counted list
/// (protocol 2.00) or two (3.00: the values settable now, then every supported value).
package struct SonyPropertyDescriptor: Hashable, Sendable {
    /// The property code.
    package var code: SonyPropertyCode
    /// The data type of every value in this descriptor.
    package var dataType: PTPDataType
    /// 0 = read only, 1 = read/write (as sent; other values are kept).
    package var getSet: UInt8
    /// Whether the property is usable now (as sent; other values are kept).
    package var enabled: Enabled
    /// The factory default value.
    package var factoryValue: PTPValue
    /// The current value.
    package var currentValue: PTPValue
    /// The allowed values.
    package var form: Form

    /// Sony's isEnabled byte: 0 off (greyed out), 1 on, 2 display only.
    package struct Enabled: RawRepresentable, Hashable, Sendable {
        /// The raw isEnabled byte.
        package let rawValue: UInt8
        /// Wraps a raw isEnabled byte.
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// 0: greyed out.
        package static let off = Self(rawValue: 0)
        /// 1: usable.
        package static let on = Self(rawValue: 1)
        /// 2: shown, but cannot be changed.
        package static let displayOnly = Self(rawValue: 2)
    }

    /// The form of the allowed values (form flag 0, 1 or 2).
    package enum Form: Hashable, Sendable {
        /// Form flag 0: no list or range.
        case none
        /// Form flag 1: `minimum...maximum` in steps of `step`.
        case range(minimum: PTPValue, maximum: PTPValue, step: PTPValue)
        /// Form flag 2: on protocol 3.00 the values settable now and all supported values; on
        /// 2.00 the single list sent is both (and `supported` is what gets encoded).
        case enumeration(settable: [PTPValue], supported: [PTPValue])

        /// The form flag byte.
        package var flag: UInt8 {
            switch self {
            case .none: 0
            case .range: 1
            case .enumeration: 2
            }
        }
    }

    /// Creates a descriptor; every value must have `dataType` (checked: a mismatch is our bug).
    package init(
        code: SonyPropertyCode, dataType: PTPDataType, getSet: UInt8 = 1, enabled: Enabled = .on,
        factoryValue: PTPValue, currentValue: PTPValue, form: Form = .none
    ) {
        self.code = code
        self.dataType = dataType
        self.getSet = getSet
        self.enabled = enabled
        self.factoryValue = factoryValue
        self.currentValue = currentValue
        self.form = form
        precondition(
            allValues.allSatisfy { $0.dataType == dataType }, "descriptor \(code) holds a value not of type \(dataType)"
        )
    }

    /// Whether a remote may change the value now (read/write and enabled).
    package var isSettable: Bool { getSet == 1 && enabled == .on }

    /// The values settable now (enumeration form), else empty.
    package var settableValues: [PTPValue] {
        if case let .enumeration(settable, _) = form { return settable }
        return []
    }

    /// Every supported value (enumeration form), else empty.
    package var supportedValues: [PTPValue] {
        if case let .enumeration(_, supported) = form { return supported }
        return []
    }

    /// Whether the camera would take `value` now: settable, of the right type, and in the
    /// settable list (enumeration) or on a step of the range (range); any value of the type for
    /// form none. The simulator answers 0x9205 with this; the camera module checks before setting.
    package func allows(_ value: PTPValue) -> Bool {
        guard isSettable, value.dataType == dataType else { return false }
        switch form {
        case .none:
            return true
        case let .enumeration(settable, _):
            return settable.contains(value)
        case let .range(minimum, maximum, step):
            guard let low = minimum.wideValue, let high = maximum.wideValue, let stride = step.wideValue,
                let candidate = value.wideValue, low <= candidate, candidate <= high
            else { return false }
            return stride <= 0 || (candidate - low) % stride == 0
        }
    }

    private var allValues: [PTPValue] {
        var values = [factoryValue, currentValue]
        switch form {
        case .none: break
        case let .range(minimum, maximum, step): values += [minimum, maximum, step]
        case let .enumeration(settable, supported): values += settable + supported
        }
        return values
    }
}

// MARK: - Wire format

extension SonyPropertyDescriptor {
    /// Reads one descriptor; `layout` comes from the protocol version SDIO_GetExtDeviceInfo reported.
    package static func read(
        from reader: inout ByteReader, layout: SonyEnumerationLayout
    ) throws -> SonyPropertyDescriptor {
        let (rawCode, rawType, getSet, enabled) = try decoding {
            (
                try reader.readInteger(UInt16.self, field: "descriptor.code"),
                try reader.readInteger(UInt16.self, field: "descriptor.dataType"),
                try reader.readInteger(UInt8.self, field: "descriptor.getSet"),
                try reader.readInteger(UInt8.self, field: "descriptor.isEnabled")
            )
        }
        let code = SonyPropertyCode(rawValue: rawCode)
        let type = PTPDataType(rawValue: rawType)
        guard type.isKnown else {
            throw SonyProtocolError.unknownDataType(rawType, field: "\(hex16(rawCode)).dataType")
        }
        let factory = try PTPValue.read(type, from: &reader, field: "\(hex16(rawCode)).factoryValue")
        let current = try PTPValue.read(type, from: &reader, field: "\(hex16(rawCode)).currentValue")
        let flag = try decoding { try reader.readInteger(UInt8.self, field: "\(hex16(rawCode)).formFlag") }
        let form: Form
        switch flag {
        case 0:
            form = .none
        case 1:
            form = .range(
                minimum: try PTPValue.read(type, from: &reader, field: "\(hex16(rawCode)).minimum"),
                maximum: try PTPValue.read(type, from: &reader, field: "\(hex16(rawCode)).maximum"),
                step: try PTPValue.read(type, from: &reader, field: "\(hex16(rawCode)).step"))
        case 2:
            let first = try readList(type, from: &reader, field: "\(hex16(rawCode)).enumeration")
            switch layout {
            case .oneList:
                form = .enumeration(settable: first, supported: first)
            case .twoLists:
                let all = try readList(type, from: &reader, field: "\(hex16(rawCode)).supported")
                form = .enumeration(settable: first, supported: all)
            }
        default:
            throw SonyProtocolError.unknownFormFlag(flag, property: rawCode)
        }
        return SonyPropertyDescriptor(
            code: code, dataType: type, getSet: getSet, enabled: Enabled(rawValue: enabled),
            factoryValue: factory, currentValue: current, form: form)
    }

    /// Appends this descriptor in the layout of `layout`.
    package func write(to writer: inout ByteWriter, layout: SonyEnumerationLayout) {
        writer.writeInteger(code.rawValue)
        writer.writeInteger(dataType.rawValue)
        writer.writeInteger(getSet)
        writer.writeInteger(enabled.rawValue)
        factoryValue.write(to: &writer)
        currentValue.write(to: &writer)
        writer.writeInteger(form.flag)
        switch form {
        case .none:
            break
        case let .range(minimum, maximum, step):
            minimum.write(to: &writer)
            maximum.write(to: &writer)
            step.write(to: &writer)
        case let .enumeration(settable, supported):
            switch layout {
            case .oneList:
                Self.writeList(supported, to: &writer)
            case .twoLists:
                Self.writeList(settable, to: &writer)
                Self.writeList(supported, to: &writer)
            }
        }
    }

    private static func readList(
        _ type: PTPDataType, from reader: inout ByteReader, field: @autoclosure () -> String
    ) throws -> [PTPValue] {
        let count = try decoding { try reader.readInteger(UInt16.self, field: "\(field()).count") }
        guard Int(count) * type.minimumEncodedSize <= reader.remaining else {
            throw SonyProtocolError.malformed(
                .invalidValue(
                    field: "\(field()).count",
                    reason:
                        "\(count) values of at least \(type.minimumEncodedSize) bytes do not fit in \(reader.remaining) bytes"
                ))
        }
        var values: [PTPValue] = []
        values.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            values.append(try PTPValue.read(type, from: &reader, field: "\(field())[\(index)]"))
        }
        return values
    }

    private static func writeList(_ values: [PTPValue], to writer: inout ByteWriter) {
        precondition(values.count <= Int(UInt16.max), "an enumeration holds at most 65535 values")
        writer.writeInteger(UInt16(values.count))
        for value in values { value.write(to: &writer) }
    }
}
