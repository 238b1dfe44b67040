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
    /// A tag scan rather than a full XML parse: descriptions are small and flat, and a missing or odd
    /// element must not stop discovery.
    package init?(xml: String) {
        guard let udn = XMLScan.element("UDN", in: xml[...]) else { return nil }
        self.udn = udn
        friendlyName = XMLScan.element("friendlyName", in: xml[...]) ?? ""
        modelName = XMLScan.element("modelName", in: xml[...]) ?? ""
        digitalImagingDescriptionPath = XMLScan.blocks("service", in: xml[...])
            .first { XMLScan.element("serviceType", in: $0) == SSDP.digitalImaging }
            .flatMap { XMLScan.element("SCPDURL", in: $0) }
            .flatMap { $0.isEmpty ? nil : $0 }
        scalarWebAPIServices = XMLScan.blocks("X_ScalarWebAPI_Service", in: xml[...])
            .compactMap { XMLScan.element("X_ScalarWebAPI_ServiceType", in: $0) }
        scalarWebAPICameraURL = XMLScan.blocks("X_ScalarWebAPI_Service", in: xml[...])
            .first { XMLScan.element("X_ScalarWebAPI_ServiceType", in: $0) == "camera" }
            .flatMap { XMLScan.element("X_ScalarWebAPI_ActionList_URL", in: $0) }
            .flatMap { $0.isEmpty ? nil : $0 }
        digitalImaging = DigitalImagingDescription(xml: xml)
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

    /// Reads the fields from the description's text (missing fields stay nil).
    package init(xml: String) {
        let text = xml[...]
        modelName = XMLScan.element("X_ModelName", in: text).flatMap { $0.isEmpty ? nil : $0 }
        firmwareVersion = XMLScan.element("X_FirmwareVersion", in: text).flatMap { $0.isEmpty ? nil : $0 }
        ptpVersions = XMLScan.element("X_PTP_Versions", in: text).flatMap { $0.isEmpty ? nil : $0 }
        pairingRequired = XMLScan.element("X_PTP_PairingNecessity", in: text).flatMap(Self.flag)
        sshRequired = XMLScan.element("X_SSH_Support", in: text).flatMap(Self.flag)
        remoteControlSupported = XMLScan.element("X_PTP_RemoteControlSupport", in: text).flatMap(Self.flag)
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
        return result
    }
}

/// A tolerant scan of small, flat XML documents: elements by local name (any namespace prefix).
enum XMLScan {
    /// The text of the first `<name>` (or `<prefix:name attr="...">`) element, entity-decoded and trimmed.
    static func element(_ name: String, in xml: Substring) -> String? {
        var search = xml
        while let (local, closing, selfClosing, rest) = nextTag(in: search) {
            search = rest
            guard local == name, !closing, !selfClosing else { continue }
            guard let end = search.range(of: "<") else { return nil }
            return decode(String(search[..<end.lowerBound])).trimmingWhitespace()
        }
        return nil
    }

    /// The contents of every `<name>...</name>` element (by local name), not nested.
    static func blocks(_ name: String, in xml: Substring) -> [Substring] {
        var result: [Substring] = []
        var search = xml
        var start: Substring.Index?
        while let (local, closing, selfClosing, rest) = nextTag(in: search) {
            if local == name, !selfClosing {
                if !closing {
                    start = rest.startIndex
                } else if let begin = start {
                    let closeStart = xml[..<rest.startIndex].lastIndex(of: "<") ?? rest.startIndex
                    if begin <= closeStart { result.append(xml[begin..<closeStart]) }
                    start = nil
                }
            }
            search = rest
        }
        return result
    }

    /// The next tag's local name, whether it closes (`</x>`) or closes itself (`<x/>`), and what follows it.
    private static func nextTag(in text: Substring) -> (String, Bool, Bool, Substring)? {
        guard let open = text.firstIndex(of: "<") else { return nil }
        let afterOpen = text[text.index(after: open)...]
        guard let close = afterOpen.firstIndex(of: ">") else { return nil }
        var tag = afterOpen[..<close]
        let rest = afterOpen[afterOpen.index(after: close)...]
        let closing = tag.hasPrefix("/")
        if closing { tag = tag.dropFirst() }
        let selfClosing = tag.hasSuffix("/")
        if selfClosing { tag = tag.dropLast() }
        let qualified = tag.prefix { !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r") }
        let local = qualified.split(separator: ":").last.map(String.init) ?? ""
        return (local, closing, selfClosing, rest)
    }

    private static func decode(_ text: String) -> String {
        text.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
            .replacing("&apos;", with: "'").replacing("&amp;", with: "&")
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines.
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
