import Foundation
import JSON
import SessionLog
import TestSupport
import Testing

/// The converter from the recorded Sony conversations in `../shared/fixtures/sony/` to session logs: the data
/// phases a real body sent become the `op` lines a session log would hold, so the simulator can replay them.
enum FixtureSessionLog {
    /// The recorded bodies and their files: GetDeviceInfo, SDIO_GetExtDeviceInfo, and the 0x9209 dump if any.
    static let bodies: [String: (deviceInfo: String, extDeviceInfo: String, properties: String?)] = [
        "rx100m7": (
            "sony/rx100m7_GetDeviceInfo_0x1001.payload.bin", "sony/rx100m7_SDIO_GetExtDeviceInfo_0x9202.payload.bin",
            "sony/rx100m7_SDIO_GetAllExtDevicePropInfo_0x9209.payload.bin"
        ),
        "ilce9": (
            "sony/ilce9_GetDeviceInfo_0x1001.payload.bin", "sony/ilce9_SDIO_GetExtDeviceInfo_0x9202.payload.bin", nil
        )
    ]

    /// Writes the session log of `body`'s recorded start-up to `path`.
    static func write(body: String, to path: String) throws {
        let files = try #require(bodies[body])
        var lines: [JSONValue] = [
            .object([
                ("t", .number(0)), ("kind", .string("session")), ("wallClock", .string("2026-01-01T00:00:00.000Z")),
                ("command", .string("camera")), ("arguments", .array([])),
                ("version", .string("converted from ../shared/fixtures/sony (\(body))"))
            ])
        ]
        var time = 0.01
        func operation(_ code: String, _ name: String, _ parameters: [Int], hex bytes: [UInt8]?) {
            var fields: [(String, JSONValue)] = [
                ("t", .number(time)), ("kind", .string("op")), ("code", .string(code)), ("name", .string(name)),
                ("params", .array(parameters.map { .int($0) })), ("response", .string("0x2001")),
                ("responseName", .string("OK")), ("data", .string(bytes == nil ? "none" : "in")),
                ("length", .int(bytes?.count ?? 0)), ("ms", .number(5))
            ]
            if let bytes { fields.append(("hex", .string(JSONValue.hex(bytes)))) }
            lines.append(.object(JSONObject(fields)))
            time += 0.01
        }
        operation("0x1002", "OpenSession", [1], hex: nil)
        operation("0x1001", "GetDeviceInfo", [], hex: try Fixtures.load(files.deviceInfo))
        operation("0x9202", "SDIO_GetExtDeviceInfo", [300], hex: try Fixtures.load(files.extDeviceInfo))
        if let properties = files.properties {
            operation("0x9209", "SDIO_GetAllExtDevicePropInfo", [0], hex: try Fixtures.load(properties))
        }
        var bytes: [UInt8] = []
        for line in lines {
            line.encode(into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

@Suite("Recorded bodies replayed from session logs", .realTime, .enabled(if: Fixtures.available, Fixtures.skipReason))
struct FixtureSessionLogTests {
    @Test(arguments: [("rx100m7", "DSC-RX100M7"), ("ilce9", "ILCE-9")])
    func theReplayPassesCameraAndAShortBracket(body: String, model: String) async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let log = sandbox.root.appendingPathComponent("\(body).jsonl").path
        try FixtureSessionLog.write(body: body, to: log)
        // The replayed body's time and hdrshoot's waits for it 100 times faster (its image processing, 0.4 s of the
        // bracket's real time); what is checked is what the body is and that the bracket completes.
        let environment = [
            "XDG_STATE_HOME": sandbox.root.appendingPathComponent("xdg-state").path, "HDRSHOOT_TIME_SCALE": "100"
        ]
        let replay = ["--camera", "simulator", "--replay-session", log]
        let report = try await sandbox.hdrshoot(["camera"] + replay + ["--json"], environment: environment)
        #expect(report.exitCode == 0, "\(report.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [String: Any])
        #expect(object["model"] as? String == model)
        #expect(object["canShoot"] as? Bool == true, "\(object["blockers"] ?? "")")

        let shot = try await sandbox.hdrshoot(
            ["run"] + replay + ["--shadow", "1/60", "--highlight", "1/1000", "--frames", "3", "--confirm"]
                + sandbox.shootArguments, environment: environment)
        #expect(shot.exitCode == 0, "\(shot.standardError)")
        let frames = try #require(try sandbox.manifest()["frames"] as? [[String: Any]])
        #expect(frames.count == 9) // 3 sets of 3 from 1/1000 to 1/60
        #expect(frames.allSatisfy { $0["state"] as? String == "done" })
    }
}
