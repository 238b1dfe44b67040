import SonyCamera
import Testing

/// SSDP messages and device descriptions, as bytes and text (no network).
@Suite("Discovery: SSDP messages and device descriptions")
struct DiscoveryParsingTests {
    @Test func buildsAnMSearchForSonysDigitalImagingService() {
        let text = String(decoding: SSDP.search(for: SSDP.digitalImaging, host: "127.0.0.1", port: 41900, maxWait: 2), as: UTF8.self)
        #expect(text.hasPrefix("M-SEARCH * HTTP/1.1\r\nHOST: 127.0.0.1:41900\r\n"))
        #expect(text.contains("MAN: \"ssdp:discover\"\r\n"))
        #expect(text.contains("ST: urn:schemas-sony-com:service:DigitalImaging:1\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"))
    }

    @Test func parsesACamerasAnswer() throws {
        // Shaped like an ILCE-7M3's answer (headers in the order and case Sony sends them).
        let answer = "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\n"
            + "LOCATION: http://192.168.122.1:64321/DmsRmtDesc.xml\r\nSERVER: UPnP/1.0 SonyImagingDevice/1.0\r\n"
            + "ST: urn:schemas-sony-com:service:DigitalImaging:1\r\n"
            + "USN: uuid:00000000-0005-0010-8000-10a5d0f1e2d3::urn:schemas-sony-com:service:DigitalImaging:1\r\n"
            + "X-AV-Physical-Unit-Info: pa=\"ILCE-7M3\";\r\n\r\n"
        let response = try #require(SSDPResponse(datagram: Array(answer.utf8)))
        #expect(response.location == "http://192.168.122.1:64321/DmsRmtDesc.xml")
        #expect(response.searchTarget == SSDP.digitalImaging)
        #expect(response.uniqueServiceName.hasPrefix("uuid:00000000-0005-0010-8000-10a5d0f1e2d3"))
    }

    @Test(arguments: [
        "M-SEARCH * HTTP/1.1\r\nST: x\r\n\r\n",
        "HTTP/1.1 404 Not Found\r\nLOCATION: http://a/\r\nST: x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nST: x\r\n\r\n",
        "HTTP/1.1 200 OK\r\nLOCATION: file:///etc/passwd\r\nST: x\r\n\r\n",
    ])
    func ignoresWhatIsNotAnAnswer(datagram: String) {
        #expect(SSDPResponse(datagram: Array(datagram.utf8)) == nil)
    }

    @Test func readsNameUDNModelAndRequirementsFromADescription() throws {
        let xml = """
            <?xml version="1.0"?>
            <root xmlns="urn:schemas-upnp-org:device-1-0" xmlns:av="urn:schemas-sony-com:av">
              <device>
                <deviceType>urn:schemas-upnp-org:device:MediaServer:1</deviceType>
                <friendlyName>Tom &amp; Ann's A7 III</friendlyName>
                <manufacturer>Sony Corporation</manufacturer>
                <modelName>ILCE-7M3</modelName>
                <UDN>uuid:00000000-0005-0010-8000-10a5d0f1e2d3</UDN>
                <av:X_DigitalImagingDeviceInfo>
                  <av:X_PairingRequired>true</av:X_PairingRequired>
                  <av:X_SSHRequired>false</av:X_SSHRequired>
                </av:X_DigitalImagingDeviceInfo>
              </device>
            </root>
            """
        let description = try #require(DeviceDescription(xml: xml))
        #expect(description.friendlyName == "Tom & Ann's A7 III")
        #expect(description.modelName == "ILCE-7M3")
        #expect(description.udn == "uuid:00000000-0005-0010-8000-10a5d0f1e2d3")
        #expect(description.pairingRequired)
        #expect(!description.sshRequired)
        #expect(DeviceDescription(xml: "<root><device><friendlyName>x</friendlyName></device></root>") == nil)
    }
}
