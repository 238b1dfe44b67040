import SonyProtocol

/// The built-in ILCE-7M3-like body: its 0x9209 property table.
///
/// Types, flags and forms follow the real RX100M7 dump in ../shared/fixtures/sony/; the values are
/// an A7 III's (1/8000 top speed, manual focus so S1 never waits for autofocus).
enum DefaultBody {
    /// Every shutter speed, slowest first, in Sony's u32 encoding: BULB, 30" ... 0.4" in tenths (as
    /// the RX100M7 writes them), then 1/3 ... 1/`fastestDenominator`.
    static func shutterSpeeds(fastestDenominator: Int) -> [SonyShutterValue] {
        let tenths: [UInt16] = [300, 250, 200, 150, 130, 100, 80, 60, 50, 40, 32, 25, 20, 16, 13, 10, 8, 6, 5, 4]
        let denominators: [UInt16] = [
            3, 4, 5, 6, 8, 10, 13, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 160, 200, 250, 320, 400, 500, 640,
            800, 1000, 1250, 1600, 2000, 2500, 3200, 4000, 5000, 6400, 8000
        ]
        return [.bulb] + tenths.map { SonyShutterValue(numerator: $0, denominator: 10) }
            + denominators.filter { Int($0) <= fastestDenominator }.map {
                SonyShutterValue(numerator: 1, denominator: $0)
            }
    }

    /// The descriptors of the body `configuration` describes, in 0x9209 order.
    static func properties(configuration: SimulatorConfiguration) -> [SonyPropertyDescriptor] {
        let quirks = QuirkState(configuration.quirks)
        var properties = properties(
            fastestShutterDenominator: configuration.fastestShutterDenominator, mode: configuration.exposureMode)
        if let index = properties.firstIndex(where: { $0.code == .focusMode }) {
            properties[index].currentValue = .uint16(configuration.focusMode.rawValue)
            if quirks.focusSwitch {
                // A physical AF/MF switch: the remote sees the mode but cannot change it.
                properties[index].enabled = .displayOnly
                properties[index].form = .enumeration(settable: [], supported: properties[index].supportedValues)
            }
        }
        let onOff: [PTPValue] = [.uint8(QuirkProperty.off), .uint8(QuirkProperty.on)]
        if !quirks.focusSwitch {
            // AF with Shutter (u8, p. 393): ON, as bodies ship.
            properties.append(
                SonyPropertyDescriptor(
                    code: QuirkProperty.afWithShutter, dataType: .uint8, factoryValue: .uint8(QuirkProperty.on),
                    currentValue: .uint8(QuirkProperty.on), form: .enumeration(settable: onOff, supported: onOff)))
        }
        // Long Exposure NR (u8, p. 349): ON with the lenr quirk, else OFF.
        properties.append(
            SonyPropertyDescriptor(
                code: QuirkProperty.longExposureNR, dataType: .uint8, factoryValue: .uint8(QuirkProperty.on),
                currentValue: .uint8(quirks.longExposureNR ? QuirkProperty.on : QuirkProperty.off),
                form: .enumeration(settable: onOff, supported: onOff)))
        // Battery Remaining (INT8 %) and Media SLOT1 Remaining number shots (u32), both read only.
        properties.append(
            SonyPropertyDescriptor(
                code: QuirkProperty.batteryRemaining, dataType: .int8, getSet: 0, factoryValue: .int8(0),
                currentValue: .int8(Int8(clamping: configuration.batteryPercent)),
                form: .range(minimum: .int8(0), maximum: .int8(100), step: .int8(1))))
        properties.append(
            SonyPropertyDescriptor(
                code: QuirkProperty.remainingShots, dataType: .uint32, getSet: 0, factoryValue: .uint32(0),
                currentValue: .uint32(UInt32(clamping: configuration.cardShots)),
                form: .range(minimum: .uint32(0), maximum: .uint32(UInt32.max), step: .uint32(1))))
        if quirks.modeU16, let index = properties.firstIndex(where: { $0.code == .exposureProgramMode }) {
            // mode-u16: the 2.00 encoding, the low 16 bits of each 3.00 value.
            let low16: (PTPValue) -> PTPValue = { .uint16(UInt16(truncatingIfNeeded: $0.uint32Value ?? 0)) }
            var mode = properties[index]
            mode.dataType = .uint16
            mode.factoryValue = low16(mode.factoryValue)
            mode.currentValue = low16(mode.currentValue)
            if case let .enumeration(settable, supported) = mode.form {
                mode.form = .enumeration(settable: settable.map(low16), supported: supported.map(low16))
            }
            properties[index] = mode
        }
        if quirks.noShootingFileInfo {
            // no-d215: events alone announce the images.
            properties.removeAll { $0.code == .shootingFileInfo }
        }
        properties = withImageSettings(properties, configuration: configuration)
        if let scene = configuration.scene {
            let shutter = properties.first { $0.code == .shutterSpeed }.flatMap { SonyShutterValue($0.currentValue) }
            properties.append(SceneMeter.descriptor(scene: scene, shutter: shutter))
        }
        if quirks.shutterListInD229, let shutter = properties.first(where: { $0.code == .shutterSpeed }) {
            // The speeds 0xD20D no longer lists, in its encoding; read only, follows 0xD20D.
            properties.append(
                SonyPropertyDescriptor(
                    code: QuirkProperty.shutterSpeedList, dataType: .uint32, getSet: 0, factoryValue: .uint32(0),
                    currentValue: shutter.currentValue,
                    form: .enumeration(settable: [], supported: shutter.supportedValues)))
        }
        return properties
    }

    /// The quality (0x5004) and save destination (0xD222) set as configured, and the transfer settings a body
    /// shows when stills go to the host: 0xD268 Still Image Trans Size, and 0xD269 RAW+J PC Save Image with
    /// RAW+JPEG only (reference pp. 459, 491-492).
    private static func withImageSettings(
        _ table: [SonyPropertyDescriptor], configuration: SimulatorConfiguration
    ) -> [SonyPropertyDescriptor] {
        var properties = table
        if let index = properties.firstIndex(where: { $0.code == .compressionSetting }) {
            properties[index].currentValue = .uint8(configuration.fileFormat.compressionSetting)
        }
        if let index = properties.firstIndex(where: { $0.code == .saveDestination }) {
            // Get only (p. 459): the remote reads where stills go, the photographer sets it on the body.
            let destinations: [PTPValue] = SimulatedSaveDestination.allCases.map { .uint16($0.sonyValue.rawValue) }
            properties[index].currentValue = .uint16(configuration.saveDestination.sonyValue.rawValue)
            properties[index].form = .enumeration(settable: [], supported: destinations)
        }
        guard configuration.saveDestination != .camera else { return properties }
        let sizes: [PTPValue] = [.uint8(TransferProperty.original), .uint8(TransferProperty.smallSizeJPEG)]
        properties.append(
            SonyPropertyDescriptor(
                code: TransferProperty.stillImageTransSize, dataType: .uint8,
                factoryValue: .uint8(TransferProperty.original), currentValue: .uint8(TransferProperty.original),
                form: .enumeration(settable: sizes, supported: sizes)))
        if configuration.fileFormat == .rawAndJPEG {
            let choices: [PTPValue] = [TransferProperty.rawAndJPEG, TransferProperty.jpegOnly, TransferProperty.rawOnly]
                .map { .uint8($0) }
            properties.append(
                SonyPropertyDescriptor(
                    code: TransferProperty.rawJPEGSaveImage, dataType: .uint8,
                    factoryValue: .uint8(TransferProperty.rawAndJPEG),
                    currentValue: .uint8(TransferProperty.rawAndJPEG),
                    form: .enumeration(settable: choices, supported: choices)))
        }
        return properties
    }

    /// The descriptors of the default body in 0x9209 order, before focus options and quirks.
    static func properties(fastestShutterDenominator: Int, mode: SimulatedExposureMode) -> [SonyPropertyDescriptor] {
        let shutters = shutterSpeeds(fastestDenominator: fastestShutterDenominator).map(\.ptpValue)
        // BULB exists in M only: in S the dial stops at 30", as on Sony bodies.
        let settableShutters = mode == .shutterPriority ? Array(shutters.dropFirst()) : shutters
        let modes: [SonyExposureMode] = [.programAuto, .aperturePriority, .shutterPriority, .manual]
        let fNumbers: [PTPValue] = [
            280, 320, 350, 400, 450, 500, 560, 630, 710, 800, 900, 1000, 1100, 1300, 1400, 1600, 1800, 2000, 2200
        ]
        .map { .uint16($0) }
        let qualities: [PTPValue] = [0x02, 0x03, 0x04, 0x10, 0x13].map { .uint8($0) }
        let focusModes: [PTPValue] = [SonyFocusMode.singleAF, .automaticAF, .continuousAF, .directManual, .manual].map {
            .uint16($0.rawValue)
        }
        let isos: [PTPValue] = [0xFF_FFFF, 100, 200, 400, 800, 1600, 3200, 6400].map { .uint32($0) }
        let priority: [PTPValue] = [
            .uint8(SonyPriorityKey.cameraPosition.rawValue), .uint8(SonyPriorityKey.pcRemote.rawValue)
        ]
        return [
            // CompressionSetting (still quality, u8): standard, fine, extra fine, RAW, RAW+JPEG.
            SonyPropertyDescriptor(
                code: .compressionSetting, dataType: .uint8, factoryValue: .uint8(0x03), currentValue: .uint8(0x03),
                form: .enumeration(settable: qualities, supported: qualities)),
            // FNumber (u16, f × 100).
            SonyPropertyDescriptor(
                code: .fNumber, dataType: .uint16, factoryValue: .uint16(0xFFFF), currentValue: .uint16(560),
                form: .enumeration(settable: fNumbers, supported: fNumbers)),
            // FocusMode (u16): manual focus.
            SonyPropertyDescriptor(
                code: .focusMode, dataType: .uint16, factoryValue: .uint16(0),
                currentValue: .uint16(SonyFocusMode.manual.rawValue),
                form: .enumeration(settable: focusModes, supported: focusModes)),
            // ExposureProgramMode (u32): the mode dial, display only (a remote cannot turn it).
            SonyPropertyDescriptor(
                code: .exposureProgramMode, dataType: .uint32, enabled: .displayOnly, factoryValue: .uint32(0),
                currentValue: .uint32(mode.sonyMode.rawValue),
                form: .enumeration(settable: [], supported: modes.map { .uint32($0.rawValue) })),
            // ShutterSpeed (u32, numerator << 16 | denominator, 0 = BULB): 1/125 to start.
            SonyPropertyDescriptor(
                code: .shutterSpeed, dataType: .uint32, enabled: mode.shutterIsSettable ? .on : .displayOnly,
                factoryValue: .uint32(0xFFFF_FFFF),
                currentValue: SonyShutterValue(numerator: 1, denominator: 125).ptpValue,
                form: .enumeration(settable: mode.shutterIsSettable ? settableShutters : [], supported: shutters)),
            // FocusIndication (u8, read only): 1 = not focusing.
            SonyPropertyDescriptor(
                code: .focusIndication, dataType: .uint8, getSet: 0, factoryValue: .uint8(0), currentValue: .uint8(1),
                form: .enumeration(settable: [], supported: [])),
            // ShootingFileInfo (u16, read only): 0x8001 while an image waits in the buffer.
            SonyPropertyDescriptor(
                code: .shootingFileInfo, dataType: .uint16, getSet: 0, factoryValue: .uint16(0),
                currentValue: .uint16(0),
                form: .range(minimum: .uint16(0), maximum: .uint16(0xFFFF), step: .uint16(1))),
            // ISO (u32): 100, AUTO = 0xFFFFFF.
            SonyPropertyDescriptor(
                code: .iso, dataType: .uint32, factoryValue: .uint32(0xFF_FFFF), currentValue: .uint32(100),
                form: .enumeration(settable: isos, supported: isos)),
            // StillImageSaveDestination (u16): to the host (see `withImageSettings`), display only (as on the RX100M7).
            SonyPropertyDescriptor(
                code: .saveDestination, dataType: .uint16, enabled: .displayOnly, factoryValue: .uint16(0),
                currentValue: .uint16(SonySaveDestination.host.rawValue),
                form: .enumeration(settable: [], supported: [])),
            // PriorityKeySettings (u8): the camera's dials win until a remote asks for priority.
            SonyPropertyDescriptor(
                code: .priorityKeySettings, dataType: .uint8, factoryValue: .uint8(0),
                currentValue: .uint8(SonyPriorityKey.cameraPosition.rawValue),
                form: .enumeration(settable: priority, supported: priority))
        ]
    }

    /// Control codes the body accepts with 0x9207.
    static let controlCodes: [SonyControlCode] = [.s1Button, .s2Button]
}

extension SimulatedExposureMode {
    /// The 0x500E value a Sony body reports for this dial position.
    package var sonyMode: SonyExposureMode {
        switch self {
        case .manual: return .manual
        case .program: return .programAuto
        case .aperturePriority: return .aperturePriority
        case .shutterPriority: return .shutterPriority
        }
    }
}
