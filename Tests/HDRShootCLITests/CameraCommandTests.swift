import CameraSimulator
import Foundation
import TestSupport
import Testing

/// `hdrshoot camera` as a built binary against an in-process simulated body on loopback.
@Suite("hdrshoot camera (built binary)", .realTime)
struct CameraCommandTests {
    /// Runs the binary with a private XDG_CONFIG_HOME (so nothing touches the real home).
    static func runCamera(
        _ arguments: [String], config: URL, environment extra: [String: String] = [:]
    ) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["XDG_CONFIG_HOME"] = config.path
        return try await ProcessRunner.run(
            try ProcessRunner.hdrshootBinary(), arguments: ["camera"] + arguments, environment: environment,
            timeout: .seconds(60))
    }

    static func simulator(_ adjust: (inout SimulatorConfiguration) -> Void = { _ in }) -> SimulatorConfiguration {
        var configuration = SimulatorConfiguration()
        configuration.port = 0
        adjust(&configuration)
        return configuration
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
    func reportsTheReplayedRX100M7AsRecordedInJSON() async throws {
        let config = try TemporaryFolder(prefix: "hdrshoot-camera").url
        defer { try? FileManager.default.removeItem(at: config) }
        let sony = Fixtures.root.appendingPathComponent("sony")
        let configuration = Self.simulator {
            $0.replayDeviceInfoPath = sony.appendingPathComponent("rx100m7_GetDeviceInfo_0x1001.payload.bin").path
            $0.replayExtDeviceInfoPath =
                sony.appendingPathComponent("rx100m7_SDIO_GetExtDeviceInfo_0x9202.payload.bin").path
            $0.replayPropertiesPath =
                sony.appendingPathComponent("rx100m7_SDIO_GetAllExtDevicePropInfo_0x9209.payload.bin").path
        }
        let result = try await CameraSimulator.withRunning(configuration: configuration) { simulator in
            try await Self.runCamera(["--camera", "127.0.0.1:\(simulator.port)", "--json"], config: config)
        }
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "protocol", "model", "firmware", "protocolVersion", "exposureMode", "canShoot", "blockers",
                "saveDestination",
                "focusMode", "currentShutterSpeed", "availableShutterSpeeds"
            ])
        #expect(object["model"] as? String == "DSC-RX100M7")
        // The recorded body is in AF-A (0x8005), which a shoot focuses once and then holds.
        #expect(
            (object["focusMode"] as? String)?.hasPrefix("AF-A (hdrshoot focuses once") == true,
            "\(object["focusMode"] ?? "")")
        #expect(object["firmware"] as? String == "1.00")
        #expect(object["protocolVersion"] as? String == "3.00")
        #expect(object["exposureMode"] as? String == "M")
        #expect(object["canShoot"] as? Bool == true)
        let current = try #require(object["currentShutterSpeed"] as? [String: Any])
        #expect(current["label"] as? String == "1/15")
        #expect(current["value"] as? Int == 0x0001_000F)
        let speeds = try #require(object["availableShutterSpeeds"] as? [[String: Any]])
        #expect(speeds.count == 62)
        #expect(speeds.first?["label"] as? String == "BULB")
        #expect(speeds.first?["seconds"] is NSNull)
        #expect(speeds[1]["label"] as? String == "30\"")
        #expect(speeds[1]["seconds"] as? Double == 30)
        #expect(speeds.last?["label"] as? String == "1/32000")
        #expect(Set(speeds[0].keys) == ["label", "seconds", "numerator", "denominator", "value"])
    }

    @Test func remembersTheCameraAndNamesWhatBlocksAShoot() async throws {
        let config = try TemporaryFolder(prefix: "hdrshoot-camera").url
        defer { try? FileManager.default.removeItem(at: config) }
        let (first, second) = try await CameraSimulator.withRunning(
            configuration: Self.simulator { $0.exposureMode = .aperturePriority }
        ) { simulator in
            let first = try await Self.runCamera(["--camera", "127.0.0.1:\(simulator.port)"], config: config)
            // No --camera: the address from the first run is used.
            let second = try await Self.runCamera([], config: config)
            return (first, second)
        }
        for result in [first, second] {
            #expect(result.exitCode == 0)
            #expect(result.standardOutput.contains("ILCE-7M3"))
            #expect(result.standardOutput.contains("exposure mode:     A (hdrshoot cannot shoot now)"))
            #expect(
                result.standardOutput.contains(
                    "blocked: the mode dial is on A; turn it to M (manual) or S (shutter priority)"))
        }
    }

    @Test func withoutACameraItSaysHowToGiveOne() async throws {
        let config = try TemporaryFolder(prefix: "hdrshoot-camera").url
        defer { try? FileManager.default.removeItem(at: config) }
        let result = try await Self.runCamera([], config: config)
        #expect(result.exitCode == 64)
        #expect(
            result.errorLines.first?.hasPrefix("error: no camera given and none remembered; pass --camera HOST[:PORT]")
                == true)
    }

    @Test func aBadAddressIsAUsageError() async throws {
        let config = try TemporaryFolder(prefix: "hdrshoot-camera").url
        defer { try? FileManager.default.removeItem(at: config) }
        let result = try await Self.runCamera(["--camera", "127.0.0.1:notaport"], config: config)
        #expect(result.exitCode == 64)
        #expect(result.errorLines.count == 2)
    }
}
