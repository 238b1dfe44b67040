import Testing

@testable import Exposure

/// Reading what people type as shutter speeds.
@Suite struct ShutterScaleParsingTests {
    @Test(arguments: [
        ("1/250", 1, 250), ("0.5", 5, 10), ("0.5\"", 5, 10), ("0.5s", 5, 10), ("2", 2, 1), ("2\"", 2, 1),
        ("2s", 2, 1), ("1/2", 5, 10), (" 1/4 ", 1, 4), ("0.3", 1, 3), ("1/3", 1, 3), ("0.25", 1, 4),
        ("4/10", 4, 10), ("30", 30, 1), ("300/10", 30, 1), ("2.5", 25, 10), ("0.4", 4, 10)
    ])
    func acceptsWhatPeopleTypeExactly(text: String, numerator: Int, denominator: Int) throws {
        let parsed = try ShutterScale.third.parseSpeed(text)
        #expect(parsed.speed == ShutterSpeed(numerator: numerator, denominator: denominator))
        #expect(!parsed.wasSnapped)
    }

    @Test func returnsTheScaleEncodingNotTheTypedFraction() throws {
        // 1/2 typed is the 0.5" stop, which Sony encodes as 5/10.
        let parsed = try ShutterScale.third.parseSpeed("1/2")
        #expect(parsed.speed.numerator == 5 && parsed.speed.denominator == 10)
    }

    @Test(arguments: [("1/300", "1/320"), ("1/7", "1/8"), ("0.33", "0.3\""), ("1/10000", "1/8000"), ("35", "30\"")])
    func closeValuesSnapToTheNearestStopAndSaySo(text: String, label: String) throws {
        let parsed = try ShutterScale.third.parseSpeed(text)
        #expect(parsed.speed.label == label)
        #expect(parsed.wasSnapped)
    }

    @Test func halfScaleSnapsToItsOwnStops() throws {
        let parsed = try ShutterScale.half.parseSpeed("1/800")
        #expect(parsed.speed.label == "1/750" && parsed.wasSnapped)
        #expect(try ShutterScale.half.parseSpeed("0.7").speed == ShutterSpeed(numerator: 7, denominator: 10))
    }

    @Test(arguments: ["abc", "", "1/", "/4", "1//4", "1.2.3", "1/0", "s", "\"", "0x10", "1e3"])
    func garbageIsNotASpeed(text: String) {
        #expect(throws: ExposureError.notASpeed(text: ShutterScale.trimmed(text))) {
            try ShutterScale.third.parseSpeed(text)
        }
    }

    @Test(arguments: [
        "9999999999/.000000001", "99999999999999999999", ".", "1/.", "..5", "１/４", "1/4📷", "1 / 4", "--1",
        "9999999999", ".0000000001"
    ])
    func hostileTextIsAnErrorNeverATrap(text: String) {
        #expect(throws: ExposureError.self) { try ShutterScale.third.parseSpeed(text) }
    }

    @Test(arguments: ["0", "-1", "-1/250", "0/5", "0.0"])
    func zeroAndNegativeAreRejected(text: String) {
        #expect(throws: ExposureError.nonPositiveSpeed(text: text)) {
            try ShutterScale.third.parseSpeed(text)
        }
    }

    @Test func farValuesNameTheNearestStop() {
        #expect(throws: ExposureError.speedOffScale(text: "60", scale: .third, nearest: ShutterScale.third.longest)) {
            try ShutterScale.third.parseSpeed("60")
        }
        #expect(
            throws: ExposureError.speedOffScale(text: "1/20000", scale: .third, nearest: ShutterScale.third.fastest)
        ) {
            try ShutterScale.third.parseSpeed("1/20000")
        }
    }

    @Test(arguments: [
        ("1", 6), ("0.3", 2), ("0.33", 2), ("1/3", 2), ("0.7", 4), ("2/3", 4), ("1.3", 8),
        ("1.5", 9), ("2.5", 15), ("3", 18), ("2ev", 12), ("1.7", 10)
    ])
    func spacingAcceptsThirdsAndTheTwoHalves(text: String, sixths: Int) throws {
        #expect(try EVAmount.spacing(parsing: text) == EVAmount(sixths: sixths))
    }

    @Test(arguments: ["-1", "0", "0.5", "3.5", "4", "abc", "", "1/0"])
    func spacingRejectsOthersListingTheAllowedOnes(text: String) {
        #expect(throws: ExposureError.invalidSpacing(text: text, allowed: EVAmount.allowedSpacings)) {
            try EVAmount.spacing(parsing: text)
        }
    }

    @Test(arguments: [(6, "1"), (2, "0.3"), (4, "0.7"), (9, "1.5"), (8, "1.3"), (48, "8"), (-6, "-1"), (1, "0.2")])
    func evAmountsAreLabelledTheWayCamerasShowThem(sixths: Int, label: String) {
        #expect(EVAmount(sixths: sixths).label == label)
    }
}
