import Foundation
import Testing

@testable import ShootKit

/// The one way a shoot's sentences write durations and clock times (the layer's notes and the terminal's lines).
@Suite struct ShootWordsTests {
    @Test func durationsReadAsTenthsBelowTenSecondsAndMinutesAboveAMinute() {
        #expect(ShootWords.duration(seconds: 0.34) == "0.3 s")
        #expect(ShootWords.duration(seconds: 9.94) == "9.9 s")
        #expect(ShootWords.duration(seconds: 9.96) == "10 s")
        #expect(ShootWords.duration(seconds: 59.4) == "59 s")
        #expect(ShootWords.duration(seconds: 125) == "2 min 5 s")
        #expect(ShootWords.duration(seconds: 300) == "5 min")
    }

    @Test func messageDurationsDropAWholeSecondsTrailingZero() {
        #expect(ShootWords.duration(.seconds(2)) == "2 s")
        #expect(ShootWords.duration(.milliseconds(500)) == "0.5 s")
        #expect(ShootWords.duration(.seconds(90)) == "1 min 30 s")
        #expect(ShootWords.seconds(.milliseconds(1_250)) == 1.25)
    }

    @Test func aClockTimeIsTheLocalHoursMinutesAndSecondsTwoDigitsEach() {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        let text = ShootWords.clockTime(date)
        #expect(text.split(separator: ":").map { Int($0) } == [parts.hour, parts.minute, parts.second])
        #expect(text.count == 8)
    }
}
