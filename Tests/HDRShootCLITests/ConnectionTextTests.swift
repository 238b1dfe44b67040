import ShootKit
import SonyCamera
import Testing

@testable import HDRShootCLI

/// The terminal's words for what the layer says while it reaches a camera (`ConnectionNote`, `ProtocolProbe.Found`).
@Suite struct ConnectionTextTests {
    @Test func whatABareHostAnsweredIsSaid() throws {
        let ptpip = ProtocolProbe.Found(target: .address(CameraAddress(host: "::1", port: 15740)), shownHost: "[::1]")
        #expect(ConnectionText.sentence(ptpip) == "Found Sony's PTP/IP remote protocol at [::1].")
        let api = ProtocolProbe.Found(target: .remoteAPI("http://10.0.0.2:8080"), shownHost: "10.0.0.2")
        #expect(
            ConnectionText.sentence(api)
                == "No PTP/IP at 10.0.0.2; found Sony's Camera Remote API at http://10.0.0.2:8080.")
        #expect(ConnectionText.sentence(.found(api)) == ConnectionText.sentence(api))
    }

    @Test func theTunnelsStepsAreSaidInTheirOwnLines() {
        let address = CameraAddress(host: "192.168.122.1", port: 22)
        #expect(
            ConnectionText.sentence(.checkingHostKey(address)) == "Checking the SSH host key of 192.168.122.1:22...")
        #expect(
            ConnectionText.sentence(.openingTunnel(address, user: "photo", fingerprint: "SHA256:abc"))
                == "Opening an SSH tunnel to 192.168.122.1:22 as 'photo' (key SHA256:abc)...")
        #expect(
            ConnectionText.sentence(.tunnelClosed(detail: "ssh was ended by signal 9"))
                == "The SSH tunnel to the camera closed (ssh was ended by signal 9); opening it again...")
        #expect(ConnectionText.sentence(.tunnelReopened) == "The SSH tunnel to the camera is open again.")
        #expect(
            ConnectionText.sentence(
                .connection(CameraConnection(route: .ssh, reason: .described), address: address, user: "photo"))
                == "Connection: PTP/IP through SSH to 192.168.122.1:22 as 'photo' (the camera's description says "
                + "Access Authentication is on).")
    }
}
