import CameraSimulator
import LegacyCameraSimulator
import ShootKit
import TestSupport
import Testing

/// A bare address is tried with PTP/IP first, then with the Camera Remote API, against real servers on loopback.
@Suite struct ProtocolProbeTests {
    @Test func aPTPIPBodyIsFoundFirst() async throws {
        var configuration = SimulatorConfiguration()
        configuration.port = 0
        let found = try await CameraSimulator.withRunning(configuration: configuration) { simulator in
            await ProtocolProbe.find(host: "127.0.0.1", ptpipPort: simulator.port, remoteAPIPorts: [])
        }
        let result = try #require(found)
        guard case let .address(address) = result.target else {
            Issue.record("expected PTP/IP, found \(result.target)")
            return
        }
        #expect(address.host == "127.0.0.1")
        #expect(result.shownHost == "127.0.0.1")
    }

    @Test func withoutPTPIPTheCameraRemoteAPIIsFound() async throws {
        let peer = try LoopbackSocket.closedTCPPort()
        let found = try await LegacyCameraSimulator.withRunning(configuration: LegacySimulatorConfiguration()) {
            simulator in
            await ProtocolProbe.find(
                host: "127.0.0.1", ptpipPort: peer, remoteAPIPorts: [simulator.port], timeout: TimingBounds.notAHang)
        }
        let result = try #require(found)
        guard case let .remoteAPI(url) = result.target else {
            Issue.record("expected the Camera Remote API, found \(result.target)")
            return
        }
        #expect(url.hasPrefix("http://127.0.0.1:"))
        #expect(result.shownHost == "127.0.0.1")
    }

    @Test func nothingAnsweringLeavesItToPTPIPsOwnRetries() async throws {
        let port = try LoopbackSocket.closedTCPPort()
        #expect(await ProtocolProbe.find(host: "127.0.0.1", ptpipPort: port, remoteAPIPorts: [port]) == nil)
    }
}
