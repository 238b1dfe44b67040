import CameraRemoteAPI
import Shooting

/// What `hdrshoot camera` reports about a legacy body: who it is, which API it speaks, how it is set, and what
/// would stop a shoot.
package struct LegacyCameraInfo: Sendable, Equatable {
    /// The model, when the device description named it.
    package var model: String?
    /// `getVersions` (`1.0`, `1.1`, ...).
    package var apiVersions: [String]
    /// `getApplicationInfo`'s name and version (`Smart Remote Control` `2.1.4`), when answered.
    package var applicationName: String?
    /// The application's version: the API level the body speaks.
    package var applicationVersion: String?
    /// `getAvailableApiList`: what may be called now.
    package var availableAPIs: [String]
    /// The exposure mode as the API names it (`Manual`, `Shutter`, `Aperture`, ...).
    package var exposureMode: String
    /// The shutter label now.
    package var currentShutterSpeed: String
    /// The shutter labels offered now (empty outside M and S).
    package var shutterSpeeds: [String]
    /// The ISO setting, when the body reports it.
    package var isoSpeedRate: String?
    /// The postview size (`Original`: the full-size JPEG is what is downloaded).
    package var postviewSize: String?
    /// What stops any shoot now, as sentences with what to do.
    package var blockers: [String]
    /// What stops a shoot with BULB frames (Auto ISO), nil when nothing.
    package var bulbRequirement: String?

    /// Whether a shoot without BULB frames can start now.
    package var canShoot: Bool { blockers.isEmpty }
}

extension LegacySonyCamera {
    /// Reads everything `hdrshoot camera` shows (the session must be open).
    package func info() async throws -> LegacyCameraInfo {
        let mode: String
        let available: AvailableSetting
        do {
            mode = try await perform("getExposureMode") { client async throws(CameraRemoteAPIError) in
                try await client.getExposureMode()
            }
        } catch {
            throw Self.refusal(error, operation: "getExposureMode")
        }
        available = try await readAvailableShutterSpeeds()
        var iso: String?
        if availableAPIs.contains("getIsoSpeedRate") {
            iso = try? await perform("getIsoSpeedRate") { client async throws(CameraRemoteAPIError) in
                try await client.getIsoSpeedRate()
            }
        }
        settings.exposureMode = mode
        settings.isoSpeedRate = iso ?? settings.isoSpeedRate
        var blockers: [String] = []
        if !(mode == "Manual" || mode == "Shutter") {
            blockers.append("the mode dial is on \(mode); turn it to M (manual) or S (shutter priority)")
        } else if available.candidates.isEmpty {
            blockers.append("the camera offers no shutter speeds now; check its mode and settings")
        }
        if !Self.hasShootingMethods(availableAPIs) {
            blockers.append("the camera does not offer actTakePicture now; reopen 'Smart Remote Control' on it")
        }
        var bulb: String?
        if let iso = settings.isoSpeedRate, Self.isAutoISO(iso) {
            bulb = LegacySonyCameraError.bulbNeedsFixedISO(current: iso).description
        }
        return LegacyCameraInfo(
            model: modelName, apiVersions: apiVersions, applicationName: application?.name,
            applicationVersion: application?.version, availableAPIs: availableAPIs, exposureMode: mode,
            currentShutterSpeed: available.current, shutterSpeeds: available.candidates,
            isoSpeedRate: settings.isoSpeedRate,
            postviewSize: settings.postviewSize, blockers: blockers, bulbRequirement: bulb)
    }
}
