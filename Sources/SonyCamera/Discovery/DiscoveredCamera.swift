import PTPIP

/// What discovery found at one address: who answered, what its descriptions say, and whether hdrshoot
/// could shoot with it now.
package struct DiscoveredCamera: Sendable, Hashable {
    /// How the address was found.
    package enum Source: String, Sendable, Hashable {
        /// It answered an SSDP M-SEARCH.
        case ssdp
        /// Sony's access-point default (192.168.122.1), tried because this host is on 192.168.122.0/24.
        case accessPointDefault = "access-point-default"
    }

    /// The camera's IP address (where the SSDP answer came from).
    package var host: String
    /// The PTP/IP port the handshake used.
    package var ptpipPort: UInt16
    /// How the address was found.
    package var source: Source
    /// The SSDP search targets it answered (`urn:schemas-sony-com:service:DigitalImaging:1`, ...).
    package var services: [String]
    /// The UDN (`uuid:...`), from the description or the USN.
    package var udn: String?
    /// The name set in the camera (`friendlyName`).
    package var friendlyName: String?
    /// The model: Sony's `X_ModelName`, else GetDeviceInfo's model, else the description's `modelName`.
    package var model: String?
    /// The PTP/IP facts of DigitalImagingDesc.xml (pairing, SSH, versions).
    package var digitalImaging: DigitalImagingDescription
    /// Why the description could not be read, when it could not.
    package var descriptionProblem: String?
    /// The handshake's outcome.
    package var readiness: Readiness
    /// Where the `camera` service of Sony's older Camera Remote API answers (the description's
    /// `X_ScalarWebAPI_ActionList_URL`, on the answering address only), when the body offers it.
    package var remoteAPIURL: String?

    /// Whether a PTP/IP session could be opened and what it says about shooting.
    package enum Readiness: Sendable, Hashable {
        /// Not tried (yet).
        case untested
        /// Connected and Sony's start-up ran; `blockers` lists what stops a shoot (empty: ready).
        case connected(exposureMode: String?, protocolVersion: String, blockers: [String])
        /// The handshake failed; `reason` is one sentence.
        case unreachable(reason: String)
    }

    /// Whether a session opened and nothing blocks a shoot.
    package var isReady: Bool {
        if case let .connected(_, _, blockers) = readiness { return blockers.isEmpty }
        return false
    }

    /// `host:port` of the PTP/IP service (IPv6 in brackets).
    package var address: String { host.contains(":") ? "[\(host)]:\(ptpipPort)" : "\(host):\(ptpipPort)" }

    /// Every reason the camera is not ready, as sentences (empty when ready).
    package var problems: [String] {
        var reasons: [String] = []
        switch readiness {
        case .untested: reasons.append("not tried")
        case let .connected(_, _, blockers): reasons += blockers
        case let .unreachable(reason):
            reasons.append(reason)
            if digitalImaging.sshRequired == true {
                reasons.append(
                    "the camera requires an SSH connection (Access Authentication is on); turn Access Authentication off"
                )
            }
        }
        if digitalImaging.remoteControlSupported == false, !isReady {
            reasons.append("the camera's description says it offers no remote control over PTP/IP")
        }
        return reasons
    }

    /// A discovered address before its handshake.
    package init(host: String, ptpipPort: UInt16, source: Source, services: [String] = [], udn: String? = nil) {
        self.host = host
        self.ptpipPort = ptpipPort
        self.source = source
        self.services = services
        self.udn = udn
        digitalImaging = DigitalImagingDescription()
        readiness = .untested
    }
}
