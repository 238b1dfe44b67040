/// The UPnP device description a legacy body serves at its SSDP LOCATION: the ScalarWebAPI device info
/// lists the `guide`, `accessControl` and `camera` services at `/sony` (as real bodies' descriptions do).
enum LegacyDeviceDescription {
    /// The XML for `model`, with every ActionList_URL on `authority` (`127.0.0.1:PORT`).
    static func xml(model: String, authority: String) -> String {
        let services = ["guide", "accessControl", "camera"].map { type in
            """
                    <av:X_ScalarWebAPI_Service>
                      <av:X_ScalarWebAPI_ServiceType>\(type)</av:X_ScalarWebAPI_ServiceType>
                      <av:X_ScalarWebAPI_ActionList_URL>http://\(authority)/sony</av:X_ScalarWebAPI_ActionList_URL>
                      <av:X_ScalarWebAPI_AccessType/>
                    </av:X_ScalarWebAPI_Service>
            """
        }
        return """
            <?xml version="1.0"?>
            <root xmlns="urn:schemas-upnp-org:device-1-0">
              <specVersion><major>1</major><minor>0</minor></specVersion>
              <device>
                <deviceType>urn:schemas-upnp-org:device:Basic:1</deviceType>
                <friendlyName>\(model)</friendlyName>
                <manufacturer>Sony Corporation</manufacturer>
                <modelName>SonyImagingDevice</modelName>
                <UDN>uuid:00000000-0000-0000-0000-000000000000</UDN>
                <av:X_ScalarWebAPI_DeviceInfo xmlns:av="urn:schemas-sony-com:av">
                  <av:X_ScalarWebAPI_Version>1.0</av:X_ScalarWebAPI_Version>
                  <av:X_ScalarWebAPI_ServiceList>
            \(services.joined(separator: "\n"))
                  </av:X_ScalarWebAPI_ServiceList>
                </av:X_ScalarWebAPI_DeviceInfo>
              </device>
            </root>

            """
    }
}
