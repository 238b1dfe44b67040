import Testing

@testable import Exposure

/// The scales, entry by entry, against the labels cameras display.
@Suite struct ShutterScaleTests {
    static let thirdLabels = """
        1/8000 1/6400 1/5000 1/4000 1/3200 1/2500 1/2000 1/1600 1/1250 1/1000 1/800 1/640 1/500 1/400 1/320 \
        1/250 1/200 1/160 1/125 1/100 1/80 1/60 1/50 1/40 1/30 1/25 1/20 1/15 1/13 1/10 1/8 1/6 1/5 1/4 \
        0.3" 0.4" 0.5" 0.6" 0.8" 1" 1.3" 1.6" 2" 2.5" 3.2" 4" 5" 6" 8" 10" 13" 15" 20" 25" 30"
        """.split(separator: " ").map(String.init)

    static let halfLabels = """
        1/8000 1/6000 1/4000 1/3000 1/2000 1/1500 1/1000 1/750 1/500 1/350 1/250 1/180 1/125 1/90 1/60 1/45 \
        1/30 1/20 1/15 1/10 1/8 1/6 1/4 0.3" 0.5" 0.7" 1" 1.5" 2" 3" 4" 6" 8" 10" 15" 20" 30"
        """.split(separator: " ").map(String.init)

    @Test func thirdStopScaleHas55SpeedsWithTheCameraLabelsInOrder() {
        #expect(ShutterScale.third.speeds.count == 55)
        #expect(ShutterScale.third.speeds.map(\.label) == Self.thirdLabels)
    }

    @Test func halfStopScaleHas37SpeedsWithTheCameraLabelsInOrder() {
        #expect(ShutterScale.half.speeds.count == 37)
        #expect(ShutterScale.half.speeds.map(\.label) == Self.halfLabels)
    }

    @Test(arguments: ShutterScale.allCases)
    func speedsGetLongerStrictlyFromFastestToLongest(scale: ShutterScale) {
        let speeds = scale.speeds
        for index in speeds.indices.dropFirst() {
            #expect(speeds[index - 1] < speeds[index], "\(speeds[index - 1]) then \(speeds[index])")
        }
        #expect(scale.fastest == ShutterSpeed(numerator: 1, denominator: 8000))
        #expect(scale.longest == ShutterSpeed(numerator: 30, denominator: 1))
    }

    @Test func rationalsAreTheOnesSonyEncodes() {
        let third = ShutterScale.third.speeds
        let pairs = third.map { [$0.numerator, $0.denominator] }
        #expect(pairs[34] == [1, 3]) // the 0.3" stop is a third of a second
        #expect(pairs[35] == [4, 10])
        #expect(pairs[37] == [6, 10])
        #expect(pairs[38] == [8, 10])
        #expect(pairs[40] == [13, 10])
        #expect(pairs[41] == [16, 10])
        #expect(pairs[43] == [25, 10])
        #expect(pairs[44] == [32, 10])
        let half = ShutterScale.half.speeds.map { [$0.numerator, $0.denominator] }
        #expect(half[23] == [1, 3])
        #expect(half[25] == [7, 10])
        #expect(half[27] == [15, 10])
    }

    /// On the 1/3-stop scale, neighbours are one nominal third apart: the index is the nominal position.
    @Test func thirdStopIndexIsTheNominalPositionInThirds() {
        for (index, speed) in ShutterScale.third.speeds.enumerated() {
            #expect(speed.nominalThirds == index - 39, "\(speed.label)")
        }
    }

    @Test func halfStopNeighboursAreHalfAStopApartWithinRounding() {
        let speeds = ShutterScale.half.speeds
        for index in speeds.indices.dropFirst() {
            let ratio = speeds[index].seconds / speeds[index - 1].seconds
            // 2^(1/2) = 1.414; camera labels round (1/8 after 1/10 is 1.25, 1/1000 after 1/1500 is 1.5).
            #expect(ratio > 1.2 && ratio < 1.6, "\(speeds[index - 1]) -> \(speeds[index])")
        }
    }

    @Test func thirtySecondsAsSonySends300Over10IsTheLastStop() {
        let sent = ShutterSpeed(numerator: 300, denominator: 10)
        #expect(ShutterScale.third.index(of: sent) == 54)
        #expect(ShutterScale.half.index(of: sent) == 36)
        #expect(sent.label == "30\"")
    }

    @Test(arguments: ShutterScale.allCases)
    func everyLabelParsesBackToItsOwnStop(scale: ShutterScale) throws {
        for speed in scale.speeds {
            let parsed = try scale.parseSpeed(speed.label)
            #expect(parsed.speed == speed && !parsed.wasSnapped, "\(speed.label)")
            #expect(parsed.speed.numerator == speed.numerator && parsed.speed.denominator == speed.denominator)
        }
    }

    @Test func distanceBetweenStopsIsExactInEV() {
        let third = ShutterScale.third
        let range = third.distance(
            from: ShutterSpeed(numerator: 1, denominator: 1000), to: ShutterSpeed(numerator: 1, denominator: 4))
        #expect(range == EVAmount(stops: 8))
        let half = ShutterScale.half.distance(
            from: ShutterSpeed(numerator: 1, denominator: 1000), to: ShutterSpeed(numerator: 1, denominator: 750))
        #expect(half == EVAmount(sixths: 3))
        #expect(third.distance(from: ShutterSpeed(numerator: 1, denominator: 7), to: third.longest) == nil)
    }
}
