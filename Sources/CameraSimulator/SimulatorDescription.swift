import Foundation

/// The UPnP descriptions a simulated body serves (`--description-port`): `dd.xml` and the DigitalImaging
/// service's `DigitalImagingDesc.xml`, shaped like the examples of Sony's "Camera Control PTP 3" reference
/// (pp. 38-40), with the connection tags the body's options decide: `X_PTP_PairingNecessity` from `--pairing`,
/// `X_SSH_Support` from `--ssh-support` (the body is then reached through an sshd the test puts in front of it).
package enum SimulatorDescription {
    /// The path of the device description (the SSDP answer's LOCATION).
    package static let devicePath = "/dd.xml"
    /// The path of the DigitalImaging service description (the device description's SCPDURL).
    package static let imagingPath = "/DigitalImagingDesc.xml"
    /// The UDN the simulated body announces (fixed, like its GUID).
    package static let udn = "uuid:534f4e59-2d53-494d-0000-374d33000001"
    /// The SSDP search target of Sony's PTP/IP service (reference p. 37).
    package static let digitalImaging = "urn:schemas-sony-com:service:DigitalImaging:1"

    /// `dd.xml`: the friendly name, the UDN and where the DigitalImaging service describes itself.
    package static func deviceXML() -> String {
        """
        <?xml version="1.0"?>
        <root xmlns="urn:schemas-upnp-org:device-1-0" xmlns:av="urn:schemas-sony-com:av">
          <specVersion><major>1</major><minor>0</minor></specVersion>
          <device>
            <deviceType>urn:schemas-upnp-org:device:Basic:1</deviceType>
            <friendlyName>\(SimulatorDatasets.modelName)</friendlyName>
            <manufacturer>Sony Corporation</manufacturer>
            <modelName>SonyImagingDevice</modelName>
            <UDN>\(udn)</UDN>
            <serviceList>
              <service>
                <serviceType>\(digitalImaging)</serviceType>
                <serviceId>urn:schemas-sony-com:serviceId:DigitalImaging</serviceId>
                <SCPDURL>\(imagingPath)</SCPDURL>
                <controlURL>/upnp/control/DigitalImaging</controlURL>
                <eventSubURL/>
              </service>
            </serviceList>
          </device>
        </root>
        """
    }

    /// `DigitalImagingDesc.xml`: the model, PTP 3.00, and whether the body needs pairing or SSH.
    package static func imagingXML(configuration: SimulatorConfiguration) -> String {
        let pairing = configuration.needsPairing ? "Necessary" : "Unnecessary"
        let ssh = configuration.sshSupport ? "Enable" : "Disable"
        return """
            <?xml version="1.0"?>
            <scpd xmlns="urn:schemas-upnp-org:service-1-0">
              <specVersion><major>1</major><minor>0</minor></specVersion>
              <X_DigitalImagingDeviceInfo>
                <X_DeviceInfo>
                  <X_ModelName>\(SimulatorDatasets.modelName)</X_ModelName>
                  <X_FirmwareVersion>3.01</X_FirmwareVersion>
                  <X_ServerType>Control with Smartphone</X_ServerType>
                  <X_ServerVersion>3.01</X_ServerVersion>
                </X_DeviceInfo>
                <X_PTP_Information>
                  <X_PTP_Versions>3.00</X_PTP_Versions>
                  <X_PTP_PairingNecessity>\(pairing)</X_PTP_PairingNecessity>
                  <X_PTP_MediaServerSupport>Enable</X_PTP_MediaServerSupport>
                  <X_PTP_RemoteControlSupport>Enable</X_PTP_RemoteControlSupport>
                </X_PTP_Information>
                <X_ConnectionInfo>
                  <X_SSH_Support>\(ssh)</X_SSH_Support>
                </X_ConnectionInfo>
              </X_DigitalImagingDeviceInfo>
            </scpd>
            """
    }

    /// The answer to an M-SEARCH for `target`, or nil when the body does not offer it (only DigitalImaging
    /// and `ssdp:all`).
    package static func searchAnswer(to search: String, location: String) -> [UInt8]? {
        guard search.hasPrefix("M-SEARCH * HTTP/1.1") else { return nil }
        let target = search.split(separator: "\r\n").first { $0.uppercased().hasPrefix("ST:") }
            .map { $0.dropFirst(3).trimmingCharacters(in: .whitespaces) }
        guard let target, target == digitalImaging || target == "ssdp:all" else { return nil }
        let answer =
            "HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\nLOCATION: \(location)\r\n"
            + "SERVER: UPnP/1.0 SonyImagingDevice/1.0\r\nST: \(digitalImaging)\r\n"
            + "USN: \(udn)::\(digitalImaging)\r\n\r\n"
        return Array(answer.utf8)
    }
}
