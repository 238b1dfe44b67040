import ImageMetadata
import Testing

@Suite("EXIF date and time")
struct ExifDateTimeTests {
    @Test func parsesAndWritesTheExifForm() throws {
        let date = try #require(ExifDateTime(exifString: "2026:11:23 15:04:05"))
        #expect(date.year == 2026 && date.month == 11 && date.day == 23)
        #expect(date.hour == 15 && date.minute == 4 && date.second == 5)
        #expect(date.exifString == "2026:11:23 15:04:05")
    }

    @Test(arguments: [
        "", "    :  :     :  :  ", "2026-11-23 15:04:05", "2026:13:01 00:00:00", "2026:02:29 00:00:00",
        "2026:11:23 24:00:00", "2026:11:23 15:04:5", "2026:11:23T15:04:05", "2O26:11:23 15:04:05"
    ])
    func refusesMalformedOrImpossibleDates(text: String) {
        #expect(ExifDateTime(exifString: text) == nil)
    }

    @Test(arguments: [
        ("2026:11:23 15:04:05", 0, "2026:11:23 15:04:05"),
        ("2026:11:23 23:59:59", 1, "2026:11:24 00:00:00"),
        ("2026:12:31 23:59:30", 45, "2027:01:01 00:00:15"),
        ("2028:02:28 12:00:00", 86_400, "2028:02:29 12:00:00"),
        ("2100:02:28 12:00:00", 86_400, "2100:03:01 12:00:00"),
        ("2026:03:01 00:00:00", -1, "2026:02:28 23:59:59"),
        ("0001:01:01 00:00:10", -100, "0001:01:01 00:00:00"),
        ("9999:12:31 23:59:00", Int.max, "9999:12:31 23:59:59")
    ])
    func addingSecondsCrossesDaysMonthsAndYears(start: String, seconds: Int, expected: String) throws {
        let date = try #require(ExifDateTime(exifString: start))
        #expect(date.adding(seconds: seconds).exifString == expected)
    }

    @Test func laterMomentsCompareGreater() throws {
        let early = try #require(ExifDateTime(exifString: "2026:11:23 15:04:05"))
        #expect(early < early.adding(seconds: 1))
        #expect(!(early < early))
    }
}
