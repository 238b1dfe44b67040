import CameraSimulator
import Foundation
import TestSupport
import Testing

/// A bare `--camera ADDRESS` decides the way in from the body's own description (Camera Control PTP 3
/// reference pp. 37-40): a unicast SSDP search to the address, the descriptions at the answer's LOCATION (a
/// port other than 80 here, as on an ILCE-7M5), then plain PTP/IP, pairing or SSH, said in one line. Each body
/// is a simulator on its own loopback address (127.x.y.z), so PTP/IP on 15740 and SSDP on 1900 are its own.
@Suite("Connection from the description (built binary)", .realTime)
struct ConnectionChoiceBinaryTests {
    /// Runs `body` with a simulated body at a fresh loopback address that answers SSDP on 1900 and serves its
    /// descriptions on a free port; nothing is left running.
    static func withDescribedBody<T: Sendable>(
        _ adjust: (inout SimulatorConfiguration) -> Void = { _ in },
        _ body: (CameraSimulator, String) async throws -> T
    ) async throws -> T {
        let host = "127.\(Int.random(in: 100...250)).\(Int.random(in: 1...250)).\(Int.random(in: 2...250))"
        let configuration = SimulatorConfiguration.loopback {
            $0.host = host
            $0.port = 15740
            $0.ssdpPort = 1900
            $0.descriptionPort = 0
            adjust(&$0)
        }
        let service = try SimulatorDescriptionService(configuration: configuration)
        #expect(service.descriptionPort != 80)
        return try await CameraSimulator.withRunning(configuration: configuration) { simulator in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await service.run() }
                do {
                    let value = try await body(simulator, host)
                    group.cancelAll()
                    return value
                } catch {
                    group.cancelAll()
                    throw error
                }
            }
        }
    }

    static func camera(_ arguments: [String]) async throws -> ProcessResult {
        let config = try TemporaryFolder(prefix: "hdrshoot-connection").url
        defer { try? FileManager.default.removeItem(at: config) }
        return try await CameraCommandTests.runCamera(arguments, config: config)
    }

    @Test func aBodyThatAsksForNeitherGetsPlainPTPIPAndSaysWhy() async throws {
        let (result, host) = try await Self.withDescribedBody { _, host in
            (try await Self.camera(["--camera", host]), host)
        }
        #expect(result.exitCode == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "Connection: plain PTP/IP to \(host):15740 (the camera's description asks for neither SSH nor "
                + "pairing).", "\(result.standardOutput)")
        #expect(result.standardOutput.contains("ILCE-7M3"), "\(result.standardOutput)")
    }

    @Test func aBodyWhoseDescriptionSaysSSHNeedsAUserAndIsSentNothing() async throws {
        let (result, operations, host) = try await Self.withDescribedBody({ $0.sshSupport = true }) { simulator, host in
            let result = try await Self.camera(["--camera", host])
            return (result, await simulator.operationCount, host)
        }
        #expect(result.exitCode == 78, "\(result)")
        #expect(
            result.errorLines == [
                "error: the camera at \(host) says Access Authentication is on, so it is reached through SSH: pass "
                    + "--ssh-user NAME (the user set in the camera's menu), or turn Access Authentication off; "
                    + "nothing was sent"
            ], "\(result.standardError)")
        #expect(operations == 0)
    }

    @Test func noSSHForcesPlainPTPIPWhateverTheDescriptionSays() async throws {
        let (result, host) = try await Self.withDescribedBody({ $0.sshSupport = true }) { _, host in
            (try await Self.camera(["--camera", host, "--no-ssh"]), host)
        }
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.standardOutput.split(separator: "\n").first.map(String.init)
                == "Connection: plain PTP/IP to \(host):15740 (--no-ssh or ssh = no in the config file, "
                + "although the camera's description says Access Authentication is on).", "\(result.standardOutput)")
    }

    @Test func aBodyThatNeedsPairingIsSaidToBeBeforeItsScreenAppears() async throws {
        let (result, host) = try await Self.withDescribedBody({ $0.needsPairing = true }) { simulator, host in
            async let run = Self.camera(["--camera", host])
            let asked = try await eventually { await simulator.pairingRequests.count == 1 }
            #expect(asked)
            #expect(await simulator.answerPairing(allow: true) == 1)
            return (try await run, host)
        }
        #expect(result.exitCode == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "Connection: PTP/IP with pairing to \(host):15740 (the camera's description says it asks to allow "
                + "this computer once; press OK on the camera).", "\(result.standardOutput)")
        #expect(result.standardOutput.contains("ILCE-7M3"), "\(result.standardOutput)")
    }

    @Test func aGivenPortReadsNoDescriptionAndSaysSo() async throws {
        let (result, host) = try await Self.withDescribedBody({ $0.sshSupport = true }) { _, host in
            (try await Self.camera(["--camera", "\(host):15740"]), host)
        }
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.standardOutput.split(separator: "\n").first.map(String.init)
                == "Connection: plain PTP/IP to \(host):15740 (a port was given, so the camera's description was not "
                + "read).", "\(result.standardOutput)")
    }

    /// Runs `hdrshoot camera` with `config` as the config file (XDG_CONFIG_HOME of its own).
    static func camera(_ arguments: [String], configFile config: String) async throws -> ProcessResult {
        let folder = try TemporaryFolder(prefix: "hdrshoot-connection").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.appendingPathComponent("hdrshoot")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try config.write(to: directory.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        return try await CameraCommandTests.runCamera(arguments, config: folder)
    }

    @Test func aCameraSectionsSSHNoIsPlainPTPIP() async throws {
        let (result, host) = try await Self.withDescribedBody({ $0.sshSupport = true }) { _, host in
            (try await Self.camera(["--camera", host], configFile: "[camera \(host)]\nssh = no\n"), host)
        }
        #expect(result.exitCode == 0, "\(result)")
        #expect(
            result.standardOutput.split(separator: "\n").first.map(String.init)
                == "Connection: plain PTP/IP to \(host):15740 (--no-ssh or ssh = no in the config file, "
                + "although the camera's description says Access Authentication is on).", "\(result.standardOutput)")
    }

    @Test func aCameraSectionsSSHUserTakesABodyThatSaysSSHThroughSSH() async throws {
        // No sshd at the body's port 22: the SSH route is taken (said, then the key check fails on a refused
        // connection), and PTP/IP at 15740 is never tried.
        let (result, operations, host) = try await Self.withDescribedBody({ $0.sshSupport = true }) {
            simulator, host in
            let result = try await Self.camera(
                ["--camera", host], configFile: "[camera \(host)]\nssh-user = photo\n")
            return (result, await simulator.operationCount, host)
        }
        #expect(result.exitCode != 0, "\(result)")
        #expect(
            result.standardOutput.split(separator: "\n").first.map(String.init)
                == "Connection: PTP/IP through SSH to \(host):22 as 'photo' (the camera's description says Access "
                + "Authentication is on).", "\(result.standardOutput)")
        #expect(result.errorLines.count == 1, "\(result.standardError)")
        #expect(operations == 0)
    }

    @Test func sshKeysAtTheTopOfTheFileLeaveTheSimulatorAlone() async throws {
        let result = try await Self.camera(
            ["--camera", "simulator"], configFile: "ssh = yes\nssh-user = photo\nssh-fingerprint = SHA256:abc\n")
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.standardOutput.contains("ILCE-7M3"), "\(result.standardOutput)")
    }

    @Test func sshAndNoSSHTogetherAreAUsageError() async throws {
        let result = try await Self.camera(["--camera", "127.0.0.1", "--ssh", "--no-ssh", "--ssh-user", "photo"])
        #expect(result.exitCode == 64, "\(result)")
        #expect(result.errorLines.first == "error: --ssh and --no-ssh contradict each other", "\(result.standardError)")
    }

    @Test func theSimulatorAnnouncesItsDescriptionOnTheGivenPorts() async throws {
        let host = "127.\(Int.random(in: 100...250)).\(Int.random(in: 1...250)).\(Int.random(in: 2...250))"
        try await BackgroundProcess.with(
            try ProcessRunner.hdrshootBinary(),
            arguments: [
                "simulate", "--host", host, "--port", "0", "--ssdp-port", "1900", "--description-port", "0",
                "--ssh-support"
            ]
        ) { process in
            let line = try await process.waitForLine(timeout: .seconds(60)) { $0.hasPrefix("description at ") }
            #expect(line.hasPrefix("description at http://\(host):"), "\(line)")
            #expect(line.hasSuffix("/dd.xml, SSDP answers on UDP port 1900"), "\(line)")
            // The client's own discovery reads it as a body that needs SSH.
            let result = try await ProcessRunner.run(
                try ProcessRunner.hdrshootBinary(),
                arguments: [
                    "discover", "--ssdp-target", "\(host):1900", "--ptpip-port", "9", "--timeout", "3s",
                    "--expect-answers", "1", "--json"
                ], environment: ProcessInfo.processInfo.environment, timeout: .seconds(60))
            let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
            let camera = try #require((object?["cameras"] as? [[String: Any]])?.first, "\(result)")
            #expect(camera["sshRequired"] as? Bool == true)
            #expect(camera["connection"] as? String == "ssh")
            #expect(camera["contentsTransfer"] as? Bool == true)
        }
    }
}
