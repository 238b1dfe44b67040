import PTPIPCodec
import SonyProtocol

/// What `hdrshoot camera` reports: who the body is, how it is set, and what would stop a shoot.
package struct SonyCameraInfo: Sendable, Equatable {
    /// The model (`DSC-RX100M7`).
    package var model: String
    /// The firmware version as the body reports it (`1.00`).
    package var firmware: String
    /// The serial number (may be empty).
    package var serialNumber: String
    /// Sony's remote protocol version (`3.00`, `2.00`).
    package var protocolVersion: String
    /// The mode dial's name (`M`, `S`, `A`, ...), nil when the body reports none.
    package var exposureMode: String?
    /// Whether hdrshoot can shoot now (no blockers).
    package var canShoot: Bool { blockers.isEmpty }
    /// Each thing that stops a shoot, as a sentence with what to do.
    package var blockers: [String]
    /// Where stills are saved (`host`, `camera`, `host and camera`, or the raw value).
    package var saveDestination: String?
    /// The shutter speed now.
    package var currentShutterSpeed: SonyShutterValue?
    /// Every shutter speed offered, longest first (BULB first when offered).
    package var availableShutterSpeeds: [SonyShutterValue]

    /// The focus mode (`MF`, `AF-S`, ...) and how a shoot handles it, nil when the body reports none.
    package var focus: String?

    /// Builds the report from what the body sent at start-up; `shutterValues` is the settable list when the
    /// body sends 0xD20D as a range (see `SonyCamera.rangedShutterValues`).
    package init(
        deviceInfo: DeviceInfo, extDeviceInfo: SonyExtDeviceInfo, properties: SonyPropertyTable,
        shutterValues: [SonyShutterValue]? = nil
    ) {
        model = deviceInfo.model
        firmware = deviceInfo.deviceVersion
        serialNumber = deviceInfo.serialNumber
        protocolVersion = Self.versionText(extDeviceInfo.protocolVersion)
        let mode = properties.exposureMode
        exposureMode = mode?.name
        saveDestination = properties.saveDestination.map(Self.destinationText)
        currentShutterSpeed = properties.shutterSpeed
        let settable = shutterValues ?? properties.settableShutterSpeeds.filter(\.isValid)
        focus = properties.focusMode.map { mode in
            guard mode.autofocuses else { return mode.name }
            let switchable =
                properties[.focusMode]?.isSettable == true || properties[.afWithShutter]?.isSettable == true
            return mode.name
                + (switchable
                    ? " (hdrshoot focuses once, then holds that focus for the whole bracket)"
                    : " (cannot be switched remotely: every frame focuses on its own; set MF for frames that align)")
        }
        let offered = settable.isEmpty ? properties.supportedShutterSpeeds.filter(\.isValid) : settable
        availableShutterSpeeds = SonyShutterStepping.notchOrder(offered)

        var blockers: [String] = []
        if let mode {
            if !mode.allowsShutterSpeedControl {
                blockers.append("the mode dial is on \(mode.name); turn it to M (manual) or S (shutter priority)")
            }
        } else {
            blockers.append("the camera reports no exposure mode")
        }
        if mode?.allowsShutterSpeedControl == true, settable.isEmpty {
            blockers.append("the camera does not let the shutter speed be set remotely now")
        }
        if properties.saveDestination == .camera {
            blockers.append(
                "images are saved to the memory card only; set the still image save destination to include the PC")
        }
        self.blockers = blockers
    }

    /// `3.00` for 300.
    static func versionText(_ version: SonyProtocolVersion) -> String {
        let minor = version.rawValue % 100
        return "\(version.rawValue / 100).\(minor < 10 ? "0" : "")\(minor)"
    }

    /// A person's name for a 0xD222 value.
    static func destinationText(_ destination: SonySaveDestination) -> String {
        switch destination {
        case .host: "host"
        case .camera: "camera"
        case .hostAndCamera: "host and camera"
        default: "0x" + String(destination.rawValue, radix: 16, uppercase: true)
        }
    }
}

extension SonyCamera {
    /// The report of the connected body (no round trip unless a change event arrived).
    package func info() async throws -> SonyCameraInfo {
        try await refreshIfChanged()
        guard let deviceInfo, let extDeviceInfo else { throw SonyCameraError.notConnected }
        return SonyCameraInfo(
            deviceInfo: deviceInfo, extDeviceInfo: extDeviceInfo, properties: properties,
            shutterValues: rangedShutterValues())
    }
}
