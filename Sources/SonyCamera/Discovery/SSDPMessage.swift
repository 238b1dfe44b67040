import Foundation

/// SSDP (UPnP Device Architecture 1.1 §1.3) messages for finding Sony cameras: the M-SEARCH we send and
/// the unicast answers cameras return.
package enum SSDP {
    /// Sony's PTP/IP remote service (`Ctrl w/ Smartphone` / PC remote).
    package static let digitalImaging = "urn:schemas-sony-com:service:DigitalImaging:1"
    /// Sony's older JSON-RPC remote service, offered by many bodies alongside.
    package static let scalarWebAPI = "urn:schemas-sony-com:service:ScalarWebAPI:1"
    /// The standard multicast group and port (never used by tests: they pass loopback targets).
    package static let multicastHost = "239.255.255.250"
    /// The SSDP port.
    package static let port: UInt16 = 1900

    /// The M-SEARCH request for `searchTarget`, asking for answers within `maxWait` seconds (MX).
    package static func search(
        for searchTarget: String, host: String = multicastHost, port: UInt16 = port, maxWait: Int = 2
    ) -> [UInt8] {
        let text =
            "M-SEARCH * HTTP/1.1\r\n"
            + "HOST: \(host):\(port)\r\n"
            + "MAN: \"ssdp:discover\"\r\n"
            + "MX: \(max(1, min(maxWait, 5)))\r\n"
            + "ST: \(searchTarget)\r\n"
            + "USER-AGENT: Linux/1 UPnP/1.1 hdrshoot/0.1\r\n\r\n"
        return Array(text.utf8)
    }
}

/// One answer to an M-SEARCH: where the device description is and what answered.
package struct SSDPResponse: Sendable, Hashable {
    /// The device description URL (LOCATION).
    package var location: String
    /// The search target the device answered for (ST).
    package var searchTarget: String
    /// The unique service name (USN), `uuid:...::urn:...`.
    package var uniqueServiceName: String

    /// Parses a datagram; nil unless it is an `HTTP/1.1 200` answer with LOCATION and ST.
    package init?(datagram: [UInt8]) {
        guard datagram.count <= 8192, let text = String(validating: datagram, as: UTF8.self) else { return nil }
        var lines = text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" }).map(
            String.init)
        guard let status = lines.first, status.uppercased().hasPrefix("HTTP/1.1 200") else { return nil }
        lines.removeFirst()
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).uppercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard let location = headers["LOCATION"], location.hasPrefix("http://"), let target = headers["ST"] else {
            return nil
        }
        self.location = location
        searchTarget = target
        uniqueServiceName = headers["USN"] ?? ""
    }
}
