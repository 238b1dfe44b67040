import Foundation
import LegacyCamera
import ShootKit
import SonyCamera
import SonyProtocol

/// How `hdrshoot camera` prints a `SonyCameraInfo`: a short text block, or one JSON object.
enum CameraReport {
    /// What a body reported of itself, as text or one JSON object.
    static func render(_ reading: CameraReading, address: String, json: Bool) throws -> String {
        switch reading {
        case .ptpip(let info): json ? try Self.json(info) : text(info, address: address)
        case .remoteAPI(let info): json ? try Self.json(info) : text(info, address: address)
        }
    }

    /// The text form: one fact a line, then the shutter speeds, then what blocks a shoot.
    static func text(_ info: SonyCameraInfo, address: String) -> String {
        var lines = [
            "camera:            \(info.model) at \(address)",
            "firmware:          \(info.firmware)",
            "protocol:          PTP/IP, Sony \(info.protocolVersion)",
            "exposure mode:     \(info.exposureMode ?? "unknown")\(info.canShoot ? "" : " (hdrshoot cannot shoot now)")",
            "shutter speed:     \(info.currentShutterSpeed?.label ?? "unknown")",
            "save destination:  \(info.saveDestination ?? "unknown")",
            "focus:             \(info.focus ?? "unknown")",
            "shutter speeds:    \(info.availableShutterSpeeds.count): "
                + info.availableShutterSpeeds.map(\.label).joined(separator: " ")
        ]
        if info.canShoot {
            lines.append("ready to shoot")
        } else {
            lines += info.blockers.map { "blocked: \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON form with the keys `protocol`, `model`, `firmware`, `protocolVersion`, `exposureMode`,
    /// `canShoot`, `blockers`, `saveDestination`, `focusMode`, `currentShutterSpeed`, `availableShutterSpeeds`.
    static func json(_ info: SonyCameraInfo) throws -> String {
        ShootText.jsonLine(PTPIPReport(info))
    }

    /// `hdrshoot camera --json` of a PTP/IP body; a value not reported is `null`, its key always there.
    struct PTPIPReport: Encodable {
        var model: String
        var firmware: String
        var protocolVersion: String
        var exposureMode: String?
        var canShoot: Bool
        var blockers: [String]
        var saveDestination: String?
        var focusMode: String?
        var currentShutterSpeed: Speed?
        var availableShutterSpeeds: [Speed]

        init(_ info: SonyCameraInfo) {
            model = info.model
            firmware = info.firmware
            protocolVersion = info.protocolVersion
            exposureMode = info.exposureMode
            canShoot = info.canShoot
            blockers = info.blockers
            saveDestination = info.saveDestination
            focusMode = info.focus
            currentShutterSpeed = info.currentShutterSpeed.map(Speed.init)
            availableShutterSpeeds = info.availableShutterSpeeds.map(Speed.init)
        }

        enum CodingKeys: String, CodingKey {
            case `protocol`, model, firmware, protocolVersion, exposureMode, canShoot, blockers, saveDestination
            case focusMode, currentShutterSpeed, availableShutterSpeeds
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("PTP/IP", forKey: .protocol)
            try container.encode(model, forKey: .model)
            try container.encode(firmware, forKey: .firmware)
            try container.encode(protocolVersion, forKey: .protocolVersion)
            try container.encode(exposureMode, forKey: .exposureMode)
            try container.encode(canShoot, forKey: .canShoot)
            try container.encode(blockers, forKey: .blockers)
            try container.encode(saveDestination, forKey: .saveDestination)
            try container.encode(focusMode, forKey: .focusMode)
            try container.encode(currentShutterSpeed, forKey: .currentShutterSpeed)
            try container.encode(availableShutterSpeeds, forKey: .availableShutterSpeeds)
        }
    }

    /// The text form of a legacy body's report: the API and its version, the application, the settings, the
    /// shutter speeds, the methods it offers now, then what blocks a shoot.
    static func text(_ info: LegacyCameraInfo, address: String) -> String {
        let application = [info.applicationName, info.applicationVersion].compactMap { $0 }.joined(separator: " ")
        var lines = [
            "camera:            \(info.model ?? "Sony camera") at \(address)",
            "protocol:          Camera Remote API (JSON-RPC over HTTP), API \(info.apiVersions.joined(separator: ", "))",
            "application:       \(application.isEmpty ? "unknown" : application)",
            "exposure mode:     \(info.exposureMode)\(info.canShoot ? "" : " (hdrshoot cannot shoot now)")",
            "shutter speed:     \(info.currentShutterSpeed)",
            "ISO:               \(info.isoSpeedRate ?? "unknown")",
            "postview size:     \(info.postviewSize ?? "unknown")",
            "shutter speeds:    \(info.shutterSpeeds.count): " + info.shutterSpeeds.joined(separator: " "),
            "available API:     \(info.availableAPIs.count): " + info.availableAPIs.joined(separator: " ")
        ]
        if info.canShoot {
            lines.append("ready to shoot")
        } else {
            lines += info.blockers.map { "blocked: \($0)" }
        }
        if let bulb = info.bulbRequirement { lines.append("BULB frames: \(bulb)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON form of a legacy body's report: `protocol` (`Camera Remote API`), `model`, `apiVersions`,
    /// `application` (`name`, `version`), `availableApiList`, `exposureMode`, `currentShutterSpeed`,
    /// `availableShutterSpeeds` (labels), `isoSpeedRate`, `postviewImageSize`, `canShoot`, `blockers`,
    /// `bulbRequirement`.
    static func json(_ info: LegacyCameraInfo) throws -> String {
        ShootText.jsonLine(LegacyReport(info))
    }

    /// `hdrshoot camera --json` of a Camera Remote API body; a value not reported is `null`, its key always
    /// there.
    struct LegacyReport: Encodable {
        /// The application running on the body.
        struct Application: Encodable {
            var name: String?
            var version: String?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
                try container.encode(version, forKey: .version)
            }

            enum CodingKeys: String, CodingKey { case name, version }
        }

        var info: LegacyCameraInfo

        init(_ info: LegacyCameraInfo) { self.info = info }

        enum CodingKeys: String, CodingKey {
            case `protocol`, model, apiVersions, application, availableApiList, exposureMode, currentShutterSpeed
            case availableShutterSpeeds, isoSpeedRate, postviewImageSize, canShoot, blockers, bulbRequirement
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("Camera Remote API", forKey: .protocol)
            try container.encode(info.model, forKey: .model)
            try container.encode(info.apiVersions, forKey: .apiVersions)
            try container.encode(
                Application(name: info.applicationName, version: info.applicationVersion), forKey: .application)
            try container.encode(info.availableAPIs, forKey: .availableApiList)
            try container.encode(info.exposureMode, forKey: .exposureMode)
            try container.encode(info.currentShutterSpeed, forKey: .currentShutterSpeed)
            try container.encode(info.shutterSpeeds, forKey: .availableShutterSpeeds)
            try container.encode(info.isoSpeedRate, forKey: .isoSpeedRate)
            try container.encode(info.postviewSize, forKey: .postviewImageSize)
            try container.encode(info.canShoot, forKey: .canShoot)
            try container.encode(info.blockers, forKey: .blockers)
            try container.encode(info.bulbRequirement, forKey: .bulbRequirement)
        }
    }

    /// `{label, seconds, numerator, denominator, value}` in the camera's own encoding; BULB has seconds null.
    struct Speed: Encodable {
        var label: String
        var seconds: Double?
        var numerator: Int
        var denominator: Int
        var value: Int

        init(_ value: SonyShutterValue) {
            label = value.label
            seconds = value.seconds
            numerator = Int(value.numerator)
            denominator = Int(value.denominator)
            self.value = Int(value.rawValue)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(label, forKey: .label)
            try container.encode(seconds, forKey: .seconds)
            try container.encode(numerator, forKey: .numerator)
            try container.encode(denominator, forKey: .denominator)
            try container.encode(value, forKey: .value)
        }

        enum CodingKeys: String, CodingKey { case label, seconds, numerator, denominator, value }
    }
}
