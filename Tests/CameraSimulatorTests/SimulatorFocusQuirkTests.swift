import CameraSimulator
import PTPIP
import SonyProtocol
import TestSupport
import Testing

@Suite("Simulated focus: 0x500A, AF with shutter, 0xD213 and the AF quirks, over loopback TCP in virtual time")
struct SimulatorFocusQuirkTests {
    @Test func focusModeIsSettableBetweenMFAndAFAndAFWithShutterCanBeTurnedOff() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            let table = try await client.propertyTable()
            #expect(table[.focusMode]?.currentValue == .uint16(SonyFocusMode.manual.rawValue))
            #expect(table[.focusMode]?.isSettable == true)
            #expect(table[QuirkCodes.afWithShutter]?.currentValue == QuirkCodes.on)
            #expect(table[QuirkCodes.afWithShutter]?.settableValues == [QuirkCodes.off, QuirkCodes.on])
            #expect(table[.focusIndication]?.currentValue == QuirkCodes.unlocked)
            try await client.set(.focusMode, to: .uint16(SonyFocusMode.singleAF.rawValue))
            try await client.set(QuirkCodes.afWithShutter, to: QuirkCodes.off)
            #expect(try await client.currentValue(of: .focusMode) == .uint16(SonyFocusMode.singleAF.rawValue))
            #expect(try await client.currentValue(of: QuirkCodes.afWithShutter) == QuirkCodes.off)
            try await client.set(.focusMode, to: .uint16(SonyFocusMode.manual.rawValue))
            #expect(try await client.currentValue(of: .focusMode) == .uint16(SonyFocusMode.manual.rawValue))
            await client.disconnect()
        }
    }

    @Test func aFocusSwitchMakesTheModeReadOnlyAndHasNoAFWithShutter() async throws {
        let clock = TestClock()
        try await withSimulator(
            clock: clock,
            {
                $0.quirks = [.focusSwitch]
                $0.focusMode = .automaticAF
            }
        ) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            let table = try await client.propertyTable()
            #expect(table[.focusMode]?.currentValue == .uint16(SonyFocusMode.automaticAF.rawValue))
            #expect(table[.focusMode]?.isSettable == false)
            #expect(table[QuirkCodes.afWithShutter] == nil)
            #expect(
                await responseCode { try await client.set(.focusMode, to: .uint16(SonyFocusMode.manual.rawValue)) }
                    == .accessDenied)
            #expect(
                await responseCode { try await client.set(QuirkCodes.afWithShutter, to: QuirkCodes.off) }
                    == .devicePropNotSupported)
            await client.disconnect()
        }
    }

    @Test func afLockFiresOnlyAfterS1WasHeldTheLockTimeAndReportsFocusWithEvents() async throws {
        let clock = TestClock()
        try await withSimulator(
            clock: clock,
            {
                $0.quirks = [.afLock(.milliseconds(300))]
                $0.focusMode = .singleAF
            }
        ) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await client.button(.s1Button, .down)
            await clock.pass(.milliseconds(299))
            #expect(try await client.currentValue(of: .focusIndication) == QuirkCodes.unlocked)
            // Too early: answered OK, nothing fires.
            try await client.button(.s2Button, .down)
            try await client.button(.s2Button, .up)
            #expect(await simulator.framesFired == 0)
            // The simulator's timer ticks every 5 ms of its clock; this read lets the 300th ms happen at once.
            await clock.pass(.milliseconds(1))
            #expect(try await client.currentValue(of: .focusIndication) == QuirkCodes.focusedAFS)
            try await client.waitForPropertyChange(.focusIndication)
            try await client.button(.s2Button, .down)
            try await client.button(.s2Button, .up)
            #expect(await simulator.framesFired == 1)
            try await client.button(.s1Button, .up)
            try await client.waitForPropertyChange(.focusIndication)
            #expect(try await client.currentValue(of: .focusIndication) == QuirkCodes.unlocked)
            await client.disconnect()
        }
    }

    @Test func afCShowsTrackingUntilFocusLocks() async throws {
        let clock = TestClock()
        try await withSimulator(
            clock: clock,
            {
                $0.quirks = [.afLock(.milliseconds(300))]
                $0.focusMode = .continuousAF
            }
        ) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await client.button(.s1Button, .down)
            #expect(try await client.currentValue(of: .focusIndication) == QuirkCodes.trackingAFC)
            await clock.pass(.milliseconds(300))
            #expect(try await client.currentValue(of: .focusIndication) == QuirkCodes.focusedAFC)
            await client.disconnect()
        }
    }

    @Test(arguments: [SonyFocusMode.singleAF, .automaticAF, .directManual])
    func withoutAFLockFocusLocksAtOnceAndTheReleaseFires(mode: SonyFocusMode) async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.focusMode = mode }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await client.button(.s1Button, .down)
            #expect(try await client.currentValue(of: .focusIndication) == QuirkCodes.focusedAFS)
            try await client.button(.s2Button, .down)
            #expect(await simulator.framesFired == 1)
            await client.disconnect()
        }
    }

    @Test func afFailReportsNotFocusedAndNeverFires() async throws {
        let clock = TestClock()
        try await withSimulator(
            clock: clock,
            {
                $0.quirks = [.afFail]
                $0.focusMode = .singleAF
            }
        ) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await client.button(.s1Button, .down)
            #expect(try await client.currentValue(of: .focusIndication) == QuirkCodes.notFocusedAFS)
            await clock.pass(.seconds(5))
            try await client.button(.s2Button, .down)
            try await client.button(.s2Button, .up)
            try await client.button(.s1Button, .up)
            #expect(await simulator.framesFired == 0)
            #expect(try await client.currentValue(of: .focusIndication) == QuirkCodes.unlocked)
            await client.disconnect()
        }
    }

    @Test func manualFocusOrAFWithShutterOffFiresAtOnceWithoutFocusing() async throws {
        let clock = TestClock()
        try await withSimulator(clock: clock, { $0.quirks = [.afLock(.milliseconds(300)), .afFail] }) { simulator in
            let client = try await PTPIPClient.session(with: simulator)
            try await client.release()
            #expect(await simulator.framesFired == 1)
            await clock.pass(.seconds(1))
            _ = try await client.execute(.getObject, parameters: [SonyObjectHandle.stillImage])
            try await client.set(.focusMode, to: .uint16(SonyFocusMode.singleAF.rawValue))
            try await client.set(QuirkCodes.afWithShutter, to: QuirkCodes.off)
            try await client.button(.s1Button, .down)
            #expect(try await client.currentValue(of: .focusIndication) == QuirkCodes.unlocked)
            try await client.button(.s2Button, .down)
            #expect(await simulator.framesFired == 2)
            await client.disconnect()
        }
    }
}
