import CameraSimulator
import PTPIP
import SonyProtocol
import TestSupport
import Testing

@Suite("Simulator quirks of the shutter speed property, over loopback TCP in virtual time")
struct SimulatorShutterQuirkTests {
    @Test func shutterRangeDescribes0xD20DAsARangeAndSettingStillWorks() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.shutterRange(listInD229: false)] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            let table = try await client.propertyTable()
            #expect(
                table[.shutterSpeed]?.form
                    == .range(minimum: .uint32(0), maximum: .uint32(0xFFFF_FFFF), step: .uint32(1)))
            #expect(table[QuirkCodes.shutterList] == nil)
            try await client.setShutter(Speeds.faster)
            #expect(try await client.propertyTable().shutterSpeed == Speeds.faster)
            await client.disconnect()
        }
    }

    @Test func shutterRangeWithD229ListsTheSpeedsThereAndFollowsTheShutter() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.shutterRange(listInD229: true)] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            let table = try await client.propertyTable()
            let list = try #require(table[QuirkCodes.shutterList])
            #expect(list.dataType == .uint32 && !list.isSettable)
            let plain = try CameraDriver().camera.properties.first { $0.code == .shutterSpeed }
            #expect(list.supportedValues == plain?.supportedValues)
            #expect(list.currentValue == Speeds.fast.ptpValue)
            try await client.setShutter(Speeds.faster)
            #expect(try await client.currentValue(of: QuirkCodes.shutterList) == Speeds.faster.ptpValue)
            #expect(
                await responseCode { try await client.set(QuirkCodes.shutterList, to: Speeds.fast.ptpValue) }
                    == .accessDenied)
            await client.disconnect()
        }
    }

    @Test func aRefusedDirectSetLeavesTheSpeedAndNotchSteppingStillMovesItOn3_00() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.directSetRefused(.invalidDevicePropValue)] }) {
            simulator in
            let client = try await PTPIPClient.session(with: simulator)
            #expect(await responseCode { try await client.setShutter(Speeds.faster) } == .invalidDevicePropValue)
            #expect(try await client.propertyTable().shutterSpeed == Speeds.fast)
            try await client.stepShutter(+1)
            await clock.pass(.milliseconds(20))
            #expect(try await client.propertyTable().shutterSpeed == Speeds.faster)
            await client.disconnect()
        }
    }

    @Test func anIgnoredDirectSetIsAnsweredOKAndChangesNothing() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.directSetIgnored] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await client.setShutter(Speeds.faster)
            #expect(try await client.propertyTable().shutterSpeed == Speeds.fast)
            try await client.stepShutter(-1)
            await clock.pass(.milliseconds(20))
            #expect(try await client.propertyTable().shutterSpeed == SonyShutterValue(numerator: 1, denominator: 100))
            await client.disconnect()
        }
    }

    @Test func lostNotchAnswersTheNextStepsOKWithoutApplyingThem() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.lostNotch(2)] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            for _ in 0..<2 {
                try await client.stepShutter(+1)
                await clock.pass(.milliseconds(20))
                #expect(try await client.propertyTable().shutterSpeed == Speeds.fast)
            }
            try await client.stepShutter(+1)
            await clock.pass(.milliseconds(20))
            #expect(try await client.propertyTable().shutterSpeed == Speeds.faster)
            await client.disconnect()
        }
    }
}
