import Testing

@testable import SonyCamera

/// SSDP messages and device descriptions, as bytes and text (no network).
@Suite("Discovery: SSDP messages and device descriptions")
struct DiscoveryParsingTests {
    @Test func buildsAnMSearchForSonysDigitalImagingService() {
        let text = String(
            decoding: SSDP.search(for: SSDP.digitalImaging, host: "127.0.0.1", port: 41900, maxWait: 2), as: UTF8.self)
        #expect(text.hasPrefix("M-SEARCH * HTTP/1.1\r\nHOST: 127.0.0.1:41900\r\n"))
        #expect(text.contains("MAN: \"ssdp:discover\"\r\n"))
        #expect(text.contains("ST: urn:schemas-sony-com:service:DigitalImaging:1\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"))
    }

    @Test func parsesACamerasAnswer() throws {
        // Shaped like an ILCE-7M3's answer (headers in the order and case Sony sends them).
        let answer =
            "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\n"
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
        "HTTP/1.1 200 OK\r\nLOCATION: file:///etc/passwd\r\nST: x\r\n\r\n"
    ])
    func ignoresWhatIsNotAnAnswer(datagram: String) {
        #expect(SSDPResponse(datagram: Array(datagram.utf8)) == nil)
    }

    @Test func readsNameUDNAndTheDigitalImagingServiceFromADeviceDescription() throws {
        let description = try #require(DeviceDescription(xml: sampleDeviceXML(friendlyName: "Tom &amp; Ann's A7 III")))
        #expect(description.friendlyName == "Tom & Ann's A7 III")
        #expect(description.modelName == "SonyImagingDevice")
        #expect(description.udn == sampleUDN)
        #expect(description.digitalImagingDescriptionPath == "/DigitalImagingDesc.xml")
        #expect(description.scalarWebAPIServices == ["camera"])
        #expect(description.digitalImaging == DigitalImagingDescription())
        #expect(DeviceDescription(xml: "<root><device><friendlyName>x</friendlyName></device></root>") == nil)
    }

    @Test func readsModelPairingAndSSHFromTheDigitalImagingDescription() {
        let imaging = DigitalImagingDescription(xml: sampleImagingXML(pairing: "Necessary", ssh: "Enable"))
        #expect(imaging.modelName == "ILCE-7M3")
        #expect(imaging.firmwareVersion == "4.01")
        #expect(imaging.ptpVersions == "3.00")
        #expect(imaging.pairingRequired == true)
        #expect(imaging.sshRequired == true)
        #expect(imaging.remoteControlSupported == true)
    }

    @Test(
        arguments: [
            ("Necessary", true), ("Unnecessary", false), ("Disable", false), ("Enable", true), ("maybe", nil)
        ] as [(String, Bool?)])
    func readsSonysFlagWords(word: String, expected: Bool?) {
        #expect(DigitalImagingDescription(xml: sampleImagingXML(pairing: word)).pairingRequired == expected)
        #expect(DigitalImagingDescription(xml: "<scpd/>").pairingRequired == nil)
    }

    @Test func parsesAndResolvesDescriptionURLs() throws {
        let url = try #require(HTTPURL("http://192.168.122.1:64321/dd.xml"))
        #expect(url.host == "192.168.122.1" && url.port == 64321 && url.path == "/dd.xml")
        #expect(
            url.resolving("/DigitalImagingDesc.xml")?.description == "http://192.168.122.1:64321/DigitalImagingDesc.xml"
        )
        #expect(
            url.resolving("DigitalImagingDesc.xml")?.description == "http://192.168.122.1:64321/DigitalImagingDesc.xml")
        #expect(HTTPURL("http://[::1]:8080")?.authority == "[::1]:8080")
        #expect(HTTPURL("http://[::1]:8080")?.path == "/")
        for bad in ["https://a/", "file:///etc/passwd", "http://:80/", "http://a:0/", "http://user@a/", "http://a/x y"]
        {
            #expect(HTTPURL(bad) == nil, "\(bad)")
        }
    }

    @Test func groupsAnswersByAddressAndKeepsTheDigitalImagingLocation() throws {
        let answers = [SSDP.scalarWebAPI, SSDP.digitalImaging, SSDP.digitalImaging].enumerated().map { index, target in
            CameraDiscovery.Answer(
                response: SSDPResponse(
                    datagram: LoopbackSSDPResponder.answer(
                        searchTarget: target, location: "http://127.0.0.1:1/\(index).xml"))!,
                sender: "127.0.0.1")
        }
        let candidates = CameraDiscovery.candidates(from: answers, ptpipPort: 15740)
        #expect(candidates.count == 1)
        #expect(candidates.first?.camera.services == [SSDP.scalarWebAPI, SSDP.digitalImaging])
        #expect(candidates.first?.camera.udn == sampleUDN)
        #expect(candidates.first?.location == "http://127.0.0.1:1/2.xml")
    }
}
