import Foundation
import SonyCamera
import SonyProtocol

/// How `hdrshoot camera` prints a `SonyCameraInfo`: a short text block, or one JSON object.
enum CameraReport {
    /// The text form: one fact a line, then the shutter speeds, then what blocks a shoot.
    static func text(_ info: SonyCameraInfo, address: String) -> String {
        var lines = [
            "camera:            \(info.model) at \(address)",
            "firmware:          \(info.firmware)",
            "protocol:          Sony \(info.protocolVersion)",
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
