import CameraRemoteAPI
import Testing

/// Device descriptions: the camera service found by local name, malformed markup refused with a reason.
@Suite struct DeviceDescriptionTests {
    /// A description shaped like an ILCE-6000's (three services, the Sony namespace prefixed `av:`).
    static let body = """
        <?xml version="1.0"?>
        <root xmlns="urn:schemas-upnp-org:device-1-0">
          <device>
            <friendlyName>ILCE-6000</friendlyName>
            <modelName>SonyImagingDevice</modelName>
            <!-- a comment with <tags> inside -->
            <av:X_ScalarWebAPI_DeviceInfo xmlns:av="urn:schemas-sony-com:av">
              <av:X_ScalarWebAPI_Version>1.0</av:X_ScalarWebAPI_Version>
              <av:X_ScalarWebAPI_ServiceList>
                <av:X_ScalarWebAPI_Service>
                  <av:X_ScalarWebAPI_ServiceType>guide</av:X_ScalarWebAPI_ServiceType>
                  <av:X_ScalarWebAPI_ActionList_URL>http://192.168.122.1:8080/sony</av:X_ScalarWebAPI_ActionList_URL>
                  <av:X_ScalarWebAPI_AccessType/>
                </av:X_ScalarWebAPI_Service>
                <av:X_ScalarWebAPI_Service>
                  <av:X_ScalarWebAPI_ServiceType>camera</av:X_ScalarWebAPI_ServiceType>
                  <av:X_ScalarWebAPI_ActionList_URL>http://192.168.122.1:8080/sony</av:X_ScalarWebAPI_ActionList_URL>
                </av:X_ScalarWebAPI_Service>
              </av:X_ScalarWebAPI_ServiceList>
            </av:X_ScalarWebAPI_DeviceInfo>
          </device>
        </root>
        """

    @Test func findsTheCameraServicesEndpoint() throws {
        let description = try DeviceDescription(xml: Array(Self.body.utf8))
        #expect(description.friendlyName == "ILCE-6000")
        #expect(description.modelName == "SonyImagingDevice")
        #expect(description.apiVersion == "1.0")
        #expect(description.actionListURLs.keys.sorted() == ["camera", "guide"])
        #expect(try description.cameraEndpoint() == RemoteURL(host: "192.168.122.1", port: 8080, path: "/sony/camera"))
    }

    @Test func withoutACameraServiceThereIsNoEndpoint() throws {
        let body = Self.body.replacingOccurrences(of: ">camera<", with: ">avContent<")
        let description = try DeviceDescription(xml: Array(body.utf8))
        #expect(throws: CameraRemoteAPIError.self) { try description.cameraEndpoint() }
    }

    @Test(arguments: [
        "", "not xml", "<root>", "<root></other>", "<root><a></root>", "<root><!-- unterminated </root>",
        "<root>&bogus;</root>", "<root><device><friendlyName>x</friendlyName></device></root>",
        String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)
    ])
    func malformedOrIncompleteDescriptionsAreRefused(text: String) {
        #expect(throws: CameraRemoteAPIError.self) { try DeviceDescription(xml: Array(text.utf8)) }
    }

    @Test func aDescriptionOverTheLimitIsRefusedBeforeParsing() {
        let huge = [UInt8](repeating: 0x20, count: DeviceDescription.maximumBytes + 1)
        #expect(throws: CameraRemoteAPIError.tooLarge(what: "device description", limit: 65536, announced: 65537)) {
            try DeviceDescription(xml: huge)
        }
    }

    @Test(
        arguments: [
            ("http://192.168.122.1:8080/sony", "192.168.122.1", 8080, "/sony"),
            ("http://127.0.0.1/", "127.0.0.1", 80, "/"), ("http://[::1]:10000/dd.xml", "::1", 10000, "/dd.xml")
        ] as [(String, String, Int, String)])
    func urlsWithNumericHostsParse(text: String, host: String, port: Int, path: String) throws {
        #expect(try RemoteURL(text) == RemoteURL(host: host, port: UInt16(port), path: path))
    }

    @Test(arguments: [
        "https://192.168.122.1/", "http://camera.local/", "http://1.2.3/", "http://1.2.3.4:0/",
        "http://1.2.3.4:70000/", "http://[::1/", "ftp://1.2.3.4/", "http://1.2.3.4/a b"
    ])
    func otherUrlsAreRefused(text: String) {
        #expect(throws: CameraRemoteAPIError.self) { try RemoteURL(text) }
    }
}
