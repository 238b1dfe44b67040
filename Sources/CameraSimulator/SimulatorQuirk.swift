import PTPIPCodec

/// A behaviour some real Sony bodies are reported to have in the field, modelled deterministically.
///
/// Unlike a `SimulatorFault` (one scripted failure), a quirk is how the body always behaves. Each case
/// has a `--quirk` spelling (see `SimulatorQuirk.parse(_:)`); tests use `SimulatorConfiguration.quirks`.
package enum SimulatorQuirk: Sendable, Equatable, CustomStringConvertible {
    /// `idle-drop:SECONDS`: both connections close SECONDS after the last operation request (A7C II).
    case idleDrop(Duration)
    /// `startup-nofire:SECONDS`: for SECONDS after OpenSession a release is answered OK and fires nothing.
    case startupNoFire(Duration)
    /// `focus-switch`: a physical AF/MF switch: 0x500A is display-only and there is no 0xD1AD.
    case focusSwitch
    /// `af-lock:MS`: in an AF mode, S2 fires only once S1 has been held MS milliseconds (focus priority).
    case afLock(Duration)
    /// `af-fail`: in an AF mode, focus never locks (0xD213 "not focused") and S2 never fires.
    case afFail
    /// `shutter-range` (`shutter-range:d229`): 0xD20D is described as a range; with `d229` the speeds are
    /// listed in 0xD229.
    case shutterRange(listInD229: Bool)
    /// `direct-set-refused[:CODE]`: on 3.00, setting 0xD20D with 0x9205 is answered with CODE
    /// (default 0x201C InvalidDevicePropValue).
    case directSetRefused(ResponseCode)
    /// `direct-set-ignored`: on 3.00, setting 0xD20D with 0x9205 is answered OK and changes nothing.
    case directSetIgnored
    /// `lost-notch:N`: the next N shutter notch steps (0x9207) are answered OK and not applied.
    case lostNotch(Int)
    /// `no-events`: nothing is ever sent on the event connection.
    case noEvents
    /// `busy-at-start:N`: the first N SDIO_Connect / 0x9209 requests of every session are answered DeviceBusy.
    case busyAtStart(Int)
    /// `d215-lag`: after a download, the next 0x9209 still shows 0xD215 = 0x8001 once.
    case shootingFileInfoLag
    /// `transfer-long:BYTES`: GetObject sends BYTES more than ObjectInfo announced (padding after the JPEG).
    case transferLong(Int)
    /// `transfer-short:BYTES`: GetObject sends BYTES fewer than ObjectInfo announced (the JPEG cut short).
    case transferShort(Int)
    /// `objectinfo-empty`: GetObjectInfo names no file and announces size 0.
    case objectInfoEmpty
    /// `objectinfo-garbled`: GetObjectInfo's data phase is 7 truncated bytes.
    case objectInfoGarbled
    /// `lenr`: Long Exposure NR on (0xD15B = ON): a dark frame as long as each exposure of 1 s or more.
    case longExposureNR
    /// `d215-pairs`: 0xD215 counts captures instead of files (a RAW+JPEG pair is one), as some bodies do, so
    /// after the JPEG of a pair is fetched it reads the same until the RAW is fetched too.
    case shootingFileInfoCountsCaptures
    /// `speed-ignored-while-buffered`: a 0x9205 set of 0xD20D, or a 0x9207 notch step of it, is answered OK and
    /// ignored while captures wait in the buffer or process (bodies reported in alpha-fairy's wishlist).
    case speedIgnoredWhileBuffered
    /// `busy-while-buffered`: a release is answered DeviceBusy while a capture processes or waits in the buffer,
    /// as a body with a one-image buffer does (the simulator's only behaviour before it had a buffer).
    case busyWhileBuffered
    /// `lists-captured-event-without-sending`: DeviceInfo lists SDIE_CapturedEvent 0xC206 (as the real RX100M7's
    /// does) but the body never sends it; ObjectAdded 0xC201, 0xD215 and 0xD249 still show each release
    /// (issue 32: whether every body and mode sends 0xC206 over Wi-Fi is unknown).
    case capturedEventListedNotSent
    /// `no-d215`: the body has no Shooting File Info 0xD215 in its 0x9209 dumps; ObjectAdded 0xC201 announces
    /// each image (the ILCE-6000's recorded dump has no 0xD215; libgphoto2's sony logs show bodies that
    /// announce objects only by event).
    case noShootingFileInfo
    /// `mode-u16`: Exposure Program Mode 0x500E is a u16 holding the low 16 bits of the 3.00 value, as protocol
    /// 2.00 bodies write it (the ILCE-6000's recorded dump: S is 0x0004 where 3.00 writes 0x00030004, iAuto
    /// 0x8000).
    case modeU16

    /// Every `--quirk` spelling, for usage texts and error messages (from `catalog`, the one list).
    package static var spellings: [String] { catalog.map(\.spelling) }

    /// The `--quirk` spelling of this quirk.
    package var description: String {
        switch self {
        case let .idleDrop(time): return "idle-drop:\(Self.seconds(time))"
        case let .startupNoFire(time): return "startup-nofire:\(Self.seconds(time))"
        case .focusSwitch: return "focus-switch"
        case let .afLock(time): return "af-lock:\(Self.milliseconds(time))"
        case .afFail: return "af-fail"
        case let .shutterRange(listInD229): return listInD229 ? "shutter-range:d229" : "shutter-range"
        case let .directSetRefused(code):
            return code == Self.defaultRefusal ? "direct-set-refused" : "direct-set-refused:\(hex(code.rawValue))"
        case .directSetIgnored: return "direct-set-ignored"
        case let .lostNotch(count): return "lost-notch:\(count)"
        case .noEvents: return "no-events"
        case let .busyAtStart(count): return "busy-at-start:\(count)"
        case .shootingFileInfoLag: return "d215-lag"
        case let .transferLong(bytes): return "transfer-long:\(bytes)"
        case let .transferShort(bytes): return "transfer-short:\(bytes)"
        case .objectInfoEmpty: return "objectinfo-empty"
        case .objectInfoGarbled: return "objectinfo-garbled"
        case .longExposureNR: return "lenr"
        case .shootingFileInfoCountsCaptures: return "d215-pairs"
        case .speedIgnoredWhileBuffered: return "speed-ignored-while-buffered"
        case .busyWhileBuffered: return "busy-while-buffered"
        case .capturedEventListedNotSent: return "lists-captured-event-without-sending"
        case .noShootingFileInfo: return "no-d215"
        case .modeU16: return "mode-u16"
        }
    }

    /// The answer to a refused direct shutter set when the spec names no code: InvalidDevicePropValue.
    package static let defaultRefusal = ResponseCode.invalidDevicePropValue

    /// Parses one `--quirk` spec such as `idle-drop:10`, `af-lock:300` or `shutter-range:d229`.
    package static func parse(_ spec: String) throws(SimulatorError) -> SimulatorQuirk {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        let argument: String? = parts.count > 1 ? parts.dropFirst().joined(separator: ":") : nil
        func noArgument(_ quirk: SimulatorQuirk) throws(SimulatorError) -> SimulatorQuirk {
            guard argument == nil else { throw .invalidQuirk(spec: spec, reason: "'\(name)' takes no value") }
            return quirk
        }
        func required(_ what: String) throws(SimulatorError) -> String {
            guard let argument, !argument.isEmpty else {
                throw .invalidQuirk(spec: spec, reason: "'\(name)' needs \(what)")
            }
            return argument
        }
        func count(_ what: String) throws(SimulatorError) -> Int {
            let text = try required(what)
            guard let value = Int(text), value >= 1 else {
                throw .invalidQuirk(spec: spec, reason: "'\(text)' is not \(what)")
            }
            return value
        }
        func seconds() throws(SimulatorError) -> Duration {
            let text = try required("a number of seconds, e.g. \(name):10")
            guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else {
                throw .invalidQuirk(spec: spec, reason: "'\(text)' is not a number of seconds > 0, e.g. \(name):10")
            }
            return .milliseconds(Int64((value * 1000).rounded()))
        }
        switch name {
        case "idle-drop": return .idleDrop(try seconds())
        case "startup-nofire": return .startupNoFire(try seconds())
        case "focus-switch": return try noArgument(.focusSwitch)
        case "af-lock":
            return .afLock(.milliseconds(try count("a whole number of milliseconds >= 1, e.g. af-lock:300")))
        case "af-fail": return try noArgument(.afFail)
        case "shutter-range":
            guard let argument else { return .shutterRange(listInD229: false) }
            guard argument.lowercased() == "d229" else {
                throw .invalidQuirk(spec: spec, reason: "the only option of 'shutter-range' is d229")
            }
            return .shutterRange(listInD229: true)
        case "direct-set-refused":
            guard let argument else { return .directSetRefused(defaultRefusal) }
            guard let code = SimulatorFault.parseCode(argument), code != ResponseCode.ok.rawValue else {
                throw .invalidQuirk(
                    spec: spec, reason: "'\(argument)' is not a response code like 0x201C (other than OK)")
            }
            return .directSetRefused(ResponseCode(code))
        case "direct-set-ignored": return try noArgument(.directSetIgnored)
        case "lost-notch": return .lostNotch(try count("a whole number of steps >= 1"))
        case "no-events": return try noArgument(.noEvents)
        case "busy-at-start": return .busyAtStart(try count("a whole number of requests >= 1"))
        case "d215-lag": return try noArgument(.shootingFileInfoLag)
        case "transfer-long": return .transferLong(try count("a whole number of bytes >= 1"))
        case "transfer-short": return .transferShort(try count("a whole number of bytes >= 1"))
        case "objectinfo-empty": return try noArgument(.objectInfoEmpty)
        case "objectinfo-garbled": return try noArgument(.objectInfoGarbled)
        case "lenr": return try noArgument(.longExposureNR)
        case "d215-pairs": return try noArgument(.shootingFileInfoCountsCaptures)
        case "speed-ignored-while-buffered": return try noArgument(.speedIgnoredWhileBuffered)
        case "busy-while-buffered": return try noArgument(.busyWhileBuffered)
        case "lists-captured-event-without-sending": return try noArgument(.capturedEventListedNotSent)
        case "no-d215": return try noArgument(.noShootingFileInfo)
        case "mode-u16": return try noArgument(.modeU16)
        default:
            throw .invalidQuirk(spec: spec, reason: "unknown quirk; use " + spellings.joined(separator: ", "))
        }
    }

    /// `10`, `2.5`: seconds as typed.
    private static func seconds(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        if milliseconds % 1000 == 0 { return String(milliseconds / 1000) }
        var text = String(Double(milliseconds) / 1000)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
