import CameraSimulator
import Foundation
import PTPIP
import PTPIPCodec
import SonyProtocol
import TestSupport
import Testing

@Suite("Simulator over loopback TCP, driven by the library's PTP/IP client", .realTime)
struct SimulatorLoopbackTests {
    @Test func sonySessionHandshakeAnswersEveryDataPhase() async throws {
        try await withSimulator { simulator in
            let client = try await connectClient(to: simulator)
            #expect(client.camera.friendlyName == "ILCE-7M3")
            let info = try DeviceInfo(decoding: try await client.execute(.getDeviceInfo).data)
            #expect(info.vendorExtensionID == 0x11 && info.manufacturer == "Sony Corporation")
            try await client.openSession(id: 1)
            for phase: UInt32 in [1, 2] {
                #expect(try await client.execute(.sdioConnect, parameters: [phase, 0, 0]).data.count == 8)
            }
            let ext = try SonyExtDeviceInfo(
                decoding: try await client.execute(.sdioGetExtDeviceInfo, parameters: [300]).data)
            #expect(ext.protocolVersion == .v3_00)
            #expect(try await client.execute(.sdioConnect, parameters: [3, 0, 0]).data.count == 8)
            let table = try await client.propertyTable()
            #expect(table.shutterSpeed == SonyShutterValue(numerator: 1, denominator: 125))
            // A change-only dump right after a full one is an empty (but present) data phase.
            let empty = try await client.execute(.sdioGetAllExtDevicePropInfo, parameters: [1])
            #expect(try SonyPropertyDump(decoding: empty.data, protocolVersion: .v3_00).descriptors.isEmpty)
            await client.disconnect()
        }
    }

    @Test func secondClientIsRefusedAndTheNextOneAfterALeaveIsAccepted() async throws {
        try await withSimulator { simulator in
            let first = try await connectClient(to: simulator)
            await #expect(throws: PTPIPError.initFailed(reason: .busy)) { _ = try await connectClient(to: simulator) }
            await first.disconnect()
            let second = try await connectClient(to: simulator)
            try await second.openSession(id: 1)
            await second.disconnect()
        }
    }

    @Test func releaseFiresAFrameAndTheImageIsDownloadedThenTheBufferEmpties() async throws {
        try await withSimulator({
            $0.imageSize = 300_000
            $0.bufferCapacity = 1
        }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            let speed = SonyShutterValue(numerator: 1, denominator: 1000)
            _ = try await client.execute(
                .sdioSetExtDevicePropValue, parameters: [0xD20D], sending: speed.ptpValue.encoded)
            try await client.release()
            let added = try await client.waitForEvent(.sonyObjectAdded)
            #expect(added.parameters == [SonyObjectHandle.stillImage])
            #expect(try await client.propertyTable().shootingFileInfo == .waiting(1))
            // A second release while the image fills the one-capture buffer is taken and fires nothing.
            try await client.release()
            #expect(await simulator.framesFired == 1)

            let info = try ObjectInfo(
                decoding: try await client.execute(.getObjectInfo, parameters: [SonyObjectHandle.stillImage]).data)
            #expect(info.filename == "DSC00001_1-1000s.JPG")
            #expect(info.objectCompressedSize == 300_000)
            let image = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage]).data
            #expect(image.count == 300_000)
            #expect(Array(image.prefix(2)) == [0xFF, 0xD8] && Array(image.suffix(2)) == [0xFF, 0xD9])
            #expect(try await client.propertyTable().shootingFileInfo == .empty)
            await client.disconnect()
            let captures = await simulator.captures
            #expect(captures.count == 1)
            #expect(captures.first?.label == "1/1000" && captures.first?.value == 0x0001_03E8)
        }
    }

    @Test func largeImagesStreamAndPartialReadsCoverTheWholeFile() async throws {
        let size = 6_000_000
        try await withSimulator({
            $0.imageSize = size
            $0.exposureCap = .milliseconds(1)
        }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            try await client.release()
            _ = try await client.waitForEvent(.sonyObjectAdded)
            var assembled: [UInt8] = []
            let chunk: UInt32 = 1_000_000
            while assembled.count < size {
                let result = try await client.execute(
                    .getPartialObject, parameters: [SonyObjectHandle.stillImage, UInt32(assembled.count), chunk])
                #expect(result.parameters == [UInt32(result.data.count)])
                assembled += result.data
            }
            #expect(assembled.count == size)
            #expect(Array(assembled.suffix(2)) == [0xFF, 0xD9])
            #expect(
                await responseCode {
                    _ = try await client.execute(.getObjectInfo, parameters: [SonyObjectHandle.stillImage])
                } == .invalidObjectHandle)
            await client.disconnect()
        }
    }

    @Test func protocol2StepReachesTheTargetAfterTheStepDelay() async throws {
        try await withSimulator({
            $0.protocolVersion = 200
            $0.stepDelay = .milliseconds(50)
        }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await client.execute(.sdioControlDevice, parameters: [0xD20D], sending: [0x02])
            let event = try await client.waitForEvent(.sonyDevicePropChanged)
            #expect(event.parameters == [0xD20D])
            #expect(clock.now - start >= .milliseconds(50))
            let result = try await client.execute(.sdioGetAllExtDevicePropInfo, parameters: [1])
            let changed = try SonyPropertyDump(decoding: result.data, protocolVersion: .v2_00).descriptors
            #expect(
                changed.first { $0.code == .shutterSpeed }?.currentValue
                    == SonyShutterValue(numerator: 1, denominator: 200).ptpValue)
            await client.disconnect()
        }
    }

    @Test func bulbIsHeldForAsLongAsS2() async throws {
        try await withSimulator { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            _ = try await client.execute(
                .sdioSetExtDevicePropValue, parameters: [0xD20D], sending: SonyShutterValue.bulb.ptpValue.encoded)
            try await client.button(.s1Button, .down)
            let pressed = ContinuousClock.now
            try await client.button(.s2Button, .down)
            try await Task.sleep(for: .milliseconds(150))
            try await client.button(.s2Button, .up)
            // The camera cannot have held longer than from before S2 went down until S2's release was answered
            // (a bound that holds however loaded the machine is, unlike a fixed ceiling).
            let held = ContinuousClock.now - pressed
            try await client.button(.s1Button, .up)
            _ = try await client.waitForEvent(.sonyObjectAdded)
            let capture = try #require(await simulator.captures.first)
            #expect(capture.label == "BULB" && capture.seconds == nil)
            let heldSeconds = Double(held.components.seconds) + Double(held.components.attoseconds) * 1e-18
            #expect(capture.exposureSeconds >= 0.15 && capture.exposureSeconds <= heldSeconds)
            await client.disconnect()
        }
    }

    @Test func logsHoldOneJSONLinePerFrameAndPerOperation() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sim-logs-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let captureLog = folder.appendingPathComponent("captures.jsonl").path
        let operationLog = folder.appendingPathComponent("operations.jsonl").path
        let answered = try await withSimulator({
            $0.captureLogPath = captureLog
            $0.operationLogPath = operationLog
            $0.exposureCap = .milliseconds(5)
        }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            _ = try await client.execute(
                .sdioSetExtDevicePropValue, parameters: [0xD20D],
                sending: SonyShutterValue(numerator: 300, denominator: 10).ptpValue.encoded)
            try await client.release()
            _ = try await client.waitForEvent(.sonyObjectAdded)
            await client.disconnect()
            return await simulator.answeredOperationCount
        }
        let captures = try String(contentsOfFile: captureLog, encoding: .utf8).split(separator: "\n")
        #expect(captures.count == 1)
        let record = try JSONDecoder().decode(CaptureRecord.self, from: Data(captures[0].utf8))
        #expect(record.frame == 1 && record.label == "30\"" && record.seconds == 30 && record.exposureSeconds == 0.005)
        let operations = try String(contentsOfFile: operationLog, encoding: .utf8).split(separator: "\n")
        #expect(operations.count == answered)
        let first = try JSONDecoder().decode(OperationRecord.self, from: Data(operations[0].utf8))
        #expect(first.code == "0x1002" && first.response == "0x2001" && first.index == 1)
    }
}

@Suite("Simulator PTP/IP handshakes on raw connections", .realTime)
struct SimulatorHandshakeTests {
    /// Sends one packet on a fresh connection and returns the first packet the simulator answers.
    static func exchange(_ packet: Packet, with simulator: CameraSimulator) async throws -> Packet? {
        let transport = try await TCPTransport.connect(host: "127.0.0.1", port: simulator.port, timeout: .seconds(2))
        defer { transport.close() }
        try await transport.send(packet.encoded(), timeout: .seconds(20))
        var framer = PacketFramer()
        return try await framer.nextPacket(from: transport, maximumCount: 4096, timeout: .seconds(20))
    }

    @Test func anEventConnectionForAnUnknownSessionGetsInitFail() async throws {
        try await withSimulator { simulator in
            let answer = try await Self.exchange(.initEventRequest(connectionNumber: 77), with: simulator)
            #expect(answer == .initFail(reason: .unspecified))
        }
    }

    @Test func aProbeIsAnswered() async throws {
        try await withSimulator { simulator in
            let answer = try await Self.exchange(.probeRequest, with: simulator)
            #expect(answer == .probeResponse)
        }
    }
}
