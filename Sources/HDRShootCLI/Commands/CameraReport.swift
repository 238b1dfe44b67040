import Foundation
import LegacyCamera
import SonyCamera
import SonyProtocol

/// How `hdrshoot camera` prints a `SonyCameraInfo`: a short text block, or one JSON object.
enum CameraReport {
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

    /// The JSON form with the keys `model`, `firmware`, `protocolVersion`, `exposureMode`, `canShoot`,
    /// `blockers`, `saveDestination`, `focusMode`, `currentShutterSpeed`, `availableShutterSpeeds`.
    static func json(_ info: SonyCameraInfo) throws -> String {
        let object: [String: Any] = [
            "protocol": "PTP/IP",
            "model": info.model,
            "firmware": info.firmware,
            "protocolVersion": info.protocolVersion,
            "exposureMode": info.exposureMode ?? NSNull(),
            "canShoot": info.canShoot,
            "blockers": info.blockers,
            "saveDestination": info.saveDestination ?? NSNull(),
            "focusMode": info.focus ?? NSNull(),
            "currentShutterSpeed": info.currentShutterSpeed.map(speed) ?? NSNull(),
            "availableShutterSpeeds": info.availableShutterSpeeds.map(speed)
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
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
        let object: [String: Any] = [
            "protocol": "Camera Remote API",
            "model": info.model ?? NSNull(),
            "apiVersions": info.apiVersions,
            "application": [
                "name": info.applicationName.map { $0 as Any } ?? NSNull(),
                "version": info.applicationVersion.map { $0 as Any } ?? NSNull()
            ],
            "availableApiList": info.availableAPIs,
            "exposureMode": info.exposureMode,
            "currentShutterSpeed": info.currentShutterSpeed,
            "availableShutterSpeeds": info.shutterSpeeds,
            "isoSpeedRate": info.isoSpeedRate ?? NSNull(),
            "postviewImageSize": info.postviewSize ?? NSNull(),
            "canShoot": info.canShoot,
            "blockers": info.blockers,
            "bulbRequirement": info.bulbRequirement ?? NSNull()
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// `{label, seconds, numerator, denominator, value}` in the camera's own encoding; BULB has seconds null.
    static func speed(_ value: SonyShutterValue) -> [String: Any] {
        [
            "label": value.label,
            "seconds": value.seconds.map { $0 as Any } ?? NSNull(),
            "numerator": Int(value.numerator),
            "denominator": Int(value.denominator),
            "value": Int(value.rawValue)
        ]
    }
}
