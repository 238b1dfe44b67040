/// A calendar date and time of day as EXIF writes it: `YYYY:MM:DD HH:MM:SS`, no time zone (the camera's clock).
package struct ExifDateTime: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
    /// The year, 1 through 9999.
    package let year: Int
    /// The month, 1 through 12.
    package let month: Int
    /// The day of the month, 1 through the month's length.
    package let day: Int
    /// The hour, 0 through 23.
    package let hour: Int
    /// The minute, 0 through 59.
    package let minute: Int
    /// The second, 0 through 59.
    package let second: Int

    /// Creates a date and time; nil when a component is out of range (month 13, February 30, hour 24, ...).
    package init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Parses `YYYY:MM:DD HH:MM:SS`; nil for anything else (EXIF's all-blank "unknown" value included).
    package init?(exifString text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 19, bytes[4] == 0x3A, bytes[7] == 0x3A, bytes[10] == 0x20, bytes[13] == 0x3A,
            bytes[16] == 0x3A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// `YYYY:MM:DD HH:MM:SS`, the form EXIF's DateTimeOriginal holds.
    package var exifString: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return
            "\(padded(year, 4)):\(padded(month, 2)):\(padded(day, 2)) \(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))"
    }

    package var description: String { exifString }

    /// This moment moved by `seconds` (negative goes back), across days, months and years; clamped to years 1...9999.
    package func adding(seconds: Int) -> ExifDateTime {
        let total = Self.daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        let lowest = Self.daysFromCivil(year: 1, month: 1, day: 1) * 86_400
        let highest = Self.daysFromCivil(year: 9999, month: 12, day: 31) * 86_400 + 86_399
        // 10,000 years is about 3.2e11 s: a larger shift clamps anyway, and this keeps the sum from overflowing.
        let shift = min(max(seconds, -400_000_000_000), 400_000_000_000)
        let moved = min(max(total + shift, lowest), highest)
        let days = moved >= 0 ? moved / 86_400 : (moved - 86_399) / 86_400
        let rest = moved - days * 86_400
        let (y, m, d) = Self.civilFromDays(days)
        // Every component is in range by construction.
        return ExifDateTime(year: y, month: m, day: d, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)!
    }

    package static func < (lhs: ExifDateTime, rhs: ExifDateTime) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second) < (
            rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second
        )
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian; day 0 = 1970-01-01).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
