import CameraSimulator
import Testing

@Suite("Simulator options and fault specs")
struct SimulatorConfigurationTests {
    @Test func defaultsAreAnA7IIIOnLoopback() throws {
        let configuration = try SimulatorConfiguration.parse(arguments: [])
        #expect(configuration == SimulatorConfiguration())
        #expect(configuration.host == "127.0.0.1" && configuration.port == 15740)
        #expect(configuration.protocolVersion == 300 && configuration.imageSize == 200_000)
        #expect(configuration.exposureMode == .manual && configuration.faults.isEmpty)
        #expect(configuration.bufferCapacity == 20 && configuration.fileFormat == .jpeg)
        #expect(configuration.saveDestination == .host)
    }

    @Test func bufferFormatAndSaveDestinationAreParsed() throws {
        let configuration = try SimulatorConfiguration.parse(arguments: [
            "--buffer", "3", "--format", "RAW+JPEG", "--save-to=both"
        ])
        #expect(configuration.bufferCapacity == 3 && configuration.fileFormat == .rawAndJPEG)
        #expect(configuration.saveDestination == .both)
        #expect(try SimulatorConfiguration.parse(arguments: ["--format=raw"]).fileFormat == .raw)
        #expect(try SimulatorConfiguration.parse(arguments: ["--save-to", "camera"]).saveDestination == .camera)
    }

    @Test(arguments: [
        (
            ["--buffer", "0"],
            SimulatorError.invalidValue(option: "--buffer", value: "0", expected: "a whole number >= 1")
        ),
        (["--format", "gif"], .invalidValue(option: "--format", value: "gif", expected: "jpeg, raw+jpeg or raw")),
        (["--save-to", "cloud"], .invalidValue(option: "--save-to", value: "cloud", expected: "host, camera or both")),
        (["--buffer"], .missingValue(option: "--buffer"))
    ])
    func badBufferFormatOrSaveDestinationIsAUsageError(arguments: [String], error: SimulatorError) {
        #expect(throws: error) { try SimulatorConfiguration.parse(arguments: arguments) }
        #expect(error.isUsageError)
    }

    @Test func everyOptionIsParsed() throws {
        let configuration = try SimulatorConfiguration.parse(arguments: [
            "--host", "::1", "--port=0", "--protocol", "2", "--max-shutter", "1/4000", "--mode", "a",
            "--image-size", "1000", "--rtt", "30", "--bandwidth", "500000", "--step-delay", "50",
            "--exposure-cap", "0.25", "--processing-ms", "10", "--capture-log", "c.jsonl", "--op-log", "o.jsonl",
            "--replay-device-info", "d.bin", "--replay-ext-device-info", "e.bin", "--replay-props", "p.bin",
            "--fault", "busy:0x9205:2", "--fault", "drop-at-op:9,never-idle"
        ])
        #expect(configuration.host == "::1" && configuration.port == 0)
        #expect(configuration.protocolVersion == 200 && configuration.fastestShutterDenominator == 4000)
        #expect(configuration.exposureMode == .aperturePriority && configuration.imageSize == 1000)
        #expect(configuration.roundTripDelay == .milliseconds(30) && configuration.bandwidth == 500_000)
        #expect(configuration.stepDelay == .milliseconds(50) && configuration.exposureCap == .milliseconds(250))
        #expect(configuration.processingTime == .milliseconds(10))
        #expect(configuration.captureLogPath == "c.jsonl" && configuration.operationLogPath == "o.jsonl")
        #expect(configuration.replayDeviceInfoPath == "d.bin" && configuration.replayExtDeviceInfoPath == "e.bin")
        #expect(configuration.replayPropertiesPath == "p.bin")
        #expect(configuration.faults == [.busy(operation: 0x9205, count: 2), .dropAtOperation(9), .neverIdle])
    }

    @Test(arguments: [
        ("busy:0x9205:2", SimulatorFault.busy(operation: 0x9205, count: 2)),
        ("busy:9207:1", .busy(operation: 0x9207, count: 1)),
        ("busy-capture:3", .busyCapture(count: 3)),
        ("drop-at-frame:4", .dropAtFrame(4)),
        ("drop-at-op:12", .dropAtOperation(12)),
        ("hang-at-op:5", .hangAtOperation(5)),
        ("hang-at-speed-set:7", .hangAtSpeedSet(afterFrame: 7)),
        ("refuse-connections:2", .refuseConnections(2)),
        ("never-idle", .neverIdle),
        ("refuse-pairing", .refusePairing),
        ("mode-at-frame:3:A", .modeAtFrame(frame: 3, mode: .aperturePriority))
    ])
    func faultSpecsRoundTrip(spec: String, fault: SimulatorFault) throws {
        #expect(try SimulatorFault.parse(spec) == fault)
        #expect(try SimulatorFault.parse(fault.description) == fault)
    }

    @Test(arguments: [
        "busy:0x19205:1", "busy:0x9205", "busy:0x9205:0", "drop-at-op:x", "drop-at-op", "never-idle:1",
        "mode-at-frame:2:Q", "teleport:1", ""
    ])
    func badFaultSpecsAreUsageErrors(spec: String) {
        #expect(throws: SimulatorError.self) { try SimulatorFault.parse(spec) }
        do {
            _ = try SimulatorFault.parse(spec)
        } catch {
            #expect(error.isUsageError && !error.isTransient)
        }
    }

    @Test(arguments: [
        ["--port", "70000"], ["--protocol", "4"], ["--max-shutter", "1/2000"], ["--mode", "X"], ["--image-size", "0"],
        ["--exposure-cap", "-1"], ["--bogus"], ["--rtt"]
    ])
    func badOptionsAreRefused(arguments: [String]) {
        #expect(throws: SimulatorError.self) { try SimulatorConfiguration.parse(arguments: arguments) }
    }
}
