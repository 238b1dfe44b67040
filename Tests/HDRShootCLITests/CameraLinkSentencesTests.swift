import CameraRemoteAPI
import LegacyCamera
import PTPIP
import SonyCamera
import Testing

/// The link sentences both protocols' errors say come from one place (`CameraLinkSentences`), word for word.
@Suite struct CameraLinkSentencesTests {
    @Test func bothProtocolsSayAnUnreachableAddressAlike() {
        let ptpip = SonyCameraError.unreachable(address: "10.9.9.9:15740", underlying: .hostUnreachable(address: "A"))
        let legacy = LegacySonyCameraError.unreachable(
            address: "10.9.9.9:8080", underlying: .deviceDescription("no route"))
        #expect(
            ptpip.description
                == "\(PTPIPError.hostUnreachable(address: "A")); is this computer on the camera's Wi-Fi network, "
                + "and is 10.9.9.9:15740 the right address?")
        #expect(
            legacy.description
                == "\(CameraRemoteAPIError.deviceDescription("no route")); is this computer on the camera's Wi-Fi "
                + "network, and is 10.9.9.9:8080 the right address?")
    }

    @Test func bothProtocolsSayALostLinkAndNoConnectionAlike() {
        #expect(SonyCameraError.notConnected.description == "not connected to the camera")
        #expect(LegacySonyCameraError.notConnected.description == "not connected to the camera")
        let ptpip = SonyCameraError.connectionLost(during: "GetObject", underlying: .peerClosed(during: "GetObject"))
        #expect(
            ptpip.description
                == "lost the connection to the camera during GetObject (\(PTPIPError.peerClosed(during: "GetObject")))")
        let legacy = LegacySonyCameraError.connectionLost(during: "actTakePicture", underlying: .invalidURL("x"))
        #expect(
            legacy.description
                == "lost the connection to the camera during actTakePicture (\(CameraRemoteAPIError.invalidURL("x")))")
    }

    @Test func bothProtocolsCountAttemptsAlike() {
        let one = SonyCameraError.connectFailed(address: "h:1", attempts: 1, last: .connectionRefused(address: "h:1"))
        let three = LegacySonyCameraError.connectFailed(address: "h:2", attempts: 3, last: .invalidURL("h"))
        #expect(one.description.hasPrefix("could not connect to the camera at h:1 after 1 attempt (last: "))
        #expect(three.description.hasPrefix("could not reach the camera's Camera Remote API at h:2 after 3 attempts"))
    }
}
