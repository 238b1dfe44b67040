/// The EXIF fields hdrshoot reads from an image (and the simulator writes into its JPEGs).
///
/// A field is nil when the image does not carry it. Strings are as the file holds them, up to the first
/// NUL, with trailing spaces dropped.
package struct ExifFields: Sendable, Equatable, Hashable {
    /// ExposureTime (tag 0x829A): the exposure in seconds as the camera recorded it, exactly.
    package var exposureTime: ExifRational?
    /// DateTimeOriginal (tag 0x9003): when the exposure was taken, `YYYY:MM:DD HH:MM:SS` in the camera's clock.
    package var dateTimeOriginal: String?
    /// Make (tag 0x010F): the maker, `SONY` for Sony bodies.
    package var make: String?
    /// Model (tag 0x0110): the body's model name, e.g. `ILCE-7M3`.
    package var model: String?

    /// Creates a set of fields; every one is optional.
    package init(
        exposureTime: ExifRational? = nil, dateTimeOriginal: String? = nil, make: String? = nil, model: String? = nil
    ) {
        self.exposureTime = exposureTime
        self.dateTimeOriginal = dateTimeOriginal
        self.make = make
        self.model = model
    }

    /// The exposure time in seconds, when the image records one.
    package var exposureSeconds: Double? { exposureTime?.seconds }

    /// DateTimeOriginal as a date and time, when it is present and well-formed.
    package var dateTimeOriginalValue: ExifDateTime? { dateTimeOriginal.flatMap(ExifDateTime.init(exifString:)) }
}

/// An EXIF RATIONAL: two unsigned 32-bit integers, kept exactly as written (`25/10` stays `25/10`).
package struct ExifRational: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The numerator.
    package let numerator: UInt32
    /// The denominator, never zero.
    package let denominator: UInt32

    /// Creates a rational; a zero denominator is a programming error (the reader refuses such values in files).
    package init(numerator: UInt32, denominator: UInt32) {
        precondition(denominator != 0, "an EXIF rational needs a non-zero denominator")
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The value in seconds.
    package var seconds: Double { Double(numerator) / Double(denominator) }

    /// Whether two rationals are the same number, however written (`25/10` and `5/2`).
    package func isSameValue(as other: ExifRational) -> Bool {
        UInt64(numerator) * UInt64(other.denominator) == UInt64(other.numerator) * UInt64(denominator)
    }

    /// `numerator/denominator`, e.g. `1/250`, `25/10`.
    package var description: String { "\(numerator)/\(denominator)" }
}
