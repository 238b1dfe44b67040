import UPnPDescription

/// The parts of a UPnP device description (the XML at an SSDP LOCATION, Sony's `dd.xml` /
/// `DmsRmtDesc.xml`) that hdrshoot shows, plus where the DigitalImaging service describes itself.
///
/// What Sony bodies put there (seen in published descriptions of ILCE-7RM2, ILCE-7M4, FX3 and in Sony's
/// "Camera Control PTP" reference, Device Discovery chapter): `friendlyName` (the name set in the camera),
/// `modelName` (often a generic `SonyImagingDevice`), `UDN`, a `serviceList` whose DigitalImaging entry
/// has `SCPDURL` `/DigitalImagingDesc.xml`, and on ScalarWebAPI bodies an `av:X_ScalarWebAPI_DeviceInfo`
/// block listing the JSON-RPC services. The PTP/IP facts (model, pairing, SSH) are in DigitalImagingDesc.xml,
/// see `DigitalImagingDescription`.
package struct DeviceDescription: Sendable, Hashable {
    /// `<friendlyName>`: the name the owner gave the camera (`ILCE-7M4`).
    package var friendlyName: String
    /// `<UDN>`: `uuid:...`, stable per body.
    package var udn: String
    /// `<modelName>` (Sony often writes `SonyImagingDevice` here; the real model is in DigitalImagingDesc.xml).
    package var modelName: String
    /// The `SCPDURL` of the DigitalImaging service as written (relative or absolute), when listed.
    package var digitalImagingDescriptionPath: String?
    /// The service types of `av:X_ScalarWebAPI_ServiceType` (`guide`, `camera`, `accessControl`).
    package var scalarWebAPIServices: [String]
    /// Pairing and SSH flags, for bodies that put the DigitalImaging fields into the device description itself.
    package var digitalImaging: DigitalImagingDescription
    /// The `X_ScalarWebAPI_ActionList_URL` of the `camera` service (`http://192.168.122.1:8080/sony`): where an
    /// older body's Camera Remote API answers (reference v2.10 p. 20), when listed.
    package var scalarWebAPICameraURL: String?

    /// Extracts the fields from the description's text; nil when it has no `<UDN>`.
    ///
    /// Read with the one description scanner in its tolerant mode: a missing or odd element must not stop
    /// discovery.
    package init?(xml: String) {
        let elements = (try? DescriptionScanner.elements(in: xml, mode: .tolerant)) ?? []
        guard let udn = DescriptionScanner.first("UDN", in: elements) else { return nil }
        self.udn = udn
        friendlyName = DescriptionScanner.first("friendlyName", in: elements) ?? ""
        modelName = DescriptionScanner.first("modelName", in: elements) ?? ""
        let text = { (name: String, block: [DescriptionScanner.Element]) in DescriptionScanner.first(name, in: block) }
        digitalImagingDescriptionPath = DescriptionScanner.children(of: "service", in: elements)
            .first { text("serviceType", $0) == SSDP.digitalImaging }
            .flatMap { text("SCPDURL", $0) }
        let webServices = DescriptionScanner.children(of: "X_ScalarWebAPI_Service", in: elements)
        scalarWebAPIServices = webServices.compactMap { text("X_ScalarWebAPI_ServiceType", $0) }
        scalarWebAPICameraURL = webServices.first { text("X_ScalarWebAPI_ServiceType", $0) == "camera" }
            .flatMap { text("X_ScalarWebAPI_ActionList_URL", $0) }
        digitalImaging = DigitalImagingDescription(elements: elements)
    }
}

/// The PTP/IP facts of Sony's DigitalImaging service description (`DigitalImagingDesc.xml`).
///
/// Element names as Sony's "Camera Control PTP" reference and real bodies (FX3, ILCE-7M4, ILCE-1, ZV-E10)
/// use them, each possibly namespace-prefixed (`av:`, `x:`):
/// - `X_DeviceInfo`: `X_ModelName`, `X_FirmwareVersion`, `X_SerialVersion`, `X_MacAddress`, `X_Category`;
/// - `X_ConnectionInfo`: `X_SSH_Support` = `Enable` when Access Authentication is on: PTP/IP is then only
///   reachable through SSH and a direct connection to port 15740 is refused;
/// - `X_PTP_Information`: `X_PTP_Versions` (`3.00`), `X_PTP_PairingNecessity` = `Necessary` when the body
///   asks the photographer to approve this host once (`Unnecessary` / `Disable` otherwise),
///   `X_PTP_RemoteControlSupport` (`Enable` / `Disable`).
/// A flag that is absent or has another value is nil (unknown), never guessed.
package struct DigitalImagingDescription: Sendable, Hashable {
    /// `X_ModelName` (`ILCE-7M4`).
    package var modelName: String?
    /// `X_FirmwareVersion` (`7.00`).
    package var firmwareVersion: String?
    /// `X_PTP_Versions` (`3.00`).
    package var ptpVersions: String?
    /// `X_PTP_PairingNecessity`: whether the body must approve this host once.
    package var pairingRequired: Bool?
    /// `X_SSH_Support`: whether PTP/IP is only reachable through SSH (Access Authentication on).
    package var sshRequired: Bool?
    /// `X_PTP_RemoteControlSupport`: whether the body offers remote shooting over PTP/IP.
    package var remoteControlSupported: Bool?
    /// `X_PTP_MediaServerSupport`: whether the body offers Contents Transfer Mode (reference p. 39).
    package var mediaServerSupported: Bool?

    /// Reads the fields from the description's text (missing fields stay nil).
    package init(xml: String) {
        self.init(elements: (try? DescriptionScanner.elements(in: xml, mode: .tolerant)) ?? [])
    }

    /// Reads the fields from a scanned description (the device description may carry them itself).
    init(elements: [DescriptionScanner.Element]) {
        let value = { (name: String) in DescriptionScanner.first(name, in: elements) }
        modelName = value("X_ModelName")
        firmwareVersion = value("X_FirmwareVersion")
        ptpVersions = value("X_PTP_Versions")
        pairingRequired = value("X_PTP_PairingNecessity").flatMap(Self.flag)
        sshRequired = value("X_SSH_Support").flatMap(Self.flag)
        remoteControlSupported = value("X_PTP_RemoteControlSupport").flatMap(Self.flag)
        mediaServerSupported = value("X_PTP_MediaServerSupport").flatMap(Self.flag)
    }

    /// An empty description (nothing known).
    package init() {}

    /// `Enable`/`Necessary` and the like are true, `Disable`/`Unnecessary` false, anything else unknown.
    static func flag(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "enable", "enabled", "necessary", "required", "true", "yes", "1": true
        case "disable", "disabled", "unnecessary", "notrequired", "false", "no", "0": false
        default: nil
        }
    }

    /// Fills in what this description leaves unknown from `other`.
    package func merged(with other: DigitalImagingDescription) -> DigitalImagingDescription {
        var result = self
        result.modelName = modelName ?? other.modelName
        result.firmwareVersion = firmwareVersion ?? other.firmwareVersion
        result.ptpVersions = ptpVersions ?? other.ptpVersions
        result.pairingRequired = pairingRequired ?? other.pairingRequired
        result.sshRequired = sshRequired ?? other.sshRequired
        result.remoteControlSupported = remoteControlSupported ?? other.remoteControlSupported
        result.mediaServerSupported = mediaServerSupported ?? other.mediaServerSupported
        return result
    }
}
