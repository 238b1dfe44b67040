import Testing

@testable import Exposure

/// The stops past 30": their labels, and reading bulb times the way photographers write them.
@Suite struct BulbScaleTests {
    static let thirdBulbLabels = """
        40" 50" 1' 1'20" 1'40" 2' 2'30" 3'20" 4' 5' 6' 8' 10' 13' 15' 20' 25' 30'
        """.split(separator: " ").map(String.init)

    static let halfBulbLabels = """
        45" 1' 1'30" 2' 3' 4' 6' 8' 10' 15' 20' 30'
        """.split(separator: " ").map(String.init)

    @Test func thirdStopScaleContinuesPast30SecondsInMinutesTo30Minutes() {
        #expect(ShutterScale.third.bulbSpeeds.map(\.label) == Self.thirdBulbLabels)
        #expect(ShutterScale.third.allSpeeds == ShutterScale.third.speeds + ShutterScale.third.bulbSpeeds)
    }

    @Test func halfStopScaleContinuesPast30SecondsInMinutesTo30Minutes() {
        #expect(ShutterScale.half.bulbSpeeds.map(\.label) == Self.halfBulbLabels)
    }

    @Test(arguments: ShutterScale.allCases)
    func bulbStopsAreAboutOneStepApartAndAllBulb(scale: ShutterScale) {
        let stops = [scale.longest] + scale.bulbSpeeds
        let step = scale == .third ? 1.26 : 1.41
        for (shorter, longer) in zip(stops, stops.dropFirst()) {
            let ratio = longer.seconds / shorter.seconds
            // Photographers' rounding (like 13" to 15") keeps each step within a fifth of its nominal ratio.
            #expect(ratio > step * 0.8 && ratio < step * 1.2, "\(shorter) -> \(longer)")
            #expect(longer.isBulb && longer.denominator == 1)
        }
        #expect(!scale.longest.isBulb)
        #expect(scale.longestBulb.seconds == 1800)
    }

    @Test(arguments: ShutterScale.allCases)
    func everyBulbLabelParsesBackToItsOwnStop(scale: ShutterScale) throws {
        for speed in scale.bulbSpeeds {
            let parsed = try scale.parseSpeed(speed.label)
            #expect(parsed.speed == speed && !parsed.wasSnapped, "\(speed.label)")
        }
    }

    @Test(arguments: [
        ("80\"", 80), ("80s", 80), ("1'20\"", 80), ("1'20", 80), ("1m20s", 80), ("1m20", 80), ("150\"", 150),
        ("2'30\"", 150), ("2m30s", 150), ("2.5m", 150), ("2.5'", 150), ("4'", 240), ("4m", 240), ("4min", 240),
        ("240s", 240), ("1′", 60), ("1’20”", 80), ("30'", 1800), ("40s", 40), (" 2' ", 120)
    ])
    func bulbTimesAreReadWithAUnitInEitherStyle(text: String, seconds: Int) throws {
        let parsed = try ShutterScale.third.parseSpeed(text)
        #expect(parsed.speed == ShutterSpeed(numerator: seconds, denominator: 1))
        #expect(!parsed.wasSnapped)
    }

    @Test(arguments: [("250\"", "4'"), ("35s", "40\""), ("7m", "8'"), ("100s", "1'30\"")])
    func bulbTimesBetweenStopsSnapAndSaySo(text: String, label: String) throws {
        let scale: ShutterScale = label == "1'30\"" ? .half : .third
        let parsed = try scale.parseSpeed(text)
        #expect(parsed.speed.label == label && parsed.wasSnapped)
    }

    /// A bare number is resolved on the timed speeds as before bulb: cameras show 1/250 as `250`.
    @Test(arguments: ["250", "60", "40", "150"])
    func bareNumbersPast30AreStillRefused(text: String) {
        #expect(throws: ExposureError.speedOffScale(text: text, scale: .third, nearest: ShutterScale.third.longest)) {
            try ShutterScale.third.parseSpeed(text)
        }
    }

    @Test(arguments: ["2ms", "'", "m", "2'70\"", "1.5'30\"", "x'", "2'x", "1'2'", "--1'"])
    func malformedMinutesAreNotASpeed(text: String) {
        #expect(throws: ExposureError.notASpeed(text: text)) { try ShutterScale.third.parseSpeed(text) }
    }

    @Test func timesPast30MinutesNameTheLongestStop() {
        #expect(
            throws: ExposureError.speedOffScale(text: "60'", scale: .third, nearest: ShutterScale.third.longestBulb)
        ) {
            try ShutterScale.third.parseSpeed("60'")
        }
        #expect(throws: ExposureError.nonPositiveSpeed(text: "0'")) { try ShutterScale.third.parseSpeed("0'") }
    }

    @Test(arguments: [(60, "1'"), (80, "1'20\""), (150, "2'30\""), (59, "59\""), (3600, "60'")])
    func longSpeedsAreLabelledInMinutesFromOneMinute(seconds: Int, label: String) {
        #expect(ShutterSpeed(numerator: seconds, denominator: 1).label == label)
    }
}
