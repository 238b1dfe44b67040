import CameraSimulator
import CameraTunnel
import LegacyCamera
import PTPIP
import PTPIPCodec
import SonyCamera
import Synchronization
import TestSupport
import Testing

@testable import ShootKit

/// `CameraTarget` in the layer: a remembered or journaled address read back, and a camera reached with a front
/// end's `CameraReach` (here the test's: no terminal, no environment) against the simulated body on loopback.
@Suite(.realTime) struct CameraTargetTests {
    /// A front end that asks nobody: the camera settings a test uses, the simulator's own clock.
    struct QuietReach: CameraReach {
        var environment: [String: String] { [:] }
        var canAsk: Bool { false }
        /// How many PTP/IP configurations were made, and whether each was to announce pairing.
        let made = Made()

        func configuration(for address: CameraAddress, announcingPairing: Bool) throws -> SonyCameraConfiguration {
            made.note(announcingPairing)
            var configuration = SonyCameraConfiguration(
                host: address.host, port: address.port,
                identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests"))
            configuration.connectBackoff = []
            return configuration
        }
        func adjust(_ configuration: inout LegacySonyCameraConfiguration, resuming: Bool) throws {
            configuration.adoptsEarlierPictures = resuming
        }
        func simulatorClock() throws -> any Clock<Duration> { ContinuousClock() }
        func prepare(_ configuration: inout SimulatorConfiguration) throws -> @Sendable () -> Void { {} }
        func confirmFirstContact(_ key: SSHHostKey, host: String) async -> Bool { false }
        func askPassword(user: String, host: String) async throws -> String? { nil }
    }

    /// The PTP/IP configurations a reach made: whether each announces pairing.
    final class Made: Sendable {
        private let seen = Mutex<[Bool]>([])
        func note(_ announcing: Bool) { seen.withLock { $0.append(announcing) } }
        var all: [Bool] { seen.withLock { $0 } }
    }

    /// The notes heard, as the test words them.
    final class Notes: Sendable {
        private let seen = Mutex<[String]>([])
        func hear(_ note: ConnectionNote) {
            let text =
                switch note {
                case let .connection(connection, address, _, _):
                    "\(connection.route.rawValue) \(connection.reason.rawValue) \(address.description)"
                default: "other"
                }
            seen.withLock { $0.append(text) }
        }
        var all: [String] { seen.withLock { $0 } }
    }

    @Test func storedAddressesComeBackAsTheTargetsTheyWere() throws {
        #expect(CameraTarget(stored: "simulator") == .simulator)
        #expect(CameraTarget(stored: "simulator-api") == .apiSimulator)
        #expect(CameraTarget(stored: "http://192.168.122.1:8080") == .remoteAPI("http://192.168.122.1:8080"))
        let address = try #require(CameraAddress(parsing: "192.168.122.1:2222"))
        #expect(
            CameraTarget(stored: "ssh://photo@192.168.122.1:2222")
                == .ssh(address, SSHConnection.Settings(user: "photo", reason: .remembered)))
        #expect(CameraTarget(stored: "[::1]:15740") == .address(CameraAddress(host: "::1", port: 15740)))
        #expect(CameraTarget(stored: "not an address") == nil)
        #expect(
            SSHConnection.stored(address, SSHConnection.Settings(user: "photo")) == "ssh://photo@192.168.122.1:2222")
    }

    @Test func aGivenPortIsSaidAsPlainPTPIPAndTheBodyGetsTheAddress() async throws {
        var simulator = SimulatorConfiguration()
        simulator.port = 0
        let reach = QuietReach()
        let notes = Notes()
        let (shown, model) = try await CameraSimulator.withRunning(configuration: simulator) { running in
            let target = CameraTarget.address(CameraAddress(host: "127.0.0.1", port: running.port))
            return try await target.withCamera(reach: reach, explain: true, note: notes.hear) { camera, shown in
                let check = try await CameraCheck.connect(camera, address: shown)
                await camera.disconnect()
                return (shown, check.identity.model)
            }
        }
        #expect(shown.hasPrefix("127.0.0.1:"))
        #expect(!model.isEmpty)
        #expect(notes.all == ["plain portGiven \(shown)"])
        #expect(reach.made.all == [true])
    }

    @Test func theBuiltInSimulatorLivesForTheBodyAndIsJournaledAsSimulator() async throws {
        let reach = QuietReach()
        let notes = Notes()
        let (shown, model) = try await CameraTarget.simulator.withCamera(reach: reach, note: notes.hear) {
            camera, shown in
            let check = try await CameraCheck.connect(camera, address: shown)
            await camera.disconnect()
            return (shown, check.identity.model)
        }
        #expect(shown == "simulator")
        #expect(!model.isEmpty)
        #expect(notes.all.isEmpty)
        #expect(reach.made.all == [false])
    }
}
