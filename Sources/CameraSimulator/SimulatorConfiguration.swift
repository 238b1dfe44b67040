import Foundation
import ImageLuminance
import ImageMetadata
import SonyProtocol

/// Everything that shapes one simulated camera: the body, its timing, where it logs, and its faults.
///
/// Build one in code (tests) or with `parse(arguments:)` (the `hdrshoot simulate` command); both
/// give the same camera.
package struct SimulatorConfiguration: Sendable, Equatable {
    /// Address to bind; loopback by default so nothing outside the machine can reach the simulator.
    package var host: String = "127.0.0.1"
    /// TCP port for both connections; 0 picks a free one (see `CameraSimulator.port`).
    package var port: UInt16 = 15740
    /// Sony protocol version answered by 0x9202: 300 (3.00, absolute shutter setting) or 200 (2.00, notch stepping).
    package var protocolVersion: UInt16 = 300
    /// The fastest shutter speed the body offers, as a denominator of 1 s (8000 for 1/8000, 4000 for 1/4000).
    package var fastestShutterDenominator: Int = 8000
    /// The mode dial position at start-up.
    package var exposureMode: SimulatedExposureMode = .manual
    /// Size of every generated JPEG or ARW in bytes (a small-size JPEG is 1/16 of it, at least 4096).
    package var imageSize: Int = 200_000
    /// Shots left on the card at start (0xD249); each stored image takes one, and a full card fires nothing.
    package var cardShots: Int = 9_999
    /// The battery level in percent (0xD218).
    package var batteryPercent: Int = 100
    /// The body's clock when the simulator starts (its images' DateTimeOriginal counts on from it);
    /// nil: this computer's local time at that moment.
    package var cameraClock: ExifDateTime?
    /// Added to each request's answer, like a Wi-Fi round trip.
    package var roundTripDelay: Duration = .zero
    /// Data-phase throughput in bytes per second; nil means as fast as loopback goes.
    package var bandwidth: Int?
    /// How long a protocol-2.00 body takes to apply a 0x9207 notch step of the shutter speed.
    package var stepDelay: Duration = .milliseconds(200)
    /// Holds every exposure at most this long (benchmarks); nil means the real duration.
    package var exposureCap: Duration?
    /// Time between the end of an exposure (and its dark frame) and its files joining the buffer; the shutter
    /// is free again meanwhile.
    package var processingTime: Duration = .milliseconds(300)
    /// How many captures the body holds (files waiting in the buffer plus images processing); a release when it
    /// holds this many is answered OK and fires nothing.
    package var bufferCapacity: Int = 20
    /// What each capture writes: JPEG, RAW+JPEG or RAW.
    package var fileFormat: SimulatedFileFormat = .jpeg
    /// Where stills go (0xD222): to the host (the buffer), the card, or both.
    package var saveDestination: SimulatedSaveDestination = .host
    /// File to append one JSON line per fired frame to.
    package var captureLogPath: String?
    /// File to append one JSON line per operation handled to.
    package var operationLogPath: String?
    /// A recorded GetDeviceInfo (0x1001) data phase to serve verbatim instead of the built-in one.
    package var replayDeviceInfoPath: String?
    /// A recorded SDIO_GetExtDeviceInfo (0x9202) data phase to serve verbatim.
    package var replayExtDeviceInfoPath: String?
    /// A recorded SDIO_GetAllExtDevicePropInfo (0x9209) data phase to serve (with the live shutter value patched in).
    package var replayPropertiesPath: String?
    /// Scripted misbehaviours.
    package var faults: [SimulatorFault] = []
    /// Field behaviours of real bodies (see `SimulatorQuirk`); none by default.
    package var quirks: [SimulatorQuirk] = []
    /// The focus mode (0x500A) at start-up: manual focus by default, so S1 never waits for autofocus.
    package var focusMode: SonyFocusMode = .manual
    /// The scene every image shows, rendered at the frame's exposure (`--scene`); nil: a tiny flat grey image.
    package var scene: Scene.Name?
    /// Whether the body needs pairing (`--pairing`): an Init Command Request from a computer whose GUID it has
    /// not saved waits for the photographer's OK (or refusal: Init Fail reason 1) on the body, given through
    /// the simulator's control (Camera Control PTP 3 reference pp. 40-41).
    package var needsPairing = false
    /// Whether a session dropped without CloseSession (0x1003) leaves the body holding it
    /// (`--hold-session-after-drop`): every new Init Command Request gets EOF until the body is power-cycled
    /// (a field report on the newest bodies, issue 33).
    package var holdsSessionAfterDrop = false
    /// The TCP port the UPnP descriptions are served on (`--description-port`; 0 a free one); nil serves none
    /// unless `ssdpPort` is set (then a free port).
    package var descriptionPort: UInt16?
    /// The UDP port unicast SSDP M-SEARCHes for DigitalImaging are answered on (`--ssdp-port`), with the
    /// description's LOCATION; nil answers none.
    package var ssdpPort: UInt16?
    /// Whether the description says `X_SSH_Support` `Enable` (`--ssh-support`): Access Authentication is on, so
    /// a client must come through SSH (a test puts a real sshd in front of the simulator).
    package var sshSupport = false

    /// Whether the body announces and serves its UPnP descriptions.
    package var servesDescription: Bool { descriptionPort != nil || ssdpPort != nil }

    /// The default camera: an ILCE-7M3-like body on protocol 3.00, manual mode, 200 KB JPEGs, loopback:15740.
    package init() {}

    /// The usage text of the simulator's options, for outside tools that start it with a command line; the
    /// `--quirk` line lists the quirks' one list (`SimulatorQuirk.catalog`).
    package static let usage = optionUsage + "\n" + quirkUsage

    /// The `--quirk` line, its spellings wrapped under the others' descriptions.
    private static var quirkUsage: String {
        let indent = String(repeating: " ", count: 26)
        var lines: [String] = []
        var line = "--quirk NAME[:ARG][,...]  "
        for (index, spelling) in SimulatorQuirk.spellings.enumerated() {
            let word = spelling + (index == SimulatorQuirk.spellings.count - 1 ? " (repeatable)" : ",")
            if line.count + word.count > 104, line.count > indent.count {
                lines.append(String(line.dropLast()))
                line = indent
            }
            line += word + " "
        }
        lines.append(String(line.dropLast()))
        return lines.joined(separator: "\n")
    }

    /// The other options' usage lines.
    private static let optionUsage = """
        --host ADDRESS            address to listen on (default 127.0.0.1)
        --port N                  TCP port, 0 picks a free one (default 15740)
        --protocol 2|3            Sony protocol 2.00 (shutter by notch steps) or 3.00 (default)
        --max-shutter 1/N         fastest shutter speed, 1/4000 or 1/8000 (default 1/8000)
        --mode M|A|S|P            exposure mode dial at start (default M)
        --image-size BYTES        size of each generated JPEG or ARW (default 200000)
        --card-shots N            shots left on the memory card at start (default 9999; a full card fires nothing)
        --battery PERCENT         battery level the body reports (default 100)
        --rtt MS                  added round-trip delay per request
        --bandwidth BYTES_PER_S   data-phase throughput limit
        --step-delay MS           delay before a 2.00 shutter notch step applies (default 200)
        --exposure-cap SECONDS    hold every exposure at most this long
        --processing-ms MS        image processing time after an exposure, behind the shutter (default 300)
        --buffer N                captures the body holds (waiting + processing) before a release fires nothing
                                  (default 20)
        --format jpeg|raw+jpeg|raw  files per capture (default jpeg; raw+jpeg: a JPEG, then an ARW)
        --save-to host|camera|both  still image save destination, 0xD222 (default host; camera: nothing to fetch)
        --description-port N      serve dd.xml and DigitalImagingDesc.xml over HTTP on this TCP port
        --ssdp-port N             answer unicast SSDP M-SEARCHes for DigitalImaging on this UDP port
        --capture-log FILE        append one JSON line per fired frame
        --op-log FILE             append one JSON line per operation handled
        --replay-device-info FILE       serve a recorded GetDeviceInfo data phase
        --replay-ext-device-info FILE   serve a recorded 0x9202 data phase
        --replay-props FILE             serve a recorded 0x9209 data phase
        --fault SPEC[,SPEC...]    busy:OPCODE:N, busy-capture:N, drop-at-frame:N, drop-at-op:N,
                                  hang-at-op:N, hang-at-speed-set:N, refuse-connections:N, never-idle,
                                  mode-at-frame:N:A
                                  (repeatable)
        --focus MF|AF-S|AF-C|AF-A|DMF   focus mode at start (default MF)
        --scene NAME              every image shows a scene at its exposure: interior-window, sunset,
                                  night-street, grey-card
        """

    /// Parses the simulator's options from a command line (everything after `simulate`, as the tests and
    /// outside tools give them); throws on any unknown or malformed one. `hdrshoot simulate` does not come
    /// through here: its `CommandSpec` has split the options already and it calls `set(_:to:)` for each.
    package static func parse(arguments: [String]) throws(SimulatorError) -> SimulatorConfiguration {
        var configuration = SimulatorConfiguration()
        try SimulatorArguments.read(arguments) { name, value throws(SimulatorError) in
            try configuration.set(name, to: value ?? "")
        }
        return configuration
    }

    /// Sets the option `name` (without its dashes: `port`, `quirk`) from its text; a repeatable option
    /// (`fault`, `quirk`) adds to what is there. Throws `SimulatorError` naming `--name` for an unknown option or
    /// a bad value.
    package mutating func set(_ name: String, to text: String) throws(SimulatorError) {
        let option = "--" + name
        func integer(_ text: String, minimum: Int = 0) throws(SimulatorError) -> Int {
            guard let number = Int(text), number >= minimum else {
                throw .invalidValue(option: option, value: text, expected: "a whole number >= \(minimum)")
            }
            return number
        }
        switch option {
        case "--host":
            self.host = text
        case "--port":
            guard let port = UInt16(text) else {
                throw .invalidValue(option: option, value: text, expected: "a port number 0-65535")
            }
            self.port = port
        case "--protocol":
            switch text {
            case "2", "2.00", "200": self.protocolVersion = 200
            case "3", "3.00", "300": self.protocolVersion = 300
            default: throw .invalidValue(option: option, value: text, expected: "2 or 3")
            }
        case "--max-shutter":
            let digits = text.hasPrefix("1/") ? String(text.dropFirst(2)) : text
            guard let denominator = Int(digits), [4000, 8000].contains(denominator) else {
                throw .invalidValue(option: option, value: text, expected: "1/4000 or 1/8000")
            }
            self.fastestShutterDenominator = denominator
        case "--mode":
            guard let mode = SimulatedExposureMode(letter: text) else {
                throw .invalidValue(option: option, value: text, expected: "M, A, S or P")
            }
            self.exposureMode = mode
        case "--image-size":
            self.imageSize = try integer(text, minimum: 1)
        case "--card-shots":
            self.cardShots = try integer(text, minimum: 0)
        case "--battery":
            self.batteryPercent = min(100, try integer(text, minimum: 0))
        case "--rtt":
            self.roundTripDelay = .milliseconds(try integer(text))
        case "--bandwidth":
            self.bandwidth = try integer(text, minimum: 1)
        case "--step-delay":
            self.stepDelay = .milliseconds(try integer(text))
        case "--processing-ms":
            self.processingTime = .milliseconds(try integer(text))
        case "--buffer":
            self.bufferCapacity = try integer(text, minimum: 1)
        case "--format":
            guard let format = SimulatedFileFormat(rawValue: text.lowercased()) else {
                throw .invalidValue(option: option, value: text, expected: "jpeg, raw+jpeg or raw")
            }
            self.fileFormat = format
        case "--save-to":
            guard let destination = SimulatedSaveDestination(rawValue: text.lowercased()) else {
                throw .invalidValue(option: option, value: text, expected: "host, camera or both")
            }
            self.saveDestination = destination
        case "--exposure-cap":
            guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                throw .invalidValue(option: option, value: text, expected: "seconds >= 0, e.g. 0.05")
            }
            self.exposureCap = .milliseconds(Int64((seconds * 1000).rounded()))
        case "--description-port", "--ssdp-port":
            guard let port = UInt16(text) else {
                throw .invalidValue(option: option, value: text, expected: "a port number 0-65535")
            }
            if option == "--ssdp-port" { self.ssdpPort = port } else { self.descriptionPort = port }
        case "--capture-log":
            self.captureLogPath = text
        case "--op-log":
            self.operationLogPath = text
        case "--replay-device-info":
            self.replayDeviceInfoPath = text
        case "--replay-ext-device-info":
            self.replayExtDeviceInfoPath = text
        case "--replay-props":
            self.replayPropertiesPath = text
        case "--fault":
            // Repeatable, and a comma-separated list also works: busy:0x9205:2,drop-at-op:9.
            for spec in text.split(separator: ",") {
                self.faults.append(try SimulatorFault.parse(String(spec)))
            }
        case "--quirk":
            // Like --fault: repeatable, and a comma-separated list works too: idle-drop:10,lenr.
            guard !text.isEmpty else {
                throw .invalidQuirk(spec: text, reason: "empty; name a quirk such as idle-drop:10")
            }
            for spec in text.split(separator: ",", omittingEmptySubsequences: false) {
                self.quirks.append(try SimulatorQuirk.parse(String(spec)))
            }
        case "--focus":
            guard let mode = Self.focusMode(named: text) else {
                throw .invalidValue(option: option, value: text, expected: "MF, AF-S, AF-C, AF-A or DMF")
            }
            self.focusMode = mode
        case "--scene":
            guard let scene = Scene.Name(rawValue: text.lowercased()) else {
                throw .invalidValue(
                    option: option, value: text,
                    expected: Scene.Name.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self.scene = scene
        default:
            throw .unknownOption(option)
        }
    }

    /// The focus mode a `--focus` name stands for (case-insensitive), nil when unknown.
    package static func focusMode(named name: String) -> SonyFocusMode? {
        switch name.uppercased() {
        case "MF": return .manual
        case "AF-S": return .singleAF
        case "AF-C": return .continuousAF
        case "AF-A": return .automaticAF
        case "DMF": return .directManual
        default: return nil
        }
    }
}

/// Everything that can go wrong with the simulator: its options, its files, its listening socket.
package enum SimulatorError: Error, Sendable, Equatable {
    /// An option the simulator does not know.
    case unknownOption(String)
    /// An option given without its value.
    case missingValue(option: String)
    /// An option whose value has the wrong shape.
    case invalidValue(option: String, value: String, expected: String)
    /// A `--fault` spec that cannot be parsed.
    case invalidFault(spec: String, reason: String)
    /// A `--quirk` spec that cannot be parsed.
    case invalidQuirk(spec: String, reason: String)
    /// A replay file that cannot be read or decoded.
    case unreadableReplay(path: String, reason: String)
    /// A log file that cannot be opened for appending.
    case unwritableLog(path: String, reason: String)
    /// The address cannot be listened on (in use, not an IP literal).
    case cannotListen(host: String, port: UInt16, reason: String)
    /// `host` is no address of this machine (EADDRNOTAVAIL at bind: nothing was sent anywhere).
    case addressNotLocal(host: String)

    /// Whether trying again unchanged may work: only a port in use can free up.
    package var isTransient: Bool {
        if case .cannotListen = self { return true }
        return false
    }

    /// Whether this is a mistake in the options (a usage error) rather than a runtime failure.
    package var isUsageError: Bool {
        switch self {
        case .unknownOption, .missingValue, .invalidValue, .invalidFault, .invalidQuirk, .addressNotLocal: return true
        case .unreadableReplay, .unwritableLog, .cannotListen: return false
        }
    }
}

extension SimulatorError: CustomStringConvertible {
    /// What went wrong in one line, naming the option, the file or the address (what `hdrshoot simulate` and
    /// `legacy-simulator` print after `error: `).
    package var description: String {
        switch self {
        case let .unknownOption(option): return "unknown option '\(option)'"
        case let .missingValue(option): return "\(option) needs a value"
        case let .invalidValue(option, value, expected):
            return "'\(value)' is not valid for \(option); expected \(expected)"
        case let .invalidFault(spec, reason): return "cannot use --fault '\(spec)': \(reason)"
        case let .invalidQuirk(spec, reason): return "cannot use --quirk '\(spec)': \(reason)"
        case let .unreadableReplay(path, reason): return "cannot replay \(path): \(reason)"
        case let .unwritableLog(path, reason): return "cannot write the log \(path): \(reason)"
        case let .addressNotLocal(host):
            return
                "cannot listen on \(host): that address is not on this machine; use 127.0.0.1 (this machine only) or one of its own addresses"
        case let .cannotListen(host, port, reason):
            return "cannot listen on \(host):\(port) (\(reason)); is another simulator running? try --port 0"
        }
    }
}
