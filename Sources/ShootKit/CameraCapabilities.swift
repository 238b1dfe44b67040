/// What a connected camera can do for a shoot, in types: the one value connect returns beside the camera's
/// identity and speeds, so the front ends ask it rather than the camera's concrete type.
package struct CameraCapabilities: Sendable, Hashable, Codable {
    /// The remote protocol a body speaks.
    package enum RemoteProtocol: String, Sendable, Hashable, Codable {
        /// Sony's PTP/IP remote protocol ("Ctrl w/ Smartphone" / PC remote).
        case ptpip
        /// Sony's Camera Remote API (JSON-RPC over HTTP, older bodies' "Smart Remote Control").
        case cameraRemoteAPI

        /// Whether `hdrshoot meter` and `run --auto` can meter through it: the PTP/IP body reports its meter
        /// (0xD1D5) and sends small JPEG probes (0xD268); the Camera Remote API does neither.
        package var meters: Bool { self == .ptpip }
    }

    /// Where the body saves its stills (0xD222).
    package enum SaveDestination: String, Sendable, Hashable, Codable {
        /// To the computer only.
        case computer
        /// To its memory card only: nothing crosses the link.
        case camera
        /// To both.
        case computerAndCamera
    }

    /// The size of the image that crosses the link.
    package enum TransferSize: String, Sendable, Hashable, Codable {
        /// The file as the camera wrote it.
        case original
        /// A reduced JPEG (0xD268 small JPEG, or a legacy body's 2M postview).
        case reduced
    }

    /// The protocol.
    package var remoteProtocol: RemoteProtocol
    /// Its version as the body reports it (`3.00`), when it does.
    package var protocolVersion: String?
    /// Where stills are saved, when the body reports it.
    package var saveDestination: SaveDestination?
    /// The Long Exposure NR setting (0xD15B), when the body reports it.
    package var longExposureNR: Bool?
    /// Whether the focus can be held over the link (0x500A or 0xD1AD settable); nil when the body reports no
    /// focus setting at all.
    package var focusSettable: Bool?
    /// What size of image crosses the link, when the body reports it.
    package var transferSize: TransferSize?
    /// The most frames to fire ahead of the downloads, when the body holds fewer than the runner's default.
    package var bufferCapacity: Int?

    /// Capabilities of a body speaking `remoteProtocol`; the caller fills what the body reports.
    package init(
        remoteProtocol: RemoteProtocol, protocolVersion: String? = nil, saveDestination: SaveDestination? = nil,
        longExposureNR: Bool? = nil, focusSettable: Bool? = nil, transferSize: TransferSize? = nil,
        bufferCapacity: Int? = nil
    ) {
        self.remoteProtocol = remoteProtocol
        self.protocolVersion = protocolVersion
        self.saveDestination = saveDestination
        self.longExposureNR = longExposureNR
        self.focusSettable = focusSettable
        self.transferSize = transferSize
        self.bufferCapacity = bufferCapacity
    }

    /// Whether the body can be metered (`hdrshoot meter`, `run --auto`).
    package var metering: Bool { remoteProtocol.meters }
}
