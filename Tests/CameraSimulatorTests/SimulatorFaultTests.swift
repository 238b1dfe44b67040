import CameraSimulator
import PTPIP
import PTPIPCodec
import SonyProtocol
import TestSupport
import Testing

@Suite("Simulator faults over loopback TCP", .realTime)
struct SimulatorFaultTests {
    @Test func busyAnswersTheNextNCallsOfThatOperation() async throws {
        try await withSimulator({ $0.faults = [.busy(operation: 0x9205, count: 2)] }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            let value = SonyShutterValue(numerator: 1, denominator: 500).ptpValue.encoded
            for _ in 0..<2 {
                #expect(
                    await responseCode {
                        _ = try await client.execute(.sdioSetExtDevicePropValue, parameters: [0xD20D], sending: value)
                    } == .deviceBusy)
            }
            _ = try await client.execute(.sdioSetExtDevicePropValue, parameters: [0xD20D], sending: value)
            #expect(try await client.propertyTable().shutterSpeed == SonyShutterValue(numerator: 1, denominator: 500))
            await client.disconnect()
        }
    }

    @Test func busyCaptureRefusesTheReleaseNTimes() async throws {
        try await withSimulator({
            $0.faults = [.busyCapture(count: 1)]
            $0.exposureCap = .milliseconds(1)
        }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            try await client.button(.s1Button, .down)
            #expect(await responseCode { try await client.button(.s2Button, .down) } == .deviceBusy)
            try await client.button(.s2Button, .down)
            try await client.button(.s2Button, .up)
            try await client.button(.s1Button, .up)
            _ = try await client.waitForEvent(.sonyObjectAdded)
            #expect(await simulator.captures.count == 1)
            await client.disconnect()
        }
    }

    @Test func dropAtOperationClosesBothConnectionsAndTheCameraAcceptsAReconnect() async throws {
        try await withSimulator({ $0.faults = [.dropAtOperation(3)] }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.openSession(id: 1)
            _ = try await client.execute(.sdioConnect, parameters: [1, 0, 0])
            await #expect(throws: PTPIPError.self) { _ = try await client.execute(.sdioConnect, parameters: [2, 0, 0]) }
            await client.disconnect()
            let again = try await connectClient(to: simulator)
            try await again.startSonySession()
            await again.disconnect()
            // 3 before the drop, then OpenSession, 4 Sony handshake operations and CloseSession.
            #expect(await simulator.operationCount == 3 + 6)
        }
    }

    @Test func hangAtOperationStopsAnsweringUntilTheClientLeaves() async throws {
        try await withSimulator({ $0.faults = [.hangAtOperation(2)] }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.openSession(id: 1)
            // Only the operation that hangs gets a short timeout: a loaded machine may delay the others.
            await #expect(throws: PTPIPError.self) {
                _ = try await client.execute(.sdioConnect, parameters: [1, 0, 0], timeout: .milliseconds(200))
            }
            await client.disconnect()
            let again = try await connectClient(to: simulator)
            try await again.startSonySession()
            await again.disconnect()
        }
    }

    @Test func hangAtSpeedSetStopsAnsweringAtTheFirstSpeedSetAfterTheFrameUntilTheClientLeaves() async throws {
        try await withSimulator({
            $0.faults = [.hangAtSpeedSet(afterFrame: 1)]
            $0.exposureCap = .milliseconds(1)
        }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            let value = { (denominator: UInt16) in
                SonyShutterValue(numerator: 1, denominator: denominator).ptpValue.encoded
            }
            // Before frame 1 fired, a speed set is answered.
            _ = try await client.execute(.sdioSetExtDevicePropValue, parameters: [0xD20D], sending: value(500))
            try await client.release()
            _ = try await client.waitForEvent(.sonyObjectAdded)
            // Another property is still answered after it; the first speed set is not (only it gets a short timeout).
            _ = try await client.execute(.getDeviceInfo)
            await #expect(throws: PTPIPError.self) {
                _ = try await client.execute(
                    .sdioSetExtDevicePropValue, parameters: [0xD20D], sending: value(250), timeout: .milliseconds(200))
            }
            await client.disconnect()
            // Once: the next connection's sets are answered, and the speed set that hung was never applied.
            let again = try await connectClient(to: simulator)
            try await again.startSonySession()
            #expect(try await again.propertyTable().shutterSpeed == SonyShutterValue(numerator: 1, denominator: 500))
            _ = try await again.execute(.sdioSetExtDevicePropValue, parameters: [0xD20D], sending: value(250))
            #expect(try await again.propertyTable().shutterSpeed == SonyShutterValue(numerator: 1, denominator: 250))
            await again.disconnect()
            #expect(await simulator.captures.count == 1)
        }
    }

    @Test func refuseConnectionsTurnsAwayTheFirstAttempts() async throws {
        try await withSimulator({ $0.faults = [.refuseConnections(2)] }) { simulator in
            for _ in 0..<2 {
                await #expect(throws: PTPIPError.initFailed(reason: .busy)) {
                    _ = try await connectClient(to: simulator)
                }
            }
            let client = try await connectClient(to: simulator)
            try await client.openSession(id: 1)
            await client.disconnect()
        }
    }

    @Test func dropAtFrameFiresTheFrameThenDropsAndTheImageWaitsForTheReconnect() async throws {
        try await withSimulator({
            $0.faults = [.dropAtFrame(1)]
            $0.exposureCap = .milliseconds(1)
        }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            try await client.button(.s1Button, .down)
            await #expect(throws: PTPIPError.self) { try await client.button(.s2Button, .down) }
            await client.disconnect()
            let again = try await connectClient(to: simulator)
            try await again.startSonySession()
            var waited = 0
            while try await again.propertyTable().shootingFileInfo != .waiting(1), waited < 100 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            let info = try ObjectInfo(
                decoding: try await again.execute(.getObjectInfo, parameters: [SonyObjectHandle.stillImage]).data)
            #expect(info.filename.hasPrefix("DSC00001_"))
            #expect(await simulator.captures.map(\.frame) == [1])
            await again.disconnect()
        }
    }

    @Test func neverIdleKeepsTheImageInTheBuffer() async throws {
        try await withSimulator({
            $0.faults = [.neverIdle]
            $0.exposureCap = .milliseconds(1)
            $0.imageSize = 10_000
        }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            try await client.release()
            _ = try await client.waitForEvent(.sonyObjectAdded)
            _ = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage])
            #expect(try await client.propertyTable().shootingFileInfo == .waiting(1))
            await client.disconnect()
        }
    }

    @Test func modeDialTurnsBeforeTheScriptedFrame() async throws {
        try await withSimulator({
            $0.faults = [.modeAtFrame(frame: 2, mode: .aperturePriority)]
            $0.exposureCap = .milliseconds(1)
            $0.imageSize = 10_000
        }) { simulator in
            let client = try await connectClient(to: simulator)
            try await client.startSonySession()
            try await client.release()
            _ = try await client.waitForEvent(.sonyObjectAdded)
            _ = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage])
            #expect(try await client.propertyTable().exposureMode == .manual)
            try await client.release()
            let table = try await client.propertyTable()
            #expect(table.exposureMode == .aperturePriority)
            #expect(table[.shutterSpeed]?.isSettable == false)
            let value = SonyShutterValue(numerator: 1, denominator: 500).ptpValue.encoded
            #expect(
                await responseCode {
                    _ = try await client.execute(.sdioSetExtDevicePropValue, parameters: [0xD20D], sending: value)
                } == .accessDenied)
            await client.disconnect()
        }
    }

    @Test func roundTripDelayAndBandwidthSlowTheAnswers() async throws {
        try await withSimulator({
            $0.roundTripDelay = .milliseconds(40)
            $0.bandwidth = 1_000_000
            $0.imageSize = 100_000
            $0.exposureCap = .milliseconds(1)
        }) { simulator in
            let client = try await connectClient(to: simulator)
            let clock = ContinuousClock()
            var start = clock.now
            try await client.openSession(id: 1)
            #expect(clock.now - start >= .milliseconds(40))
            try await client.startSonySessionAfterOpen()
            try await client.release()
            _ = try await client.waitForEvent(.sonyObjectAdded)
            start = clock.now
            let image = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage]).data
            #expect(image.count == 100_000)
            // 100 kB at 1 MB/s is about 0.1 s, plus the round trip.
            #expect(clock.now - start >= .milliseconds(130))
            await client.disconnect()
        }
    }

    /// The test hooks `setRoundTripDelay(_:)` and `setBandwidth(_:)`: a test that kept a shoot on a slow link while
    /// it looked makes the link fast again, and each change holds from the next request on.
    @Test func aLinkChangedWhileRunningHoldsFromTheNextRequest() async throws {
        // Ten minutes a request and a byte a second as configured: without the changes OpenSession and GetDeviceInfo
        // would fail at the client's 5 s.
        try await withSimulator({
            $0.roundTripDelay = .seconds(600)
            $0.bandwidth = 1
        }) { simulator in
            await simulator.setRoundTripDelay(.zero)
            await simulator.setBandwidth(nil)
            let client = try await connectClient(to: simulator)
            try await client.openSession(id: 1)
            _ = try await client.execute(.getDeviceInfo)
            await simulator.setRoundTripDelay(.milliseconds(40))
            await simulator.setBandwidth(10_000)
            let clock = ContinuousClock()
            let start = clock.now
            let info = try await client.execute(.getDeviceInfo).data
            #expect(!info.isEmpty)
            // 40 ms late, and its bytes at 10 kB/s (a tenth of a millisecond each).
            #expect(clock.now - start >= .milliseconds(40) + .microseconds(100 * info.count))
            await client.disconnect()
        }
    }
}

extension PTPIPClient {
    /// The Sony handshake after OpenSession.
    func startSonySessionAfterOpen() async throws {
        for phase: UInt32 in [1, 2] { _ = try await execute(.sdioConnect, parameters: [phase, 0, 0]) }
        _ = try await execute(.sdioGetExtDeviceInfo, parameters: [300])
        _ = try await execute(.sdioConnect, parameters: [3, 0, 0])
    }
}
