import CameraRemoteAPI
import CameraSimulator
import Foundation

extension LegacySimulatorConfiguration {
    /// The usage text of the options (for `legacy-simulator --help` and `hdrshoot simulate --api`).
    package static let usage = """
        --host ADDRESS            address to listen on (default 127.0.0.1)
        --port N                  TCP port, 0 picks a free one (default 8080)
        --mode M|S|A|P            exposure mode at start (default M); also Manual, Shutter, Aperture, Program Auto
        --iso AUTO|100|...        ISO setting (default AUTO; BULB is refused with Auto ISO)
        --image-size BYTES        size of each "Original" postview JPEG (default 200000)
        --exposure-cap SECONDS    hold every timed exposure at most this long
        --processing-ms MS        StillSaving after each exposure (default 100)
        --rtt MS                  added delay before each HTTP answer
        --capture-log FILE        append one JSON line per fired frame
        --ssdp-port N             answer SSDP M-SEARCHes for ScalarWebAPI on this UDP port (unicast, on --host)
        --quirk NAME[:ARG],...    no-rec-mode, set-delay:MS, set-fails:N, drop-at-shot:N,
                                  save-at-shot:N:MS (shot N saves for MS instead of --processing-ms)
        --fault drop-at-frame:N   the same as --quirk drop-at-shot:N
        --no-rec-mode             the same as --quirk no-rec-mode
        """

    /// Reads options like `--port 8080 --quirk set-fails:3` into a configuration (defaults: port 8080, the
    /// simulated A6000 of `init()`), for the `legacy-simulator` executable and the tests; `hdrshoot simulate
    /// --api` calls `set(_:to:)` for each option its `CommandSpec` read. Throws `SimulatorError` for an unknown
    /// option or a bad value.
    package static func parse(arguments: [String]) throws(SimulatorError) -> LegacySimulatorConfiguration {
        var configuration = LegacySimulatorConfiguration()
        configuration.port = 8080
        try SimulatorArguments.read(arguments, flags: ["no-rec-mode"]) { name, value throws(SimulatorError) in
            if let value {
                try configuration.set(name, to: value)
            } else {
                configuration.needsStartRecMode = false
            }
        }
        return configuration
    }

    /// Sets the option `name` (without its dashes) from its text; `quirk` and `fault` add to what is there.
    package mutating func set(_ name: String, to text: String) throws(SimulatorError) {
        let option = "--" + name
        switch option {
        case "--host":
            host = text
        case "--port":
            guard let port = UInt16(text) else {
                throw .invalidValue(option: option, value: text, expected: "a port number 0-65535")
            }
            self.port = port
        case "--mode":
            guard let mode = Self.exposureMode(text) else {
                throw .invalidValue(option: option, value: text, expected: "M, S, A or P")
            }
            exposureMode = mode
        case "--iso":
            guard let iso = Self.isoLabels.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
                throw .invalidValue(option: option, value: text, expected: Self.isoLabels.joined(separator: ", "))
            }
            isoSpeedRate = iso
        case "--image-size":
            imageSize = try Self.integer(option, text, minimum: 1)
        case "--exposure-cap":
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
                throw .invalidValue(option: option, value: text, expected: "seconds, e.g. 0.02")
            }
            exposureCap = .milliseconds(Int64((seconds * 1000).rounded()))
        case "--processing-ms":
            saveDuration = .milliseconds(try Self.integer(option, text))
        case "--rtt":
            roundTripDelay = .milliseconds(try Self.integer(option, text))
        case "--capture-log":
            captureLogPath = text
        case "--ssdp-port":
            guard let port = UInt16(text) else {
                throw .invalidValue(option: option, value: text, expected: "a port number 0-65535")
            }
            ssdpPort = port
        case "--quirk":
            for spec in text.split(separator: ",") { try self.apply(quirk: String(spec)) }
        case "--fault":
            for spec in text.split(separator: ",") {
                let parts = spec.split(separator: ":").map(String.init)
                guard parts.count == 2, parts[0] == "drop-at-frame", let shot = Int(parts[1]), shot > 0 else {
                    throw .invalidFault(
                        spec: String(spec), reason: "the Camera Remote API body knows drop-at-frame:N")
                }
                dropConnectionAtShot = shot
            }
        default:
            throw .unknownOption(option)
        }
    }

    /// Applies one `--quirk` spec.
    private mutating func apply(quirk spec: String) throws(SimulatorError) {
        let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
        func argument() throws(SimulatorError) -> Int {
            guard parts.count == 2, let value = Int(parts[1]), value >= 0 else {
                throw .invalidQuirk(spec: spec, reason: "needs a whole number, e.g. \(parts[0]):3")
            }
            return value
        }
        switch parts[0] {
        case "no-rec-mode": needsStartRecMode = false
        case "set-delay": settingDelay = .milliseconds(try argument())
        case "set-fails": setFailureEvery = max(1, try argument())
        case "drop-at-shot": dropConnectionAtShot = max(1, try argument())
        case "save-at-shot":
            let values = parts.count == 2 ? parts[1].split(separator: ":").compactMap { Int($0) } : []
            guard values.count == 2, values[0] >= 1, values[1] >= 0 else {
                throw .invalidQuirk(spec: spec, reason: "needs a shot and milliseconds, e.g. save-at-shot:8:3000")
            }
            saveAtShot = SaveAtShot(shot: values[0], duration: .milliseconds(values[1]))
        default:
            throw .invalidQuirk(
                spec: spec,
                reason: "the Camera Remote API body knows no-rec-mode, set-delay, set-fails, drop-at-shot, save-at-shot"
            )
        }
    }

    /// `M` or `Manual` as the API names the mode.
    private static func exposureMode(_ text: String) -> String? {
        switch text.lowercased() {
        case "m", "manual": "Manual"
        case "s", "shutter": "Shutter"
        case "a", "aperture": "Aperture"
        case "p", "program", "program auto": "Program Auto"
        default: nil
        }
    }

    private static func integer(_ option: String, _ text: String, minimum: Int = 0) throws(SimulatorError) -> Int {
        guard let number = Int(text), number >= minimum else {
            throw .invalidValue(option: option, value: text, expected: "a whole number >= \(minimum)")
        }
        return number
    }
}

/// One fired frame, as written to the legacy simulator's capture log (the same fields the PTP/IP simulator's
/// `CaptureRecord` has for what a test reads: `frame`, `time`, `label`, `seconds`, `exposureSeconds`).
package struct LegacyCaptureRecord: Sendable, Equatable, Codable {
    /// 1, 2, ... in firing order since the simulator started.
    package var frame: Int
    /// Seconds since the simulator started at which the shutter opened.
    package var time: Double
    /// The shutter label (`1/250`, `2.5"`, `BULB`).
    package var label: String
    /// The label's exposure in seconds; nil for BULB.
    package var seconds: Double?
    /// How long the exposure was held (after `exposureCap`; for BULB, from start to stop).
    package var exposureSeconds: Double

    /// A record of a frame that opened at `started` and was held `exposure`.
    package init(frame: Int, started: Duration, label: String, exposure: Duration) {
        self.frame = frame
        time = Self.seconds(started)
        self.label = label
        if case let .timed(speed)? = try? RemoteShutterSetting(label: label) {
            seconds = speed.seconds
        } else {
            seconds = nil
        }
        exposureSeconds = Self.seconds(exposure)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
