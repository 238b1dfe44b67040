import Foundation
import PTPIP
import ShootKit
import SonyCamera
import Synchronization
import TestSupport
import Testing

@testable import HDRShootCLI

/// Connecting with retries as the CLI does it: the schedule in virtual time with the lines a photographer reads,
/// and `$HDRSHOOT_CONNECT_BACKOFF`, which makes the schedule longer for a slow body or short for a script.
@Suite("Connecting with retries: the schedule and HDRSHOOT_CONNECT_BACKOFF")
struct ConnectBackoffTests {
    /// The lines `CameraCheck.connect` said, in order.
    final class Said: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func theDefaultScheduleRetriesAfterTwoFiveAndTenSecondsSaysEachAndGivesUpWithExit69() async throws {
        // A port nobody listens on, bound but not listening, so no parallel test is handed it meanwhile.
        let closedPort = try LoopbackSocket()
        defer { closedPort.close() }
        let port = closedPort.port
        let config = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hdrshoot-backoff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        let configuration = try CameraCommand.cameraConfiguration(
            for: CameraAddress(host: "127.0.0.1", port: port), environment: ["XDG_CONFIG_HOME": config.path])
        let clock = TestClock()
        let camera = SonyCamera(configuration: configuration, clock: clock)
        let said = Said()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await #expect {
                    _ = try await CameraCheck.connect(camera, address: "127.0.0.1:\(port)") { step in
                        said.append(ConnectText.line(step))
                    }
                } throws: { error in
                    let report = ErrorReport(error)
                    return report.exitCode == .unavailable
                        && report.message.hasPrefix(
                            "could not connect to the camera at 127.0.0.1:\(port) after 4 attempts")
                }
            }
            for pause in [2, 5, 10] {
                await clock.waitForSleepers(1)
                #expect(clock.pendingDeadlines.map(\.offset) == [clock.now.offset + .seconds(pause)])
                clock.advance(by: .seconds(pause))
            }
            try await group.waitForAll()
        }
        #expect(clock.now.offset == .seconds(17))
        #expect(
            said.all == [
                "Connecting to 127.0.0.1:\(port)…",
                "no answer (connection refused); trying again in 2 s (attempt 2 of 4)",
                "no answer (connection refused); trying again in 5 s (attempt 3 of 4)",
                "no answer (connection refused); trying again in 10 s (attempt 4 of 4)"
            ])
    }

    @Test(arguments: [
        ("0.1s,0.2s,0.3s", [100, 200, 300]),
        ("5s, 10s, 20s, 30s", [5000, 10_000, 20_000, 30_000]),
        ("1", [1000]),
        ("500ms,2m", [500, 120_000])
    ])
    func theVariableIsTheListOfWaits(text: String, milliseconds: [Int64]) throws {
        let waits = try CameraCommand.connectBackoff(environment: [CameraCommand.connectBackoffVariable: text])
        #expect(waits == milliseconds.map { Duration.milliseconds($0) })
    }

    @Test func unsetOrEmptyKeepsTheDefault() throws {
        #expect(try CameraCommand.connectBackoff(environment: [:]) == nil)
        #expect(try CameraCommand.connectBackoff(environment: [CameraCommand.connectBackoffVariable: " "]) == nil)
    }

    @Test(arguments: ["2s,,5s", "soon", "-1s", "11m", "2s,"])
    func anythingElseIsAUsageErrorThatShowsTheForm(text: String) {
        #expect(throws: CameraCommandError.badConnectBackoff(text)) {
            try CameraCommand.connectBackoff(environment: [CameraCommand.connectBackoffVariable: text])
        }
        let report = ErrorReport(CameraCommandError.badConnectBackoff(text))
        #expect(report.exitCode == .usage)
        #expect(
            report.message == "HDRSHOOT_CONNECT_BACKOFF='\(text)' is not a list of waits between connection attempts; "
                + "write it like 2s,5s,10s (each at most 10m), or unset it")
    }
}
