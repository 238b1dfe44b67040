import CameraSimulator
import Foundation
import PTPIPCodec
import TestSupport
import Testing

/// A session log read back as the body it recorded (`SessionReplay`, `--replay-session`): the data phases served
/// verbatim by the simulated body, the manners the log shows turned into quirks, busy answers and learned limits,
/// the folder of data phases taken away with the body. Logs are written here line by line, in the session log's
/// own format (SessionLogWriter's `op`, `event`, `note` and `learned` lines).
@Suite struct SessionReplayTests {
    /// An `op` line: `code` answered `response` after `ms`, at `t` seconds; `hex` its data phase.
    static func op(
        _ t: Double, _ code: String, params: [Int] = [], response: String = "0x2001", ms: Double = 10,
        hex: String? = nil
    ) -> String {
        let data = hex.map { #","length":\#($0.count / 2),"hex":"\#($0)""# } ?? #","length":0"#
        return
            #"{"t":\#(t),"kind":"op","code":"\#(code)","params":\#(params),"response":"\#(response)","ms":\#(ms)\#(data)}"#
    }

    /// Writes `lines` as a session log in `folder`; returns its path.
    static func log(_ lines: [String], in folder: TemporaryFolder) throws -> String {
        let path = folder.url.appendingPathComponent("session.jsonl").path
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A session of a body that sends no events: busy twice at start-up, 0x9205 busy three times later, the first
    /// release ignored (said in a note), and the limits a shoot learned.
    static let mannersLog = [
        #"{"t":0,"kind":"session","command":"run","arguments":[]}"#,
        op(0.10, "0x1002", params: [1], ms: 8),
        op(0.12, "0x1001", hex: "0102"), // GetDeviceInfo: its data phase, served verbatim
        op(0.20, "0x9201", params: [1, 0, 0], response: "0x2019"), // SDIO_Connect busy at start-up, twice
        op(0.40, "0x9201", params: [1, 0, 0], response: "0x2019"),
        op(0.60, "0x9201", params: [1, 0, 0], ms: 12),
        op(0.70, "0x9202", params: [300], hex: "0304"),
        op(0.80, "0x9209", params: [0], ms: 30, hex: "0506"), // the first full dump ends the start-up
        op(1.00, "0x9205", params: [0xD20D], response: "0x2019"), // busy later: a fault at 0x9205
        op(1.10, "0x9205", params: [0xD20D], response: "0x2019"),
        op(1.20, "0x9205", params: [0xD20D], response: "0x2019"),
        op(1.30, "0x9205", params: [0xD20D], ms: 14),
        op(2.60, "0x9207", params: [0xD2C2], ms: 9), // S2 down, 2.5 s after OpenSession
        #"{"t":2.7,"kind":"note","note":"the body ignored the first shutter release after connecting"}"#,
        #"{"t":3.0,"kind":"learned","limit":"bufferCapacity","captures":6}"#,
        #"{"t":3.1,"kind":"learned","limit":"bufferCapacity","captures":9}"#,
        #"{"t":3.2,"kind":"learned","limit":"shutterRange","slowest":"30\"","fastest":"1/4000"}"#,
        #"{"t":3.3,"kind":"learned","limit":"evidenceLatency","ms":250.2}"#,
        #"{"t":3.4,"kind":"learned","limit":"speedChangeIgnoredWhileImagesWait"}"#
    ]

    @Test func aLogsMannersBecomeTheBodysQuirksBusyAnswersAndLimits() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.log(Self.mannersLog, in: folder)
        let replay = try SessionReplay.load(path)
        #expect(replay.deviceInfo == [0x01, 0x02])
        #expect(replay.extDeviceInfo == [0x03, 0x04])
        #expect(replay.properties == [0x05, 0x06])
        // The median of the 7 operations answered OK: 8, 9, 10, 10, 12, 14 and 30 ms.
        #expect(replay.roundTrip == .milliseconds(10))
        #expect(replay.processing == nil, "no event timed a release")
        #expect(
            replay.quirks.map(\.quirk) == [
                .noEvents, .busyAtStart(2), .startupNoFire(.seconds(4)), .speedIgnoredWhileBuffered
            ])
        #expect(replay.faults.map(\.fault) == [.busy(operation: 0x9205, count: 3)])
        #expect(replay.bufferCapacity == 6)
        #expect(replay.fastestShutterDenominator == 4000)
        #expect(replay.evidenceLatency == .milliseconds(251))
        #expect(
            replay.summary
                == "replaying \(path): round trip 10 ms; learned limits from the log: a buffer of 6 captures, a fastest "
                + "speed of 1/4000, releases shown within 251 ms; quirks on from the log: no-events (the body sent no "
                + "event in 12 operations), busy-at-start:2 (SDIO_Connect/0x9209 answered DeviceBusy 2 times at "
                + "start-up), startup-nofire:4 (the body ignored the first shutter release after connecting), "
                + "speed-ignored-while-buffered (a shoot learned the body takes no speed change while images wait); "
                + "busy answers: busy:0x9205:3 (0x9205 answered DeviceBusy 3 times)\n")

        var configuration = SimulatorConfiguration()
        configuration.quirks = [.noEvents]
        configuration.roundTripDelay = .milliseconds(3)
        let letGo = try replay.apply(to: &configuration, keepRoundTrip: true)
        defer { letGo() }
        #expect(configuration.roundTripDelay == .milliseconds(3), "a round trip given is kept")
        #expect(configuration.processingTime == .milliseconds(251), "the evidence latency stands in for processing")
        #expect(configuration.bufferCapacity == 6)
        #expect(configuration.fastestShutterDenominator == 4000)
        #expect(
            configuration.quirks == [
                .noEvents, .busyAtStart(2), .startupNoFire(.seconds(4)), .speedIgnoredWhileBuffered
            ])
        #expect(configuration.faults.suffix(1) == [.busy(operation: 0x9205, count: 3)])
    }

    @Test func theShortestReleaseToObjectAddedIsTheBodysProcessingTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.log(
            [
                Self.op(0.1, "0x1001", hex: "0102"),
                Self.op(1.0, "0x9207", params: [0xD2C2]),
                #"{"t":1.5,"kind":"event","code":"0xC201"}"#, // SDIE_ObjectAdded 500 ms after S2
                Self.op(2.0, "0x9207", params: [0xD2C2]),
                #"{"t":2.25,"kind":"event","code":"0xC201"}"# // 250 ms: the shortest
            ], in: folder)
        let replay = try SessionReplay.load(path)
        #expect(replay.processing == .milliseconds(250))
        #expect(replay.quirks.isEmpty, "a body that sends events, shown in 3 operations")
        var configuration = SimulatorConfiguration()
        let letGo = try replay.apply(to: &configuration)
        defer { letGo() }
        #expect(configuration.processingTime == .milliseconds(250))
        #expect(configuration.roundTripDelay == .milliseconds(10))
    }

    @Test(.enabled(if: Fixtures.available, Fixtures.skipReason))
    func aRecordedBodysDataPhasesAreServedVerbatimAndTheirFolderGoesWithTheBody() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let deviceInfo = try Fixtures.load(ReplayTests.deviceInfo)
        let extDeviceInfo = try Fixtures.load(ReplayTests.extDeviceInfo)
        let properties = try Fixtures.load(ReplayTests.properties)
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        let path = try Self.log(
            [
                Self.op(0.10, "0x1002", params: [1]),
                Self.op(0.12, "0x1001", hex: hex(deviceInfo)),
                Self.op(0.20, "0x9202", params: [300], hex: hex(extDeviceInfo)),
                Self.op(0.30, "0x9209", params: [0], hex: hex(properties))
            ], in: folder)
        var configuration = SimulatorConfiguration()
        let letGo = try SessionReplay.load(path).apply(to: &configuration)
        let files = [
            configuration.replayDeviceInfoPath, configuration.replayExtDeviceInfoPath,
            configuration.replayPropertiesPath
        ].compactMap { $0 }
        #expect(files.count == 3)
        let replayed = configuration
        var driver = try CameraDriver { $0 = replayed }
        #expect(driver.send(.getDeviceInfo).data?.allBytes == deviceInfo)
        _ = driver.send(.openSession, [1])
        #expect(driver.send(.sdioGetExtDeviceInfo, [300]).data?.allBytes == extDeviceInfo)
        #expect(driver.send(.sdioGetAllExtDevicePropInfo, [0]).data?.allBytes == properties)
        letGo()
        #expect(files.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        let replayFolder = URL(fileURLWithPath: files[0]).deletingLastPathComponent().path
        #expect(replayFolder.split(separator: "/").last?.hasPrefix("hdrshoot-replay-") == true)
        #expect(!FileManager.default.fileExists(atPath: replayFolder))
    }

    @Test func aLogThatCannotBeReadOrHoldsNoSessionIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.url.appendingPathComponent("missing.jsonl").path
        #expect {
            _ = try SessionReplay.load(missing)
        } throws: { error in
            guard case let .unreadable(path, _) = error as? SessionReplayError else { return false }
            return path == missing
        }
        // A log of a command that never reached a camera: lines, but no GetDeviceInfo.
        let path = try Self.log(
            [#"{"t":0,"kind":"session","command":"plan","arguments":[]}"#, Self.op(0.1, "0x1002", params: [1])],
            in: folder)
        #expect(throws: SessionReplayError.noSession(path: path)) { _ = try SessionReplay.load(path) }
    }
}
