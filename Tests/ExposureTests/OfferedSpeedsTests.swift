import Testing

@testable import Exposure

/// `OfferedSpeeds.choice(for:substituting:)`: the one rule from plan to wire.
@Suite struct OfferedSpeedsTests {
    static let thirdsWithoutBulb = OfferedSpeeds(ShutterScale.third.speeds, offersBulb: false)

    @Test(arguments: [true, false])
    func anOfferedSpeedIsUsedAsTheCameraEncodesIt(substituting: Bool) {
        let camera = OfferedSpeeds([ShutterSpeed(numerator: 300, denominator: 10), speed("1/250")], offersBulb: false)
        guard case let .offered(thirty)? = camera.choice(for: speed("30\""), substituting: substituting) else {
            Issue.record("30\" is offered as 300/10")
            return
        }
        #expect(thirty.numerator == 300 && thirty.denominator == 10)
    }

    /// 1/`denominator` s.
    static func fraction(_ denominator: Int) -> ShutterSpeed { ShutterSpeed(numerator: 1, denominator: denominator) }

    @Test(arguments: [
        (5000, 4000), (2000, 1000), (500, 250), (320, 250), (15000, 8000), (6000, 8000), (125, 250)
    ])
    func substitutingTakesTheNearestNominalStop(planned: Int, expected: Int) {
        // Nominal thirds: 1/8000 -39, 1/4000 -36, 1/1000 -30, 1/250 -24; 1/2000 and 1/500 sit between two
        // (the longer wins).
        let camera = OfferedSpeeds([8000, 4000, 1000, 250].map(Self.fraction), offersBulb: false)
        #expect(camera.choice(for: Self.fraction(planned), substituting: true) == .offered(Self.fraction(expected)))
    }

    @Test func aTieGoesToTheLongerExposure() {
        let camera = OfferedSpeeds([speed("1/8000"), speed("1/5000"), speed("1/4000")], offersBulb: false)
        #expect(camera.choice(for: speed("1/6400"), substituting: true) == .offered(speed("1/5000")))
    }

    @Test func withoutSubstitutingASpeedTheCameraLacksCannotBeShot() {
        let camera = OfferedSpeeds([speed("1/250"), speed("1/125")], offersBulb: true)
        #expect(camera.choice(for: speed("1/200"), substituting: false) == nil)
        #expect(camera.choice(for: speed("1/200"), substituting: true) == .offered(speed("1/250")))
    }

    @Test(arguments: [true, false])
    func pastEveryTimedSpeedIsBulbWhenTheCameraOffersIt(substituting: Bool) {
        let camera = OfferedSpeeds([speed("1/250"), speed("15\"")], offersBulb: true)
        #expect(camera.choice(for: speed("20\""), substituting: substituting) == .bulb)
        #expect(camera.choice(for: ShutterSpeed(numerator: 60, denominator: 1), substituting: substituting) == .bulb)
        // Only BULB offered: every time is shot in BULB.
        #expect(OfferedSpeeds([], offersBulb: true).choice(for: speed("1/250"), substituting: substituting) == .bulb)
    }

    @Test func withoutBulbALongTimedSpeedIsSubstitutedButABulbExposureIsNot() {
        let camera = OfferedSpeeds([speed("1/250"), speed("15\"")], offersBulb: false)
        #expect(camera.choice(for: speed("20\""), substituting: true) == .offered(speed("15\"")))
        #expect(camera.choice(for: speed("20\""), substituting: false) == nil)
        let minute = ShutterSpeed(numerator: 60, denominator: 1)
        #expect(Self.thirdsWithoutBulb.choice(for: minute, substituting: true) == nil)
    }

    @Test func offersWithoutATimeAreLeftToOffersBulb() {
        // A camera's list may hold BULB itself: the speed closure says it is no time.
        let camera = OfferedSpeeds([0, 250, 125], offersBulb: true) {
            $0 == 0 ? nil : ShutterSpeed(numerator: 1, denominator: $0)
        }
        #expect(camera.longest == speed("1/125"))
        #expect(camera.choice(for: speed("1/250"), substituting: false) == .offered(250))
        #expect(camera.choice(for: speed("1/60"), substituting: false) == .bulb)
        #expect(OfferedSpeeds([0], offersBulb: false) { _ in nil }.isEmpty)
    }
}
