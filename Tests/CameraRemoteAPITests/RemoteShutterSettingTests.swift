import CameraRemoteAPI
import Exposure
import LegacyCameraSimulator
import Testing

/// Shutter labels as bodies write them, read exactly and mapped by value onto the planner's scales.
@Suite struct RemoteShutterSettingTests {
    /// Label, then the exact fraction it means.
    static let labels: [(String, Int, Int)] = [
        ("30\"", 30, 1), ("25\"", 25, 1), ("3.2\"", 32, 10), ("2.5\"", 25, 10), ("1.6\"", 16, 10), ("1.3\"", 13, 10),
        ("1\"", 1, 1), ("0.8\"", 8, 10), ("0.6\"", 6, 10), ("0.5\"", 5, 10), ("0.4\"", 4, 10), ("1/3", 1, 3),
        ("1/4", 1, 4), ("1/13", 1, 13), ("1/250", 1, 250), ("1/4000", 1, 4000), ("1/8000", 1, 8000),
        ("1/2.5", 10, 25)
    ]

    @Test(arguments: labels.indices)
    func aLabelMeansItsExactFraction(index: Int) throws {
        let (label, numerator, denominator) = Self.labels[index]
        let setting = try RemoteShutterSetting(label: label)
        guard case let .timed(speed) = setting else {
            Issue.record("\(label) should be timed")
            return
        }
        #expect(speed.numerator == numerator && speed.denominator == denominator, "\(label)")
    }

    @Test func bulbIsBulb() throws {
        #expect(try RemoteShutterSetting(label: "BULB") == .bulb)
        #expect(RemoteShutterSetting.bulb.label == "BULB")
        #expect(RemoteShutterSetting.bulb.stop(on: .third) == nil)
    }

    @Test(arguments: [
        "", "\"", "0\"", "1/0", "0/5", "-1/4", "1/", "/4", "1/4/5", "0.45\"", "1.\"", "abc", "bulb",
        "30", "1/99999999999999999", String(repeating: "9", count: 40) + "\""
    ])
    func anythingElseIsAnUnknownLabel(label: String) {
        #expect(throws: CameraRemoteAPIError.self) { try RemoteShutterSetting(label: label) }
    }

    @Test func everyManualLabelOfTheSimulatedBodyIsAThirdStopByValueAndWritesBackTheSame() throws {
        let labels = RemoteShutterLabels(candidates: LegacySimulatorConfiguration.manualShutterLabels)
        #expect(labels.offersBulb)
        #expect(labels.unknown == [])
        #expect(labels.speeds.count == 52)
        let stops = labels.stops(on: .third)
        #expect(stops.count == 52)
        // 1/4000 to 30": the third-stop scale from its fourth speed on, in order.
        #expect(stops == Array(ShutterScale.third.speeds.dropFirst(3)))
        for label in LegacySimulatorConfiguration.manualShutterLabels {
            #expect(try RemoteShutterSetting(label: label).label == label)
        }
    }

    @Test func aPlannedSpeedFindsTheBodysOwnLabelByValue() {
        let labels = RemoteShutterLabels(candidates: ["30\"", "0.4\"", "1/3", "1/250", "BULB", "weird"])
        #expect(labels.label(for: ShutterSpeed(numerator: 4, denominator: 10)) == "0.4\"")
        #expect(labels.label(for: ShutterSpeed(numerator: 2, denominator: 5)) == "0.4\"")
        #expect(labels.label(for: ShutterSpeed(numerator: 300, denominator: 10)) == "30\"")
        #expect(labels.label(for: ShutterSpeed(numerator: 1, denominator: 3)) == "1/3")
        #expect(labels.label(for: ShutterSpeed(numerator: 1, denominator: 8000)) == nil)
        #expect(labels.unknown == ["weird"])
    }

    @Test func aBodyWriting03SecondsMeansTheOneThirdStop() throws {
        let setting = try RemoteShutterSetting(label: "0.3\"")
        #expect(setting.stop(on: .third) == ShutterSpeed(numerator: 1, denominator: 3))
        #expect(try RemoteShutterSetting(label: "0.7\"").stop(on: .half) == ShutterSpeed(numerator: 7, denominator: 10))
        #expect(try RemoteShutterSetting(label: "1/6000").stop(on: .third) == nil)
        #expect(
            try RemoteShutterSetting(label: "1/6000").stop(on: .half) == ShutterSpeed(numerator: 1, denominator: 6000))
    }
}
