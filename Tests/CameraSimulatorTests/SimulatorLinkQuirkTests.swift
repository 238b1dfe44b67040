import CameraSimulator
import PTPIP
import PTPIPCodec
import SonyProtocol
import TestSupport
import Testing

@Suite("Simulator quirks of the link and the session start, over loopback TCP in virtual time")
struct SimulatorLinkQuirkTests {
    @Test func idleDropClosesTheLinkTenSecondsAfterTheLastRequestAndAnyRequestRestartsTheCount() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.idleDrop(.seconds(10))] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            // A 0x9209 read 9.9 s after the last request keeps the link, twice in a row.
            for _ in 0..<2 {
                await clock.pass(.milliseconds(9900))
                #expect(try await client.propertyTable().shutterSpeed == Speeds.fast)
            }
            #expect(await simulator.isClientConnected)
            await clock.pass(.seconds(10))
            await #expect(throws: PTPIPError.self) { _ = try await client.propertyTable() }
            await client.disconnect()
            let again = try await PTPIPClient.session(with: simulator)
            #expect(try await again.propertyTable().shutterSpeed == Speeds.fast)
            await again.disconnect()
        }
    }

    @Test func anExposureUnderwayWhenTheIdleLinkDropsFinishesAndWaitsForTheNextSessionWithoutRefiring() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.idleDrop(.seconds(10))] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await client.setShutter(Speeds.fifteenSeconds)
            try await client.release()
            // Silent for 10 s in the middle of the 15 s exposure: the body closes the link.
            await clock.pass(.seconds(10))
            await #expect(throws: PTPIPError.self) { _ = try await client.propertyTable() }
            await client.disconnect()
            #expect(await simulator.framesFired == 1)

            let again = try await PTPIPClient.session(with: simulator)
            #expect(try await again.propertyTable().shootingFileInfo == .empty)
            await clock.pass(.seconds(6))
            #expect(try await again.propertyTable().shootingFileInfo == .waiting(1))
            let info = try ObjectInfo(
                decoding: try await again.execute(.getObjectInfo, parameters: [SonyObjectHandle.stillImage]).data)
            #expect(info.filename.hasPrefix("DSC00001_"))
            let captures = await simulator.captures
            #expect(captures.map(\.frame) == [1] && captures.first?.exposureSeconds == 15)
            #expect(await simulator.framesFired == 1)
            await again.disconnect()
        }
    }

    @Test func startupNoFireTakesReleasesInTheFirstSecondsOfEachSessionWithoutFiring() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.startupNoFire(.seconds(3))] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await client.release()
            await clock.pass(.milliseconds(2999))
            try await client.release()
            #expect(await simulator.framesFired == 0)
            await clock.pass(.milliseconds(1))
            try await client.release()
            #expect(await simulator.framesFired == 1)
            await clock.pass(.seconds(1))
            // A request lets the simulator see the new time (its own timer may not have ticked yet).
            #expect(try await client.propertyTable().shootingFileInfo == .waiting(1))
            #expect(await simulator.captures.map(\.frame) == [1])
            _ = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage])
            await client.disconnect()

            // A new session starts the window again.
            let again = try await PTPIPClient.session(with: simulator)
            try await again.release()
            #expect(await simulator.framesFired == 1)
            await again.disconnect()
        }
    }

    @Test func busyAtStartAnswersTheFirstConnectAndPropertyReadsOfEachSessionBusy() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.busyAtStart(2)] }) { simulator in
            for _ in 0..<2 {
                let client = try await connectClient(to: simulator)
                try await client.openSession(id: 1)
                #expect(
                    await responseCode { _ = try await client.execute(.sdioConnect, parameters: [1, 0, 0]) }
                        == .deviceBusy)
                #expect(
                    await responseCode { _ = try await client.execute(.sdioGetAllExtDevicePropInfo, parameters: [0]) }
                        == .deviceBusy)
                // Other operations are never refused, and the third SDIO_Connect / 0x9209 goes through.
                _ = try await client.execute(.sdioGetExtDeviceInfo, parameters: [300])
                try await client.startSonySessionAfterOpen()
                #expect(try await client.propertyTable().shutterSpeed == Speeds.fast)
                await client.disconnect()
            }
        }
    }

    @Test func noEventsSendsNothingOnTheEventConnectionWhileTheReadsShowEveryChange() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.noEvents] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await client.setShutter(Speeds.faster)
            try await client.release()
            await clock.pass(.seconds(1))
            let changes = try await client.execute(.sdioGetAllExtDevicePropInfo, parameters: [1]).data
            let changed = try SonyPropertyDump(decoding: changes, protocolVersion: .v3_00).descriptors.map(\.code)
            #expect(changed.contains(.shutterSpeed) && changed.contains(.shootingFileInfo))
            _ = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage])
            await client.disconnect()
            var received: [PTPEvent] = []
            do {
                for try await event in client.events { received.append(event) }
            } catch {}
            #expect(received.isEmpty)
        }
    }

    @Test func noEventsLeavesTheCameraWithNothingToSend() throws {
        var quiet = try CameraDriver {
            $0.quirks = [.noEvents]
            $0.processingTime = .zero
        }
        var chatty = try CameraDriver { $0.processingTime = .zero }
        quiet.connect()
        chatty.connect()
        _ = quiet.release()
        _ = chatty.release()
        quiet.wait(.seconds(1))
        chatty.wait(.seconds(1))
        #expect(quiet.camera.takeEvents().isEmpty)
        #expect(chatty.camera.takeEvents().map(\.code).contains(.sonyObjectAdded))
        #expect(quiet.camera.value(of: .shootingFileInfo) == .uint16(0x8001))
    }
}
