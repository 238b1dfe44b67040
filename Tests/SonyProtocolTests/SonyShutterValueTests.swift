import Exposure
import SonyProtocol
import Testing

/// 0xD20D values: `numerator << 16 | denominator`, 0 = BULB, matched to the planner by value.
struct SonyShutterValueTests {
    @Test(arguments: [
        (UInt32(0x0000_0000), "BULB"),
        (0x012C_000A, "30\""),
        (0x0019_000A, "2.5\""),
        (0x0004_000A, "0.4\""),
        (0x0001_000F, "1/15"),
        (0x0001_00FA, "1/250"),
        (0x0001_7D00, "1/32000"),
        (0x0000_000A, "0x0000000A"),
        (0x000A_0000, "0x000A0000")
    ])
    func labelsWhatTheCameraShows(raw: UInt32, label: String) {
        #expect(SonyShutterValue(rawValue: raw).label == label)
    }

    @Test func splitsNumeratorAndDenominatorFromTheHighAndLowHalves() {
        let thirty = SonyShutterValue(rawValue: 0x012C_000A)
        #expect(thirty.numerator == 300)
        #expect(thirty.denominator == 10)
        #expect(thirty.seconds == 30)
        #expect(SonyShutterValue(numerator: 1, denominator: 250).rawValue == 0x0001_00FA)
    }

    @Test func bulbHasNoSpeedAndNoSeconds() {
        #expect(SonyShutterValue.bulb.isBulb)
        #expect(SonyShutterValue.bulb.isValid)
        #expect(SonyShutterValue.bulb.speed == nil)
        #expect(SonyShutterValue.bulb.seconds == nil)
        #expect(!SonyShutterValue(rawValue: 0x0000_000A).isValid)
    }

    @Test func mapsToThePlannersSpeedByValueNeverByLabel() {
        let thirty = SonyShutterValue(numerator: 300, denominator: 10)
        #expect(thirty.speed == ShutterSpeed(numerator: 30, denominator: 1))
        #expect(thirty.isSameExposure(as: SonyShutterValue(numerator: 30, denominator: 1)))
        #expect(!thirty.isSameExposure(as: .bulb))
        let offered = [SonyShutterValue.bulb, thirty, SonyShutterValue(numerator: 1, denominator: 250)]
        // The planner's 30/1 finds the camera's own 300/10 encoding, which is what it wants back.
        #expect(SonyShutterValue.matching(ShutterSpeed(numerator: 30, denominator: 1), among: offered) == thirty)
        #expect(
            SonyShutterValue.matching(ShutterSpeed(numerator: 2, denominator: 500), among: offered)?.rawValue
                == 0x0001_00FA)
        #expect(SonyShutterValue.matching(ShutterSpeed(numerator: 1, denominator: 8000), among: offered) == nil)
    }

    @Test func encodesAPlannerSpeedAsGivenWhenItFitsSixteenBits() {
        #expect(SonyShutterValue(ShutterSpeed(numerator: 1, denominator: 250))?.rawValue == 0x0001_00FA)
        #expect(SonyShutterValue(ShutterSpeed(numerator: 1, denominator: 65536)) == nil)
        #expect(SonyShutterValue(ShutterSpeed(numerator: 70000, denominator: 1)) == nil)
    }

    @Test func readsOnlyAU32DescriptorValue() {
        #expect(SonyShutterValue(PTPValue.uint32(0x0001_000F))?.label == "1/15")
        #expect(SonyShutterValue(PTPValue.uint16(15)) == nil)
        #expect(SonyShutterValue(numerator: 1, denominator: 15).ptpValue == .uint32(0x0001_000F))
    }

    @Test func bulbIsLongerThanAnyTimeAndTimesCompareByValue() {
        let thirty = SonyShutterValue(numerator: 300, denominator: 10)
        let fast = SonyShutterValue(numerator: 1, denominator: 32000)
        #expect(SonyShutterValue.bulb.isLonger(than: thirty))
        #expect(!thirty.isLonger(than: .bulb))
        #expect(!SonyShutterValue.bulb.isLonger(than: .bulb))
        #expect(thirty.isLonger(than: fast))
        #expect(!thirty.isLonger(than: SonyShutterValue(numerator: 30, denominator: 1)))
    }
}
