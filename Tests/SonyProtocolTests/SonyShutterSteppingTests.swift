import SonyProtocol
import Testing

/// Protocol 2.00 notch stepping: `+n` faster, `0x100 - n` slower, counted in the camera's own list.
struct SonyShutterSteppingTests {
    static func value(_ numerator: UInt16, _ denominator: UInt16) -> SonyShutterValue {
        SonyShutterValue(numerator: numerator, denominator: denominator)
    }

    /// A short Sony-style list, longest first: BULB, 30", 1", 1/60, 1/125, 1/250.
    static let list: [SonyShutterValue] = [
        .bulb, value(300, 10), value(10, 10), value(1, 60), value(1, 125), value(1, 250)
    ]

    @Test func threeNotchesFasterIsPlusThree() throws {
        #expect(try SonyShutterStepping.notches(from: Self.value(10, 10), to: Self.value(1, 250), in: Self.list) == 3)
        #expect(
            try SonyShutterStepping.controlParameter(from: Self.value(10, 10), to: Self.value(1, 250), in: Self.list)
                == 0x03)
    }

    @Test func twoNotchesSlowerIsHexFE() throws {
        #expect(try SonyShutterStepping.notches(from: Self.value(1, 125), to: Self.value(10, 10), in: Self.list) == -2)
        #expect(
            try SonyShutterStepping.controlParameter(from: Self.value(1, 125), to: Self.value(10, 10), in: Self.list)
                == 0xFE)
    }

    @Test func bulbIsTheSlowestNotch() throws {
        #expect(try SonyShutterStepping.notches(from: Self.value(300, 10), to: .bulb, in: Self.list) == -1)
        #expect(try SonyShutterStepping.controlParameter(notches: -1) == 0xFF)
    }

    @Test func countsByValueSoThePlannersEncodingFindsTheCamerasValue() throws {
        #expect(try SonyShutterStepping.notches(from: Self.value(30, 1), to: Self.value(1, 1), in: Self.list) == 1)
    }

    @Test func theListOrderTheCameraSendsDoesNotChangeTheCount() throws {
        let shuffled = [Self.list[4], Self.list[0], Self.list[5], Self.list[2], Self.list[1], Self.list[3]]
        #expect(SonyShutterStepping.notchOrder(shuffled) == Self.list)
        #expect(try SonyShutterStepping.notches(from: Self.value(10, 10), to: Self.value(1, 250), in: shuffled) == 3)
    }

    @Test func aValueTheCameraLacksIsATypedError() {
        #expect(throws: SonyProtocolError.shutterValueNotOffered(Self.value(1, 8000))) {
            _ = try SonyShutterStepping.notches(from: Self.value(10, 10), to: Self.value(1, 8000), in: Self.list)
        }
        #expect(throws: SonyProtocolError.shutterValueNotOffered(Self.value(1, 4))) {
            _ = try SonyShutterStepping.notches(from: Self.value(1, 4), to: Self.value(10, 10), in: Self.list)
        }
    }

    @Test(arguments: [0, 128, -128, 200])
    func notchCountsOneByteCannotCarryAreRefused(notches: Int) {
        #expect(throws: SonyProtocolError.notchOutOfRange(notches)) {
            _ = try SonyShutterStepping.controlParameter(notches: notches)
        }
    }

    @Test(arguments: [1, 3, 61, 127, -1, -2, -61, -127])
    func theCameraReadsBackTheNotchCountWeSent(notches: Int) throws {
        let parameter = try SonyShutterStepping.controlParameter(notches: notches)
        #expect(Int(parameter) == (notches > 0 ? notches : 0x100 + notches))
        #expect(SonyShutterStepping.notches(controlParameter: parameter) == notches)
    }

    @Test func steppingStopsAtEitherEndOfTheList() {
        #expect(SonyShutterStepping.value(after: 2, from: Self.value(1, 60), in: Self.list) == Self.value(1, 250))
        #expect(SonyShutterStepping.value(after: 9, from: Self.value(1, 60), in: Self.list) == Self.value(1, 250))
        #expect(SonyShutterStepping.value(after: -9, from: Self.value(1, 60), in: Self.list) == .bulb)
        #expect(SonyShutterStepping.value(after: 1, from: Self.value(1, 4), in: Self.list) == nil)
    }

    @Test func invalidValuesAreNotNotches() {
        let withJunk = Self.list + [SonyShutterValue(rawValue: 0x0000_000A)]
        #expect(SonyShutterStepping.notchOrder(withJunk) == Self.list)
    }
}
