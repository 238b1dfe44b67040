import Testing
import UPnPDescription

/// The one description scanner, on the reference's own samples (Camera Control PTP 3, pp. 38-40) and on
/// what it must refuse or get past.
@Suite("DescriptionScanner: UPnP descriptions, strict and tolerant")
struct DescriptionScannerTests {
    /// DigitalImagingDesc.xml as the reference p. 39-40 prints it, with Access Authentication on.
    static let imaging = """
        <?xml version="1.0"?>
        <scpd xmlns="urn:schemas-upnp-org:service-1-0">
          <X_DigitalImagingDeviceInfo>
            <X_DeviceInfo><X_ModelName>ILCE-7M5</X_ModelName><X_FirmwareVersion>1.00</X_FirmwareVersion></X_DeviceInfo>
            <X_PTP_Information>
              <av:X_PTP_Versions>3.00</av:X_PTP_Versions>
              <X_PTP_PairingNecessity>Unnecessary</X_PTP_PairingNecessity>
              <X_PTP_MediaServerSupport>Enable</X_PTP_MediaServerSupport>
            </X_PTP_Information>
            <X_ConnectionInfo><X_SSH_Support>Enable</X_SSH_Support></X_ConnectionInfo>
          </X_DigitalImagingDeviceInfo>
        </scpd>
        """

    @Test func readsTheSSHAndPairingTagsByLocalName() throws {
        let elements = try DescriptionScanner.elements(in: Self.imaging)
        #expect(DescriptionScanner.first("X_SSH_Support", in: elements) == "Enable")
        #expect(DescriptionScanner.first("X_PTP_PairingNecessity", in: elements) == "Unnecessary")
        #expect(DescriptionScanner.first("X_PTP_Versions", in: elements) == "3.00")
        let ssh = try #require(elements.first { $0.name == "X_SSH_Support" })
        #expect(ssh.path == ["scpd", "X_DigitalImagingDeviceInfo", "X_ConnectionInfo"])
    }

    @Test func groupsTheChildrenOfEachService() throws {
        let xml = """
            <root><device><serviceList>
            <service><serviceType>a</serviceType><SCPDURL>/a.xml</SCPDURL></service>
            <service><serviceType>b</serviceType><SCPDURL>/b.xml</SCPDURL></service>
            </serviceList></device></root>
            """
        let services = DescriptionScanner.children(of: "service", in: try DescriptionScanner.elements(in: xml))
        #expect(services.map { DescriptionScanner.first("SCPDURL", in: $0) } == ["/a.xml", "/b.xml"])
    }

    @Test func decodesEntitiesAndCDATA() throws {
        let elements = try DescriptionScanner.elements(
            in: "<r><a>Tom &amp; Ann&apos;s</a><b><![CDATA[x<y]]></b></r>")
        #expect(DescriptionScanner.first("a", in: elements) == "Tom & Ann's")
        #expect(DescriptionScanner.first("b", in: elements) == "x<y")
    }

    @Test(arguments: [
        "<r><a></b></r>", "<r><a>", "no markup", "<r>&bogus;</r>", "<r><!-- open", "< X_ScalarWebAPI_DeviceInfo/>"
    ])
    func strictModeRefusesMalformedMarkup(xml: String) {
        #expect(throws: DescriptionScanError.self) { try DescriptionScanner.elements(in: xml, mode: .strict) }
    }

    @Test func tolerantModeReadsPastTheReferencesOwnOddElement() throws {
        // dd.xml as printed on p. 38: a space after '<', and an element left open.
        let xml = """
            <root><device><friendlyName>ILCE-1</friendlyName><UDN>uuid:0</UDN>
            < X_ScalarWebAPI_DeviceInfo av="urn:schemas-sony-com:av">
            <X_SSH_Support>Disable</X_SSH_Support>
            </ X_ScalarWebAPI_DeviceInfo></device>
            """
        let elements = try DescriptionScanner.elements(in: xml, mode: .tolerant)
        #expect(DescriptionScanner.first("friendlyName", in: elements) == "ILCE-1")
        #expect(DescriptionScanner.first("UDN", in: elements) == "uuid:0")
        #expect(DescriptionScanner.first("X_SSH_Support", in: elements) == "Disable")
    }

    @Test func refusesADocumentPastTheLimitInEitherMode() {
        let huge = "<r>" + String(repeating: "x", count: DescriptionScanner.maximumBytes) + "</r>"
        #expect(throws: DescriptionScanError.tooLarge(limit: DescriptionScanner.maximumBytes, size: huge.utf8.count)) {
            try DescriptionScanner.elements(in: huge, mode: .tolerant)
        }
    }

    @Test func refusesNestingPastTheLimit() {
        let deep = String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)
        #expect(throws: DescriptionScanError.self) { try DescriptionScanner.elements(in: deep, mode: .strict) }
    }
}
